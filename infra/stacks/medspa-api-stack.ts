import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Construct } from 'constructs';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { handlerModule, type RouteDef } from '../../lib/http/route';
import { routes as routeTable } from '../../lib/routes';
import { DataStore } from '../constructs/data-store';
import { RouteGroupStack } from './route-group-stack';
import { pascal, stageSettings, type StageSettings } from './stage-settings';

/** Project root (holds package-lock.json, functions/, lib/). */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Operations that issue tokens and so need kms:Sign; every other function only verifies (kms:GetPublicKey). */
export const TOKEN_SIGNING_OPERATIONS: readonly string[] = ['createToken'];

export interface MedspaApiStackProps extends StackProps {
  stage: string;
  /** Defaults to the route table of lib/routes. */
  routes?: Readonly<Record<string, RouteDef>>;
  /** Defaults to `<root>/<handlerModule(operation, route)>.ts`. */
  entryFor?: (operation: string, route: RouteDef) => string;
  /** Defaults to TOKEN_SIGNING_OPERATIONS; each must be in `routes`. */
  signingOperations?: readonly string[];
  /** `iss` of the access tokens. Defaults to the API's endpoint URL. */
  tokenIssuer?: string;
  projectRoot?: string;
}

/**
 * One deployable stack per stage: the stateful part (table + signing key) and the HTTP API in
 * this stack, the Lambdas in one nested stack per route group.
 */
export class MedspaApiStack extends Stack {
  readonly settings: StageSettings;
  readonly data: DataStore;
  readonly api: HttpApi;
  readonly routeGroups: Record<string, RouteGroupStack> = {};

  constructor(scope: Construct, id: string, props: MedspaApiStackProps) {
    const settings = stageSettings(props.stage); // validates the stage before it becomes part of a stack name
    super(scope, id, { description: `medspa-api (${props.stage})`, ...props });
    this.settings = settings;
    const routes = props.routes ?? routeTable;
    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    const entryFor = props.entryFor ?? ((operation: string, route: RouteDef) => join(projectRoot, `${handlerModule(operation, route)}.ts`));

    const signingOperations = new Set(props.signingOperations ?? TOKEN_SIGNING_OPERATIONS);
    for (const operation of signingOperations) {
      if (!(operation in routes)) throw new Error(`Signing operation "${operation}" is not in the route table`);
    }
    const groups = new Map<string, Array<readonly [string, RouteDef]>>();
    const routeKeys = new Map<string, string>();
    for (const [operation, route] of Object.entries(routes)) {
      const routeKey = `${route.method} ${route.path}`;
      const clash = routeKeys.get(routeKey);
      if (clash) throw new Error(`Route ${routeKey} is declared by both ${clash} and ${operation}`);
      routeKeys.set(routeKey, operation);
      groups.set(route.group, [...(groups.get(route.group) ?? []), [operation, route] as const]);
    }

    this.data = new DataStore(this, 'Data', settings);

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `medspa-api-${settings.stage}`,
      description: `medspa-api ${settings.stage}`,
      createDefaultStage: false,
    });
    const logGroupPrefix = `/medspa-api/${settings.stage}`;
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', {
      logGroupName: `${logGroupPrefix}/http-api-access`,
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
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

    const environment: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      TOKEN_ISSUER: props.tokenIssuer ?? this.api.apiEndpoint,
      SIGNING_KMS_KEY_ID: this.data.signingKey.keyArn,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_SERVICE_NAME: 'medspa-api',
      STAGE: settings.stage,
    };

    for (const [group, operations] of groups) {
      const id = `${pascal(group)}Routes`;
      this.routeGroups[group] = new RouteGroupStack(this, id, {
        group,
        operations,
        api: this.api,
        table: this.data.table,
        signingKey: this.data.signingKey,
        settings,
        environment,
        projectRoot,
        entryFor,
        logGroupPrefix: `${logGroupPrefix}/functions`,
        signingOperations,
      });
    }

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'SigningKeyArn', { value: this.data.signingKey.keyArn });
  }
}
