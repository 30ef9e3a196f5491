import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/**
 * Everything that differs between stages (`cdk deploy -c stage=<name>`, one deploy per practice
 * environment). `prod` and `prod-*` are production: data and logs are retained and the table
 * cannot be deleted by CloudFormation.
 */
export interface StageSettings {
  stage: string;
  production: boolean;
  /** Table, keys, secrets and log groups. */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** KMS waiting period before a destroyed key is gone. */
  keyPendingWindow: Duration;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,23}$/;

export function isProductionStage(stage: string): boolean {
  return stage === 'prod' || stage.startsWith('prod-');
}

export function stageSettings(stage: string): StageSettings {
  if (!STAGE_PATTERN.test(stage)) {
    throw new Error(
      `Invalid stage "${stage}": lowercase letters, digits and "-", starting with a letter, at most 24 characters`,
    );
  }
  const production = isProductionStage(stage);
  return {
    stage,
    production,
    removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    logRetention: production ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
    keyPendingWindow: Duration.days(production ? 30 : 7),
    logLevel: 'INFO',
  };
}

/** Options of the stateless stack that come from `-c name=value` (all optional). */
export interface ApiOptions {
  /** `iss` of the access tokens. Defaults to `https://<domainName>`, else the API's endpoint URL. */
  tokenIssuer?: string;
  /** A custom domain (with `certificateArn`, an ACM certificate in the stack's region): TLS 1.2 minimum. */
  domain?: { name: string; certificateArn: string };
  /** Stage-wide default route throttling (API Gateway token bucket, requests per second / burst). */
  throttle: { rateLimit: number; burstLimit: number };
  /** Subscribed to the alarm topic (needs confirming by mail). */
  alarmEmail?: string;
  /** Alarm thresholds. */
  alarms: { api5xxPercent: number; apiP99LatencyMs: number };
  /**
   * The edge: CloudFront in front of the HTTP API with an AWS WAF web ACL (docs/decisions/0018).
   * Unset: on for production stages only (`edgeEnabled`).
   */
  edge?: boolean;
  /** The web ACL's rate-based rule: requests one IP may send in any 5 minutes before the edge blocks it. */
  wafRateLimit: number;
}

export const DEFAULT_API_OPTIONS: ApiOptions = {
  throttle: { rateLimit: 100, burstLimit: 200 },
  alarms: { api5xxPercent: 1, apiP99LatencyMs: 2000 },
  // 20 requests/s sustained, one credential's whole in-app budget (RATE_LIMIT_RPS): an integrator's
  // server at full rate never meets it; a flood from one address is dropped at the edge.
  wafRateLimit: 6000,
};

/** Whether a stage has the edge: `-c edge=true|false`, else on for production stages. */
export const edgeEnabled = (stage: string, options: Partial<ApiOptions>): boolean =>
  options.edge ?? isProductionStage(stage);

/** The web ACL of a CloudFront distribution must be made in us-east-1, whatever the stage's region. */
export const EDGE_REGION = 'us-east-1';

/**
 * `-c tokenIssuer=... -c domainName=api.example.com -c certificateArn=arn:aws:acm:...
 * -c throttleRateLimit=100 -c throttleBurstLimit=200 -c alarmEmail=ops@example.com
 * -c alarm5xxPercent=1 -c alarmP99LatencyMs=2000 -c edge=true|false -c wafRateLimit=6000`
 * (`edge`: CloudFront + AWS WAF in front of the API, default on for `prod` and `prod-*` only;
 * with it, `certificateArn` must be in us-east-1, as CloudFront requires)
 */
export function apiOptionsFromContext(node: Node): ApiOptions {
  const text = (name: string) => {
    const value = node.tryGetContext(name) as unknown;
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const positive = (name: string, fallback: number) => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`Context ${name} must be a positive number, got "${raw}"`);
    return value;
  };
  const wafRateLimit = () => {
    const limit = Math.round(positive('wafRateLimit', DEFAULT_API_OPTIONS.wafRateLimit));
    if (limit < 10) throw new Error(`Context wafRateLimit must be at least 10 (AWS WAF's minimum), got ${limit}`);
    return limit;
  };
  const edgeText = text('edge');
  if (edgeText !== undefined && edgeText !== 'true' && edgeText !== 'false')
    throw new Error(`Context edge must be true or false, got "${edgeText}"`);
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) throw new Error('domainName and certificateArn go together');
  return {
    tokenIssuer: text('tokenIssuer'),
    domain: domainName && certificateArn ? { name: domainName, certificateArn } : undefined,
    throttle: {
      rateLimit: positive('throttleRateLimit', DEFAULT_API_OPTIONS.throttle.rateLimit),
      burstLimit: Math.round(positive('throttleBurstLimit', DEFAULT_API_OPTIONS.throttle.burstLimit)),
    },
    alarmEmail: text('alarmEmail'),
    alarms: {
      api5xxPercent: positive('alarm5xxPercent', DEFAULT_API_OPTIONS.alarms.api5xxPercent),
      apiP99LatencyMs: positive('alarmP99LatencyMs', DEFAULT_API_OPTIONS.alarms.apiP99LatencyMs),
    },
    edge: edgeText === undefined ? undefined : edgeText === 'true',
    wafRateLimit: wafRateLimit(),
  };
}

/**
 * Stack names of a stage: the data (`MedspaApi-<stage>-Stateful`), the code
 * (`MedspaApi-<stage>-Stateless`) and, with the edge on, the web ACL (`MedspaApi-<stage>-Edge`, us-east-1).
 */
export const stackNames = (stage: string) => ({
  stateful: `MedspaApi-${stage}-Stateful`,
  stateless: `MedspaApi-${stage}-Stateless`,
  edge: `MedspaApi-${stage}-Edge`,
});

/** `createToken` -> `CreateToken`, `front-desk` -> `FrontDesk`: construct ids. */
export const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
