import { createHash } from 'node:crypto';
import { originProblem } from '../domain/cors';
import { BOOKING_APP_JS, BOOKING_EMBED_JS, BOOKING_PAGE_CSS } from './app.generated';

/**
 * The online booking page (API reference, online booking): pure functions the API's handlers call for
 *   GET /book?key=pk_...  bookingPageResponse: the page, framed only by the key's allowed origins
 *   GET /book/app.js      bookingAppScriptResponse: its script (the browser code, bundled)
 *   GET /book.js          bookJsResponse: the embed script sites put where the page should appear
 * Answers in API Gateway's structured result shape; no AWS SDK, no I/O.
 */

export interface StaticResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** Where the page loads its script from, relative to the page (so a stage path such as /prod stays in). */
export const BOOKING_APP_PATH = '/book/app.js';

const sha256 = (text: string, encoding: 'hex' | 'base64') => createHash('sha256').update(text, 'utf8').digest(encoding);

/** Changes with the script: the page asks for `book/app.js?v=<version>`, which may be cached for good. */
export const BOOKING_APP_VERSION = sha256(BOOKING_APP_JS, 'hex').slice(0, 16);
const STYLE_HASH = `'sha256-${sha256(BOOKING_PAGE_CSS, 'base64')}'`;

/**
 * An origin as publishable keys take them (lib/domain/cors.ts), checked again before a stored one
 * goes into the page's frame-ancestors: nothing but an exact origin ever reaches that header.
 */
export const isAllowedOrigin = (origin: string): boolean => originProblem(origin) === null;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function sourceOf(url: string): string {
  const { origin } = new URL(url);
  if (!/^https?:\/\//.test(origin)) throw new Error(`apiBase must be an http(s) URL: ${url}`);
  return origin;
}

export interface BookingPageOptions {
  /** The publishable key of the request (`?key=`); the page reads it from here, else from its address. */
  key?: string | null;
  /** The key's allowed_origins: the sites that may frame the page (none: no site may). */
  allowedOrigins: readonly string[];
  /** Where the page calls the API when not on its own origin (an absolute URL, e.g. https://api.example.com/prod). */
  apiBase?: string;
}

/**
 * GET /book?key=pk_...: the page's HTML. Its Content-Security-Policy allows scripts from this host
 * only (no inline script), its one inline style sheet by hash, calls to this host (and `apiBase`),
 * and framing by the key's allowed origins only. For a missing or unknown key, call it with no
 * origins: the page then shows the API's 401 as "this booking page is not set up correctly".
 */
export function bookingPageResponse({ key, allowedOrigins, apiBase }: BookingPageOptions): StaticResponse {
  const ancestors = [...new Set(allowedOrigins.filter(isAllowedOrigin))];
  const connect = ["'self'", ...(apiBase ? [sourceOf(apiBase)] : [])];
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${STYLE_HASH}`,
    "img-src 'self' data:",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.length ? ancestors.join(' ') : "'none'"}`,
  ].join('; ');
  const metas = [
    key && /^pk_[\x21-\x7e]{1,200}$/.test(key) ? `<meta name="medspa-booking-key" content="${escapeHtml(key)}">` : '',
    apiBase ? `<meta name="medspa-api-base" content="${escapeHtml(apiBase)}">` : '',
  ].filter(Boolean);
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
${metas.map((meta) => `${meta}\n`).join('')}<title>Book an appointment</title>
<link rel="icon" href="data:,">
<style>${BOOKING_PAGE_CSS}</style>
</head>
<body>
<main id="app"><p>Loading…</p><noscript><p>Online booking needs JavaScript. Please turn it on, or contact the practice to book.</p></noscript></main>
<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>
<script src="${BOOKING_APP_PATH.slice(1)}?v=${BOOKING_APP_VERSION}" defer></script>
</body>
</html>
`;
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      // The frame-ancestors follow the key's origins, which an admin may change: never cached.
      'cache-control': 'no-store',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    },
    body,
  };
}

/** GET /book/app.js: the page's script. Its address carries its version, so it is cached for a year. */
export function bookingAppScriptResponse(): StaticResponse {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      etag: `"${BOOKING_APP_VERSION}"`,
    },
    body: BOOKING_APP_JS,
  };
}

/**
 * GET /book.js: the embed script, for `<script src="<base>/book.js" data-key="pk_..."></script>`.
 * `baseUrl` is the API's public base (scheme, host and any stage path, e.g.
 * https://api.example.com/prod): the iframe shows `<base>/book?key=...` and only messages from
 * that origin resize it. Cached briefly: sites load it from their pages.
 */
export function bookJsResponse(baseUrl: string): StaticResponse {
  const base = baseUrl.replace(/\/+$/, '');
  sourceOf(base);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=300',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    },
    // JSON.stringify, with < escaped, is a safe JS string literal for any URL.
    body: `(function(BOOK_BASE){${BOOKING_EMBED_JS}})(${JSON.stringify(base).replace(/</g, '\\u003c')});\n`,
  };
}
