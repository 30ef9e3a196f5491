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
    throw new Error(`Invalid stage "${stage}": lowercase letters, digits and "-", starting with a letter, at most 24 characters`);
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
}

export const DEFAULT_API_OPTIONS: ApiOptions = {
  throttle: { rateLimit: 100, burstLimit: 200 },
  alarms: { api5xxPercent: 1, apiP99LatencyMs: 2000 },
};

/**
 * `-c tokenIssuer=... -c domainName=api.example.com -c certificateArn=arn:aws:acm:...
 * -c throttleRateLimit=100 -c throttleBurstLimit=200 -c alarmEmail=ops@example.com
 * -c alarm5xxPercent=1 -c alarmP99LatencyMs=2000`
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
    if (!Number.isFinite(value) || value <= 0) throw new Error(`Context ${name} must be a positive number, got "${raw}"`);
    return value;
  };
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
  };
}

/** Stack names of a stage: the data (`MedspaApi-<stage>-Stateful`) and the code (`MedspaApi-<stage>-Stateless`). */
export const stackNames = (stage: string) => ({ stateful: `MedspaApi-${stage}-Stateful`, stateless: `MedspaApi-${stage}-Stateless` });

/** `createToken` -> `CreateToken`, `front-desk` -> `FrontDesk`: construct ids. */
export const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
