import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Construct } from 'constructs';
import { CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  DomainName,
  HttpApi,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { EVENT_RULES, type EventRule } from '../../lib/events/rules';
import { handlerModule, methodsOf, type RouteDef } from '../../lib/http/route';
import { routes as routeTable } from '../../lib/routes';
import { workers as workerTable, type WorkerDef } from '../../lib/workers';
import type { FunctionLogs } from '../constructs/app-function';
import { logGroupPrefix as stageLogGroupPrefix } from '../constructs/data-store';
import { EdgeDistribution } from '../constructs/edge-distribution';
import { TokenPublicKey } from '../constructs/token-public-key';
import { RouteGroupStack } from './route-group-stack';
import { DEFAULT_API_OPTIONS, pascal, stageSettings, type ApiOptions, type StageSettings } from './stage-settings';
import type { StatefulRefs } from './stateful-refs';
import { WorkersStack } from './workers-stack';

/** Project root (holds package-lock.json, functions/, lib/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Operations that issue tokens and so need kms:Sign; every other function only verifies (TOKEN_PUBLIC_KEY). */
export const TOKEN_SIGNING_OPERATIONS: readonly string[] = ['createToken'];

/** What the stateless stack takes from the stateful one, by reference. */
export type { StatefulRefs } from './stateful-refs';

export interface StatelessStackProps extends StackProps {
  stage: string;
  data: StatefulRefs;
  options?: Partial<ApiOptions>;
  /** Defaults to the route table of lib/routes. */
  routes?: Readonly<Record<string, RouteDef>>;
  /** Defaults to `<root>/<handlerModule(operation, route)>.ts`. */
  entryFor?: (operation: string, route: RouteDef) => string;
  /** Defaults to TOKEN_SIGNING_OPERATIONS; each must be in `routes`. */
  signingOperations?: readonly string[];
  /** Defaults to the workers table of lib/workers. */
  workers?: Readonly<Record<string, WorkerDef>>;
  /** Defaults to lib/events/rules.ts. */
  rules?: readonly EventRule[];
  /** The stage's edge (infra/stage.ts makes it when `edgeEnabled`): the SSM parameter naming its web ACL's ARN. */
  edge?: { webAclArnParameter: string };
  projectRoot?: string;
}

/**
 * Everything that can be redeployed or rebuilt without losing data: the HTTP API (throttled,
 * access-logged, optionally on a TLS 1.2 custom domain, or behind the stage's CloudFront edge and
 * its web ACL), one nested stack of Lambdas per route
 * group, the event pipeline's nested stack (queues, workers, rules, schedules), the alarms and
 * their topic.
 */
export class StatelessStack extends Stack {
  readonly settings: StageSettings;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly alarmTopic: Topic;
  readonly routeGroups: Record<string, RouteGroupStack> = {};
  readonly workers: WorkersStack;
  readonly domain?: DomainName;
  readonly edge?: EdgeDistribution;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    const settings = stageSettings(props.stage);
    super(scope, id, { description: `medspa-api (${props.stage}): HTTP API, functions, event pipeline`, ...props });
    // Exports/imports: CloudFormation refuses to delete the stateful stack, or a resource of it,
    // while this stack uses it. The price: dropping a reference takes two deploys (stop using it
    // here first, then remove it there), or a switch to WEAK for that resource.
    CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);
    this.settings = settings;
    const options: ApiOptions = { ...DEFAULT_API_OPTIONS, ...props.options };
    const routes = props.routes ?? routeTable;
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    const entryFor =
      props.entryFor ??
      ((operation: string, route: RouteDef) => join(projectRoot, `${handlerModule(operation, route)}.ts`));
    const { data } = props;

    const signingOperations = new Set(props.signingOperations ?? TOKEN_SIGNING_OPERATIONS);
    for (const operation of signingOperations) {
      if (!(operation in routes)) throw new Error(`Signing operation "${operation}" is not in the route table`);
    }
    const groups = new Map<string, Array<readonly [string, RouteDef]>>();
    const routeKeys = new Map<string, string>();
    for (const [operation, route] of Object.entries(routes)) {
      for (const method of methodsOf(route)) {
        const routeKey = `${method} ${route.path}`;
        const clash = routeKeys.get(routeKey);
        if (clash) throw new Error(`Route ${routeKey} is declared by both ${clash} and ${operation}`);
        routeKeys.set(routeKey, operation);
      }
      groups.set(route.group, [...(groups.get(route.group) ?? []), [operation, route] as const]);
    }

    const logGroupPrefix = stageLogGroupPrefix(settings.stage);
    const logs: FunctionLogs = {
      key: data.opsKey,
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    };

    this.alarmTopic = new Topic(this, 'AlarmTopic', {
      displayName: `medspa-api ${settings.stage} alarms`,
      masterKey: data.opsKey,
      enforceSSL: true,
    });
    if (options.alarmEmail) this.alarmTopic.addSubscription(new EmailSubscription(options.alarmEmail));
    const alarmAction = new SnsAction(this.alarmTopic);

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `medspa-api-${settings.stage}`,
      description: `medspa-api ${settings.stage}`,
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      logGroupName: `${logGroupPrefix}/http-api-access`,
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
      encryptionKey: data.opsKey,
    });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // Every route's default; a per-credential limit (API reference, local server and admin command) is the functions' business.
      throttle: { rateLimit: options.throttle.rateLimit, burstLimit: options.throttle.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        // No bodies, headers or query strings: only the route and its outcome.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    if (props.edge) {
      this.edge = new EdgeDistribution(this, 'Edge', {
        stage: settings.stage,
        api: this.api,
        webAclArnParameter: props.edge.webAclArnParameter,
        secretKey: data.opsKey,
        domain: options.domain,
        readerLogGroupName: `${logGroupPrefix}/deploy/webAclArn`,
        logs,
      });
      if (options.domain) {
        new CfnOutput(this, 'DomainTarget', {
          value: this.edge.distribution.distributionDomainName,
          description: `CNAME/alias target for ${options.domain.name} (the CloudFront distribution)`,
        });
      }
    } else if (options.domain) {
      this.domain = new DomainName(this, 'Domain', {
        domainName: options.domain.name,
        certificate: Certificate.fromCertificateArn(this, 'Certificate', options.domain.certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(this, 'DomainMapping', { api: this.api, domainName: this.domain, stage: this.stage });
      new CfnOutput(this, 'DomainTarget', {
        value: this.domain.regionalDomainName,
        description: `CNAME/alias target for ${options.domain.name}`,
      });
    }

    // The API's own address, which GET /book.js names (never a request's Host) and tokens are issued by:
    // the edge's when it is on, else the custom domain, else the stage's endpoint.
    const publicUrl = this.edge?.url ?? (options.domain ? `https://${options.domain.name}` : this.api.apiEndpoint);
    const environment: Record<string, string> = {
      TOKEN_ISSUER: options.tokenIssuer ?? publicUrl,
      API_BASE_URL: publicUrl,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_SERVICE_NAME: 'medspa-api',
      STAGE: settings.stage,
      // With it set, the functions refuse requests that went around the edge (lib/http/edge-only.ts).
      ...(this.edge ? { ORIGIN_VERIFY_SECRET: this.edge.originVerifySecret } : {}),
    };

    // Read from KMS once at deploy; every function that verifies or issues tokens gets it in its configuration.
    const tokenPublicKey = new TokenPublicKey(this, 'TokenPublicKey', {
      signingKey: data.signingKey,
      entry: join(projectRoot, 'functions/deploy/tokenPublicKey.ts'),
      projectRoot,
      stage: settings.stage,
      logGroupName: `${logGroupPrefix}/deploy/tokenPublicKey`,
      logs,
    });

    for (const [group, operations] of groups) {
      this.routeGroups[group] = new RouteGroupStack(this, `${pascal(group)}Routes`, {
        group,
        operations,
        api: this.api,
        data,
        settings,
        environment,
        projectRoot,
        entryFor,
        logGroupPrefix: `${logGroupPrefix}/functions`,
        logs,
        signingOperations,
        tokenPublicKey: tokenPublicKey.value,
      });
    }

    this.workers = new WorkersStack(this, 'Workers', {
      workers: props.workers ?? workerTable,
      rules: props.rules ?? EVENT_RULES,
      data,
      settings,
      environment: { LOG_LEVEL: settings.logLevel, POWERTOOLS_SERVICE_NAME: 'medspa-api', STAGE: settings.stage },
      projectRoot,
      logGroupPrefix: `${logGroupPrefix}/workers`,
      logs,
      alarmTopic: this.alarmTopic,
    });

    const period = Duration.minutes(5);
    const serverErrorRate = new MathExpression({
      label: '5xx %',
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: this.api.metricServerError({ period, statistic: 'Sum' }),
        requests: this.api.metricCount({ period, statistic: 'Sum' }),
      },
      period,
    });
    new Alarm(this, 'Api5xxRateAlarm', {
      alarmDescription: `medspa-api ${settings.stage}: more than ${options.alarms.api5xxPercent}% of requests answered 5xx`,
      metric: serverErrorRate,
      threshold: options.alarms.api5xxPercent,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(alarmAction);
    new Alarm(this, 'ApiP99LatencyAlarm', {
      alarmDescription: `medspa-api ${settings.stage}: p99 latency above ${options.alarms.apiP99LatencyMs} ms`,
      metric: this.api.metricLatency({ period, statistic: 'p99' }),
      threshold: options.alarms.apiP99LatencyMs,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(alarmAction);

    new CfnOutput(this, 'ApiUrl', {
      value: this.edge?.url ?? this.stage.url,
      description: this.edge
        ? 'Base URL of the API (its CloudFront distribution)'
        : 'Base URL of the API (execute-api endpoint)',
    });
    if (this.edge)
      new CfnOutput(this, 'OriginUrl', {
        value: this.stage.url,
        description: 'The execute-api endpoint behind the edge: refuses requests that do not come through it',
      });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topicArn });
  }
}
