import type { oas31 } from 'zod-openapi';
import { isIdempotent, isLimitedPerIp, isRateLimited, type RouteDef } from '../http/route';

/**
 * Rate limits and idempotency keys (API reference, conventions) as the OpenAPI document states them. The
 * middlewares that enforce them live in lib/http; a route row may say `rateLimited` /
 * `idempotent` itself, and until it does the contract's rule applies: every authenticated route is
 * rate limited per credential, and every POST but the token exchange takes an `Idempotency-Key`.
 * The typed client's operation map (infra/client-operations.ts) reads the same hook, so the
 * client sends keys exactly where the document says they are honoured.
 */
export interface TrafficFlags {
  /** Limited per credential: RateLimit-* on every answer, 429 RATE_LIMITED with Retry-After. */
  rateLimited?: boolean;
  /** Takes an Idempotency-Key (replays, 422 IDEMPOTENCY_KEY_REUSED, 409 IDEMPOTENCY_KEY_IN_USE); `required`: 400 without. */
  idempotent?: boolean | 'required';
}

export interface Traffic {
  rateLimited: boolean;
  idempotent: boolean;
}

/** THE hook: which traffic rules apply to one route row. */
export function trafficOf(_operation: string, route: RouteDef & TrafficFlags): Traffic {
  return {
    // The same rule the middlewares enforce (lib/http/route.ts).
    rateLimited: route.rateLimited ?? (isRateLimited(route) || isLimitedPerIp(route)),
    idempotent: isIdempotent(route),
  };
}

/**
 * The traffic error codes and their statuses, which lib/errors.ts's ERROR_STATUS lists too: kept
 * apart only for their place at the head of the typed client's ErrorCode union.
 */
export const TRAFFIC_ERROR_STATUS = {
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
} as const;

/** `components.headers`: response headers. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      "The request id (API Gateway's, which its access log names too); the same as `error.request_id`. Quote it when asking for support.",
    schema: { type: 'string', examples: ['Jk6sTgWmoAMEVvA='] },
  },
  ETag: {
    description: 'The resource `version` as `"<version>"`; send it back in `If-Match`.',
    schema: { type: 'string', pattern: '^"[0-9]+"$', examples: ['"3"'] },
  },
  ListETag: {
    description:
      'A weak tag of the page (its items, `total` and whether more follow; not its cursor): send it back in `If-None-Match` to be answered 304 with no body while the page is unchanged.',
    schema: { type: 'string', pattern: '^W/"[A-Za-z0-9_-]{27}"$', examples: ['W/"mJ8s3V1qk2nB0xYtR4uE7wZ5aLc"'] },
  },
  'RateLimit-Limit': {
    description:
      "Requests the caller may make at once (the burst of its own budget: its credential's, or on a public call its client IP's on the key).",
    schema: { type: 'integer', minimum: 0, examples: [40] },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0, examples: [39] },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets (the limit is full again).',
    schema: { type: 'integer', minimum: 0, examples: [2] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0, examples: [1] },
  },
  'WWW-Authenticate': {
    description: '`Bearer`, with the error (RFC 6750).',
    schema: { type: 'string', examples: ['Bearer error="invalid_token"'] },
  },
} satisfies Record<string, oas31.HeaderObject>;

/** What `If-Match` takes (lib/http/input.ts parseIfMatch): `"3"`, `W/"3"`, `3`, or `*` (no condition). */
export const IF_MATCH_PATTERN = '^\\s*(\\*|(W/)?("[0-9]+"|[0-9]+))\\s*$';

/** `components.parameters`: request headers. */
export const REQUEST_HEADER_PARAMETERS = {
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Only change the resource if its `version` is still this one: `"3"`, `W/"3"` or `3` (the `ETag` of your last read; `*` means no condition). A stale one answers 409 `VERSION_CONFLICT`; without the header the change is unconditional.',
    schema: { type: 'string', pattern: IF_MATCH_PATTERN, examples: ['"3"'] },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'The `ETag` of your last read of this resource or list page (several may be listed, comma-separated; weak tags compare as strong ones). While it is still current the answer is 304 with no body: poll with it.',
    schema: { type: 'string', maxLength: 1024, examples: ['"3"', 'W/"mJ8s3V1qk2nB0xYtR4uE7wZ5aLc"'] },
  },
} satisfies Record<string, oas31.ParameterObject>;

/** The Idempotency-Key header: inlined per operation, each with its own example key (./operations.ts). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same body within 24 h replays the first answer; with a different body it is 422 `IDEMPOTENCY_KEY_REUSED`, and while the first is still running 409 `IDEMPOTENCY_KEY_IN_USE`. Use a new random key (a UUID) per operation; the typed client adds one to every POST.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
} satisfies oas31.ParameterObject;

export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;
