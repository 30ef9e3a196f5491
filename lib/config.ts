import * as z from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/webhooks';

const ConfigSchema = z.object({
  TABLE_NAME: z.string().min(1).default('medspa'),
  /** Set for DynamoDB Local (or any non-AWS endpoint); unset on AWS. */
  DYNAMODB_ENDPOINT: z.string().url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  TOKEN_ISSUER: z.string().min(1).default('https://medspa-api.local'),
  /** On AWS the JWT signing key is a KMS asymmetric key: its id or ARN. Unset: a local key file. */
  SIGNING_KMS_KEY_ID: z.string().optional(),
  DATA_DIR: z.string().default('.data'),
  /** How long a container trusts a credential's revocation state and the practice's access gate. */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /** How long a pagination cursor stays valid after it is handed out (lib/crypto/cursor.ts). */
  CURSOR_TTL_SECONDS: z.coerce.number().int().min(1).default(86_400),
  /** Allow http://localhost and http://127.0.0.1 webhook URLs (local server only). */
  ALLOW_LOCAL_WEBHOOKS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Waits between webhook delivery attempts, e.g. `1s,2s,5s` (default: the contract's 5s,5m,30m,2h,5h,10h); then given up. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_RETRY_SCHEDULE)
    .transform((text, context) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  /** Total time a webhook delivery attempt may take (connect, send, response): the contract's 10 s. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(10_000).default(10_000),
  /** SQS queue of webhook delivery jobs (set by CDK for the fan-out and delivery workers). */
  DELIVERIES_QUEUE_URL: z.string().url().optional(),
  /** Per-credential token bucket: sustained requests per second (0 turns rate limiting off). */
  RATE_LIMIT_RPS: z.coerce.number().min(0).default(20),
  /** Per-credential token bucket: the burst a credential may send at once. */
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).default(40),
  /** Per client IP (public-booking calls, the token exchange): sustained requests per second (0 turns it off). */
  RATE_LIMIT_IP_RPS: z.coerce.number().min(0).default(10),
  /** Per client IP: the burst one address may send at once. */
  RATE_LIMIT_IP_BURST: z.coerce.number().int().min(1).default(50),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | undefined;

/** Parsed once per process and failing fast on a bad value. */
export function config(): Config {
  cached ??= ConfigSchema.parse(process.env);
  return cached;
}

/** Tests and the local server set env before first use; this lets them re-read it. */
export function resetConfig(): void {
  cached = undefined;
}
