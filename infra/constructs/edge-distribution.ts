import { Construct } from 'constructs';
import { ArnFormat, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsCustomResource, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { EDGE_HEADERS } from '../../lib/http/client-ip';
import { EDGE_REGION } from '../stacks/stage-settings';
import { logWriteStatement, type FunctionLogs } from './app-function';
import { FunctionRole } from './function-role';
import { acknowledge, bothPacks } from './nag';

export interface EdgeDistributionProps {
  stage: string;
  api: HttpApi;
  /** The SSM parameter in us-east-1 holding the web ACL's ARN (EdgeStack). */
  webAclArnParameter: string;
  /** Encrypts the origin-verify secret. */
  secretKey: IKey;
  /** Served by the distribution instead of its `*.cloudfront.net` name (the certificate in us-east-1). */
  domain?: { name: string; certificateArn: string };
  /** The log group of the deploy-time reader of the web ACL's ARN. */
  readerLogGroupName: string;
  logs: FunctionLogs;
}

/**
 * The stage's CloudFront distribution in front of the HTTP API (docs/decisions/0018): nothing
 * cached, every viewer header but `Host` forwarded with `CloudFront-Viewer-Address`, the stage's
 * web ACL attached, and the origin-verify secret added to every origin request so the functions
 * can tell it from a request sent straight to execute-api. The secret lives in Secrets Manager and
 * reaches CloudFront and the functions as a deploy-time dynamic reference: no template holds it.
 * No CloudFront Function: the viewer's `Host` is not forwarded (execute-api answers its own name
 * only), and the functions name the stage's public URL, `API_BASE_URL`, for the edge's requests
 * instead (lib/http/server-url.ts); the origin-verify header is an origin custom header.
 */
export class EdgeDistribution extends Construct {
  readonly distribution: Distribution;
  /** ORIGIN_VERIFY_SECRET for the functions (a dynamic reference). */
  readonly originVerifySecret: string;
  /** The API's public base URL. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: EdgeDistributionProps) {
    super(scope, id);
    const stack = Stack.of(this);

    const secret = new Secret(this, 'OriginVerifySecret', {
      description: `medspa-api ${props.stage}: ${EDGE_HEADERS.verify} that CloudFront adds and the functions check (ORIGIN_VERIFY_SECRET)`,
      encryptionKey: props.secretKey,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // Nothing outlives it: a new one reaches CloudFront and the functions in the same deploy.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(
      secret,
      bothPacks(
        'SMG4',
        'SecretsManagerRotationEnabled',
        'Rotated by an operator: put a new value and redeploy the stateless stack, which hands it to CloudFront and the functions together (requests through edge locations still on the old value are refused for the minutes CloudFront takes to deploy).',
      ),
    );
    this.originVerifySecret = secret.secretValue.unsafeUnwrap();

    // The web ACL is in us-east-1 and this stack may be anywhere: its ARN is read from the edge
    // stack's parameter at deploy (CDK's crossRegionReferences needs both stacks' regions at synth).
    const role = new FunctionRole(this, 'WebAclArnReaderRole', {
      description: `medspa-api ${props.stage}: reads the web ACL's ARN at deploy`,
    });
    const readerLogs = new LogGroup(this, 'WebAclArnReaderLogs', {
      logGroupName: props.readerLogGroupName,
      retention: props.logs.retention,
      removalPolicy: props.logs.removalPolicy,
      encryptionKey: props.logs.key,
    });
    role.grantOnce('logs', () => logWriteStatement([readerLogs.logGroupArn]));
    const parameterArn = stack.formatArn({
      service: 'ssm',
      region: EDGE_REGION,
      resource: 'parameter',
      resourceName: props.webAclArnParameter.slice(1),
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    // On the role's managed policy (HIPAA: no inline policies), not AwsCustomResource's own policy.
    role.grantOnce(
      'webAclArn',
      () => new PolicyStatement({ sid: 'WebAclArnRead', actions: ['ssm:GetParameter'], resources: [parameterArn] }),
    );
    const reader = new AwsCustomResource(this, 'WebAclArn', {
      onUpdate: {
        service: 'SSM',
        action: 'getParameter',
        parameters: { Name: props.webAclArnParameter },
        region: EDGE_REGION,
        physicalResourceId: PhysicalResourceId.of(props.webAclArnParameter),
      },
      role: role.role,
      logGroup: readerLogs,
      // The SDK in Lambda's runtime: nothing is downloaded at deploy.
      installLatestAwsSdk: false,
      timeout: Duration.minutes(1),
    });
    // AwsCustomResource's function is a singleton at the stack's root, not under this construct.
    const readerFunction = stack.node.findChild(`AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`);
    acknowledge(readerFunction, {
      ...bothPacks(
        undefined,
        'LambdaDLQ',
        "Invoked synchronously by CloudFormation at deploy, which reports a failure as the deploy's.",
      ),
      ...bothPacks(undefined, 'LambdaConcurrency', 'Runs once per deploy of the stage.'),
      ...bothPacks(
        undefined,
        'LambdaInsideVPC',
        'Reads one SSM parameter in us-east-1 on its public endpoint (TLS + SigV4), at deploy only.',
      ),
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `medspa-api ${props.stage}`,
      defaultBehavior: {
        origin: new HttpOrigin(Fn.parseDomainName(props.api.apiEndpoint), {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          customHeaders: { [EDGE_HEADERS.verify]: this.originVerifySecret },
          // API Gateway's own integration limit.
          readTimeout: Duration.seconds(30),
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // Every viewer header, query string and cookie but Host (execute-api answers its own name
        // only), plus CloudFront's headers, CloudFront-Viewer-Address among them.
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: false,
      },
      webAclId: reader.getResponseField('Parameter.Value'),
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
    });
    acknowledge(this.distribution, {
      'AwsSolutions-CFR1':
        "No geo restriction: a practice's clients book from wherever they are (travel, neighbouring countries); abuse is met by the web ACL's rules instead.",
      'AwsSolutions-CFR3':
        'Every request that reaches the API is in its access log (requestContext, status, latency); what the web ACL blocked or counted is in the WAF log. CloudFront standard logs would need an ACL-enabled S3 bucket for a third copy.',
      ...(props.domain
        ? {}
        : {
            'AwsSolutions-CFR4':
              "Without a custom domain the distribution answers on *.cloudfront.net, whose certificate's TLS policy AWS fixes; -c domainName with a us-east-1 certificate serves TLSv1.2_2021 at least.",
          }),
    });
    this.url = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;
  }
}
