/**
 * Browser access (API reference, online booking and CORS), pure: which origins may be listed, and
 * the headers of a preflight and of an answer to an allowed origin. Credentials are bearer tokens
 * and publishable keys in headers, never cookies, so no `Access-Control-Allow-Credentials`.
 */

/** At most this many origins per publishable key or practice. */
export const MAX_ALLOWED_ORIGINS = 20;

/** Request headers a browser may send (lower case, as the preflight lists them). */
export const CORS_ALLOW_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  'if-match',
  'x-publishable-key',
  'x-booking-token',
  'x-hold-token',
] as const;

/** Answer headers a browser script may read. */
export const CORS_EXPOSE_HEADERS = [
  'X-Request-Id',
  'ETag',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
] as const;

/** How long a browser may reuse a preflight's answer. */
export const CORS_MAX_AGE_SECONDS = 600;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?';

/**
 * The shape of a listable origin, as written after URL normalisation (lower case): `https://` with
 * a DNS name (letters, digits and hyphens; no wildcard or other character a browser would never
 * send as a host), an IPv4 or a bracketed IPv6 address, or `http://localhost` / `http://127.0.0.1`;
 * an optional port 1-65535. Also the OpenAPI document's `pattern` for an origin (lib/schemas/origins.ts).
 */
export const ORIGIN_PATTERN = `^(?:https://(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])|http://(?:localhost|127\\.0\\.0\\.1))${PORT}$`;
const ORIGIN = new RegExp(ORIGIN_PATTERN);

/**
 * Why `origin` cannot be listed, or null when it can: an exact origin (scheme, a DNS name or IP
 * address, optional port; no path, query, credentials, trailing slash or wildcard), `https://` only
 * except `http://localhost` and `http://127.0.0.1` on any port. The URL parser finds what is not
 * written as browsers send it; ORIGIN_PATTERN what it takes as a host but no browser could be on.
 */
export function originProblem(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return 'not an origin (scheme://host[:port])';
  }
  if (url.origin !== origin)
    return `not an exact origin: write it as ${url.origin === 'null' ? 'scheme://host[:port]' : url.origin}`;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
    return 'https:// only (http:// for localhost and 127.0.0.1)';
  if (!ORIGIN.test(origin))
    return 'not an origin: the host must be a DNS name or an IP address (no wildcard), the port 1-65535';
  return null;
}

/** Whether a request's `Origin` is among the allowed ones (exact match; origins are compared as sent). */
export const originAllowed = (origin: string, allowed: readonly string[]) => allowed.includes(origin);

/** Headers on every answer to an allowed origin. */
export const corsAnswerHeaders = (origin: string): Record<string, string> => ({
  'Access-Control-Allow-Origin': origin,
  Vary: 'Origin',
  'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '),
});

/**
 * The preflight's answer headers: the path's methods, our request headers, cached 10 minutes; the
 * origin's own (Allow-Origin, Vary) when there is one (a preflight without `Origin` is no browser's).
 */
export const corsPreflightHeaders = (
  origin: string | undefined,
  methods: readonly string[],
): Record<string, string> => ({
  ...(origin ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {}),
  'Access-Control-Allow-Methods': [...new Set([...methods, 'OPTIONS'])].join(', '),
  'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
  'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
});
