import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/**
 * Everything that differs between stages (`cdk deploy -c stage=<name>`, one deploy per practice
 * environment). `prod` and `prod-*` are production: data and logs are retained and the table
 * cannot be deleted by CloudFormation.
 */
export interface StageSettings {
  stage: string;
  production: boolean;
  /** Table, signing key and log groups. */
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

/** Stack name of a stage: `MedspaApi-<stage>`. */
export const stackName = (stage: string) => `MedspaApi-${stage}`;

/** `createToken` -> `CreateToken`, `front-desk` -> `FrontDesk`: construct ids. */
export const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
