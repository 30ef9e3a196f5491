/**
 * The fixed costs of a stage, read from its synthesized templates (the production stage, `prod`,
 * as `npm run deploy -- -c stage=prod` would create it; no bundling): KMS keys, secrets, alarm
 * metrics, the web ACL and its rules, the SQS event source mappings that poll while idle, the
 * stream mappings and their filters, log retention, and whether the edge and tracing are on.
 */
import { PRICES_DATE, PRICES_REGION } from './prices';

export interface StackFacts {
  stage: string;
  pricesLabel: string;
  kmsKeys: number;
  secrets: number;
  alarmMetrics: number;
  webAcls: number;
  wafRules: number;
  sqsMappings: number;
  streamMappings: number;
  /** Stream mappings with a filter (the records they skip cost no invocation). */
  filteredStreamMappings: number;
  logRetentionMonths: number;
  edge: boolean;
  tracing: boolean;
  roles: number;
}

export async function synthesizedFixedCosts(stage = 'prod'): Promise<StackFacts> {
  const { synthesizedResources } = await import('../../infra/local/aws/model');
  const resources = await synthesizedResources(stage);
  const ofType = (type: string) => resources.filter((r) => r.type === type);
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  const streamMappings = mappings.filter((m) => String(m.properties.EventSourceArn).includes(':dynamodb:'));
  const functions = ofType('AWS::Lambda::Function').filter((f) => f.properties.MemorySize === 512);
  const retention = Math.max(...ofType('AWS::Logs::LogGroup').map((g) => Number(g.properties.RetentionInDays ?? 0)));
  return {
    stage,
    pricesLabel: `${PRICES_REGION} list prices of ${PRICES_DATE}, stage ${stage} synthesized`,
    kmsKeys: ofType('AWS::KMS::Key').length,
    secrets: ofType('AWS::SecretsManager::Secret').length,
    // A metric-math alarm is billed per metric it reads.
    alarmMetrics: ofType('AWS::CloudWatch::Alarm').reduce(
      (sum, alarm) =>
        sum + (alarm.properties.Metrics ? alarm.properties.Metrics.filter((m: any) => m.MetricStat).length : 1),
      0,
    ),
    webAcls: ofType('AWS::WAFv2::WebACL').length,
    wafRules: ofType('AWS::WAFv2::WebACL').reduce((sum, acl) => sum + (acl.properties.Rules?.length ?? 0), 0),
    sqsMappings: mappings.filter((m) => String(m.properties.EventSourceArn).includes(':sqs:')).length,
    streamMappings: streamMappings.length,
    filteredStreamMappings: streamMappings.filter((m) => m.properties.FilterCriteria).length,
    logRetentionMonths: retention / 30,
    edge: ofType('AWS::CloudFront::Distribution').length > 0,
    tracing: functions.length > 0 && functions.every((f) => f.properties.TracingConfig?.Mode === 'Active'),
    roles: ofType('AWS::IAM::Role').length,
  };
}
