import * as z from './schemas/zod';
import { requireStageEnvironment } from './aws/local-runtime';
import { KEY_RATE_LIMIT_DEFAULTS, KEY_RATE_LIMIT_MAX, type KeyRateLimits } from './domain/rate-limit';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/webhooks';

const ConfigSchema = z.object({
  TABLE_NAME: z._default(z.string().check(z.minLength(1)), 'medspa'),
  /** Set for DynamoDB Local (or any non-AWS endpoint); unset on AWS. */
  DYNAMODB_ENDPOINT: z.optional(z.string().check(z.url())),
  AWS_REGION: z._default(z.string(), 'us-east-1'),
  /** Set for the local object store (infra/local/object-store.ts); unset on AWS. */
  S3_ENDPOINT: z.optional(z.string().check(z.url())),
  /** The clinical photos' bucket (section 13): set by the stage for the functions that touch photos, locally by the server. */
  PHOTOS_BUCKET: z.optional(z.string().check(z.minLength(1))),
  TOKEN_ISSUER: z._default(z.string().check(z.minLength(1)), 'https://medspa-api.local'),
  /**
   * The API's own public base URL (scheme, host, any path prefix): what `GET /book.js` names, an
   * answer cached publicly, so never taken from a request's Host. Set by the stage (its custom
   * domain, else API Gateway's endpoint) and locally by the server to the address it listens on.
   */
  API_BASE_URL: z.optional(z.string().check(z.url({ protocol: /^https?$/ }))),
  /** On AWS the JWT signing key is a KMS asymmetric key: its id or ARN. Unset: a local key file. */
  SIGNING_KMS_KEY_ID: z.optional(z.string()),
  /**
   * On AWS the token key's public half (SPKI DER, base64), read from KMS once at deploy by a custom
   * resource (functions/deploy/tokenPublicKey.ts) and given to every function that verifies or
   * issues tokens: no kms:GetPublicKey round trip on a cold start. Unset: the local key file's.
   */
  TOKEN_PUBLIC_KEY: z.optional(z.string()),
  DATA_DIR: z._default(z.string(), '.data'),
  /** How long a container trusts a credential's revocation state and the practice's access gate. */
  AUTH_CACHE_TTL_MS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 60_000),
  /** How long a container reuses the client, service and provider names an appointment list page shows (lib/use-cases/list-names.ts). */
  LIST_NAMES_TTL_MS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 60_000),
  /** How long a pagination cursor stays valid after it is handed out (lib/crypto/cursor.ts). */
  CURSOR_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1)), 86_400),
  /** Allow http://localhost and http://127.0.0.1 webhook URLs (local server only). */
  ALLOW_LOCAL_WEBHOOKS: z.pipe(
    z._default(z.enum(['true', 'false']), 'false'),
    z.transform((v) => v === 'true'),
  ),
  /** Waits between webhook delivery attempts, e.g. `1s,2s,5s` (default: the contract's 5s,5m,30m,2h,5h,10h); then given up. */
  WEBHOOK_RETRY_SCHEDULE: z.pipe(
    z._default(z.string(), DEFAULT_RETRY_SCHEDULE),
    z.transform((text, payload) => {
      try {
        return parseRetrySchedule(text);
      } catch (error) {
        // A mini transform's payload has no addIssue: the issue goes in as classic's addIssue puts it.
        payload.issues.push({ code: 'custom', message: (error as Error).message, input: text });
        return z.NEVER;
      }
    }),
  ),
  /** Total time a webhook delivery attempt may take (connect, send, response): the contract's 10 s. */
  WEBHOOK_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 10_000),
  /** SQS queue of webhook delivery jobs (set by CDK for the fan-out and delivery workers). */
  DELIVERIES_QUEUE_URL: z.optional(z.string().check(z.url())),
  /** Per-credential token bucket: sustained requests per second (0 turns rate limiting off). */
  RATE_LIMIT_RPS: z._default(z.coerce.number().check(z.gte(0)), 20),
  /** Per-credential token bucket: the burst a credential may send at once. */
  RATE_LIMIT_BURST: z._default(z.coerce.number().check(z.int(), z.gte(1)), 40),
  /**
   * Per client IP before a caller is known (the token exchange; public calls whose key turns out
   * missing or unknown): sustained requests per second (0 turns it off).
   */
  RATE_LIMIT_IP_RPS: z._default(z.coerce.number().check(z.gte(0)), 10),
  /** Per client IP before a caller is known: the burst one address may send at once. */
  RATE_LIMIT_IP_BURST: z._default(z.coerce.number().check(z.int(), z.gte(1)), 50),
  /**
   * Set on AWS when the stage's edge (CloudFront + WAF, docs/decisions/0018) is on: the value
   * CloudFront adds to every origin request as `x-origin-verify` (lib/http/client-ip.ts). With it
   * set, a request without it did not come through the edge and is refused. Unset (locally, or the
   * edge off): no edge, every request is taken as it comes.
   */
  ORIGIN_VERIFY_SECRET: z.optional(z.string().check(z.minLength(32))),
  /**
   * A new publishable key's `rate_limits` when its creator names none (API reference, online
   * booking: each client IP 10/s, burst 20; the key overall 200/s, burst 400). Keys made before
   * keys had their own limits follow these too. Public calls are limited while RATE_LIMIT_RPS > 0.
   * At most what the admin API accepts, since a key stores them as its own.
   */
  RATE_LIMIT_KEY_IP_RPS: z._default(
    z.coerce.number().check(z.gt(0), z.lte(KEY_RATE_LIMIT_MAX.requests_per_second)),
    KEY_RATE_LIMIT_DEFAULTS.per_client_ip.requests_per_second,
  ),
  RATE_LIMIT_KEY_IP_BURST: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(KEY_RATE_LIMIT_MAX.burst)),
    KEY_RATE_LIMIT_DEFAULTS.per_client_ip.burst,
  ),
  RATE_LIMIT_KEY_RPS: z._default(
    z.coerce.number().check(z.gt(0), z.lte(KEY_RATE_LIMIT_MAX.requests_per_second)),
    KEY_RATE_LIMIT_DEFAULTS.overall.requests_per_second,
  ),
  RATE_LIMIT_KEY_BURST: z._default(
    z.coerce.number().check(z.int(), z.gte(1), z.lte(KEY_RATE_LIMIT_MAX.burst)),
    KEY_RATE_LIMIT_DEFAULTS.overall.burst,
  ),
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']), 'INFO'),
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | undefined;

/** Parsed once per process and failing fast on a bad value. */
export function config(): Config {
  cached ??= ConfigSchema.parse(process.env);
  return cached;
}

/** API_BASE_URL, which a function that names it cannot do without (the stage sets it for every route). */
export function apiBaseUrl(): string {
  requireStageEnvironment('API_BASE_URL');
  const url = config().API_BASE_URL;
  if (!url) throw new Error('API_BASE_URL is not set: the stage sets it on AWS, the local server when it listens');
  return url;
}

/** A new publishable key's rate limits when its creator names none (RATE_LIMIT_KEY_*). */
export const defaultKeyRateLimits = (settings: Config = config()): KeyRateLimits => ({
  per_client_ip: { requests_per_second: settings.RATE_LIMIT_KEY_IP_RPS, burst: settings.RATE_LIMIT_KEY_IP_BURST },
  overall: { requests_per_second: settings.RATE_LIMIT_KEY_RPS, burst: settings.RATE_LIMIT_KEY_BURST },
});

/** Tests and the local server set env before first use; this lets them re-read it. */
export function resetConfig(): void {
  cached = undefined;
}
