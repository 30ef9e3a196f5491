/**
 * The fixed costs of a stage, read from its synthesized templates (the production stage, `prod`,
 * as `npm run deploy -- -c stage=prod` would create it; no bundling): KMS keys, secrets, alarm
 * metrics, the web ACL and its rules, the SQS event source mappings that poll while idle, the
 * stream mappings and their filters, log retention, whether the edge is on, each function's
 * tracing mode and its log settings (whether Lambda writes its START/END/REPORT lines).
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
  /** CloudFront Functions on the distribution's viewer requests (each request runs each). */
  cloudFrontFunctions: number;
  /** Functions (route operation or worker name) Lambda traces actively; the others pass through (no traces). */
  tracedFunctions: string[];
  /** Whether every worker is actively traced (the bill's stream and queue invocations). */
  workersTraced: boolean;
  /** Whether Lambda writes its platform lines (START, END, REPORT) per invocation: text logs, or a system log level of INFO or DEBUG. */
  platformLogLines: boolean;
  roles: number;
}

/** The function a resource is (its description starts `<name>: `, as infra/local/aws/model.ts reads it). */
const functionName = (fn: { properties: Record<string, any> }) =>
  /^(\w+): /.exec(String(fn.properties.Description ?? ''))?.[1];

export async function synthesizedFixedCosts(stage = 'prod'): Promise<StackFacts> {
  const { synthesizedResources } = await import('../../infra/local/aws/model');
  const resources = await synthesizedResources(stage);
  const ofType = (type: string) => resources.filter((r) => r.type === type);
  const mappings = ofType('AWS::Lambda::EventSourceMapping');
  const streamMappings = mappings.filter((m) => String(m.properties.EventSourceArn).includes(':dynamodb:'));
  const functions = ofType('AWS::Lambda::Function').filter((f) => f.properties.MemorySize === 512);
  const active = (f: { properties: Record<string, any> }) => f.properties.TracingConfig?.Mode === 'Active';
  const workerFunctions = functions.filter((f) => f.path.includes('/Workers/'));
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
    cloudFrontFunctions: ofType('AWS::CloudFront::Function').length,
    tracedFunctions: functions.filter(active).flatMap((f) => functionName(f) ?? []),
    workersTraced: workerFunctions.length > 0 && workerFunctions.every(active),
    platformLogLines: functions.some(
      (f) =>
        f.properties.LoggingConfig?.LogFormat !== 'JSON' ||
        !['WARN', 'ERROR', 'FATAL'].includes(f.properties.LoggingConfig?.SystemLogLevel),
    ),
    roles: ofType('AWS::IAM::Role').length,
  };
}
