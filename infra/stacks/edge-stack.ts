import type { Construct } from 'constructs';
import { ArnFormat, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { ErrorCode } from '../../lib/errors';
import { allowLogGroupEncryption } from '../constructs/data-store';
import { EDGE_REGION, stageSettings } from './stage-settings';

export interface EdgeStackProps extends StackProps {
  stage: string;
  /** Requests one IP may send in any 5 minutes (`wafRateLimit`). */
  rateLimit: number;
}

/** The SSM parameter (in us-east-1) that hands the web ACL's ARN to the stage's distribution. */
export const webAclArnParameterName = (stage: string) => `/medspa-api/${stage}/edge/web-acl-arn`;

/** The common rule set's rule that blocks bodies over 8 KB: the API takes up to 256 KiB, so it only counts. */
export const COUNTED_MANAGED_RULES = ['SizeRestrictions_BODY'] as const;

const RATE_LIMITED: ErrorCode = 'RATE_LIMITED';
const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

/**
 * The stage's AWS WAF web ACL, CLOUDFRONT scope, so in us-east-1 whatever the stage's region
 * (docs/decisions/0018): a rate-based rule per client IP and AWS's common rule set, every rule with
 * its CloudWatch metrics; blocked and counted requests logged (credentials redacted) to a log group
 * encrypted with this stack's own key. Its ARN is published in an SSM parameter the stateless
 * stack's distribution reads at deploy: account-agnostic, no cross-stack export across regions.
 */
export class EdgeStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    const settings = stageSettings(props.stage);
    super(scope, id, {
      description: `medspa-api (${props.stage}): AWS WAF web ACL of the API's CloudFront distribution`,
      ...props,
      env: { ...props.env, region: EDGE_REGION },
    });

    // WAF only logs to groups named aws-waf-logs-*, in the web ACL's region.
    const logGroupName = `aws-waf-logs-medspa-api-${settings.stage}`;
    const logsKey = new Key(this, 'LogsKey', {
      description: `medspa-api ${settings.stage}: AWS WAF logs`,
      enableKeyRotation: true,
      alias: `alias/medspa-api-${settings.stage}-waf-logs`,
      removalPolicy: settings.removalPolicy,
      pendingWindow: settings.keyPendingWindow,
    });
    allowLogGroupEncryption(logsKey, logGroupName);
    const logGroup = new LogGroup(this, 'WafLogs', {
      logGroupName,
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
      encryptionKey: logsKey,
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `medspa-api-${settings.stage}`,
      description: `medspa-api ${settings.stage}: per-IP rate limit and the AWS common rule set in front of the HTTP API`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`medspa-api-${settings.stage}`),
      // The API's error envelope (API reference, errors), so a client handles the edge's 429 as the API's.
      customResponseBodies: {
        [RATE_LIMITED]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            success: false,
            error: { code: RATE_LIMITED, message: 'Too many requests from this address; retry after 60 s' },
          }),
        },
      },
      rules: [
        {
          name: 'RateLimitPerIp',
          priority: 0,
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', limit: props.rateLimit, evaluationWindowSec: 300 },
          },
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: RATE_LIMITED,
                responseHeaders: [{ name: 'retry-after', value: '60' }],
              },
            },
          },
          visibilityConfig: visibility('RateLimitPerIp'),
        },
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 1,
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_MANAGED_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          overrideAction: { none: {} },
          visibilityConfig: visibility('AWSManagedRulesCommonRuleSet'),
        },
      ],
    });

    const logging = new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      // WAF takes the group's ARN without the `:*` that LogGroup.logGroupArn ends with.
      logDestinationConfigs: [
        this.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
      // Logged headers are the viewer's: never its credentials.
      redactedFields: ['authorization', 'x-booking-token', 'x-hold-token'].map((name) => ({
        singleHeader: { Name: name },
      })),
      // Only what a rule blocked or counted: allowed traffic is in the API's access log already.
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [{ ActionCondition: { Action: 'BLOCK' } }, { ActionCondition: { Action: 'COUNT' } }],
          },
        ],
      },
    });
    logging.node.addDependency(logGroup);

    new StringParameter(this, 'WebAclArn', {
      parameterName: webAclArnParameterName(settings.stage),
      description: `medspa-api ${settings.stage}: ARN of the web ACL, read by the stateless stack's distribution at deploy`,
      stringValue: this.webAcl.attrArn,
    });
    new CfnOutput(this, 'WebAclArnOutput', { value: this.webAcl.attrArn });
  }
}
