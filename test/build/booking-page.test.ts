import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BOOKING_PAGE_GENERATED, bookingPageSource } from '../../infra/booking-page';
import { BOOKING_APP_JS, BOOKING_EMBED_JS, BOOKING_PAGE_CSS } from '../../lib/booking-page/app.generated';
import {
  BOOKING_APP_VERSION,
  bookingAppScriptResponse,
  bookingPageResponse,
  bookJsResponse,
  isAllowedOrigin,
} from '../../lib/booking-page/page';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const policyOf = (csp: string) =>
  Object.fromEntries(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe("the booking page's generated script (infra/booking-page.ts)", () => {
  it('is bundled from lib/booking-page/browser and up to date (npm run generate)', async () => {
    expect(
      readFileSync(BOOKING_PAGE_GENERATED, 'utf8'),
      'lib/booking-page/app.generated.ts is stale: run npm run generate',
    ).toBe(await bookingPageSource());
  }, 60_000);

  it('stays small: the page script under 30 KB minified, the embed under 2 KB', () => {
    expect(Buffer.byteLength(BOOKING_APP_JS)).toBeLessThan(30 * 1024);
    expect(Buffer.byteLength(BOOKING_EMBED_JS)).toBeLessThan(2 * 1024);
  });

  it('the browser code type-checks on its own: DOM types, no Node types', async () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', join(root, 'lib', 'booking-page', 'browser')], {
      cwd: root,
      timeout: 120_000,
    }).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(result).toBe('');
  }, 120_000);
});

describe('GET /book, /book/app.js, /book.js (lib/booking-page/page.ts)', () => {
  it("serves the page with a strict policy: scripts from this host, no inline script, its style by hash, framed by the key's origins only", () => {
    const answer = bookingPageResponse({
      key: 'pk_live123',
      allowedOrigins: ['https://spa.example', 'http://localhost:5173', 'http://evil.example', 'https://x.example/path'],
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    const policy = policyOf(answer.headers['content-security-policy']);
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(['https://spa.example', 'http://localhost:5173']);
    expect(policy['style-src']).toEqual([`'sha256-${createHash('sha256').update(BOOKING_PAGE_CSS).digest('base64')}'`]);
    // The one style element is the hashed sheet; the one script is a file of this host.
    expect(answer.body).toContain(`<style>${BOOKING_PAGE_CSS}</style>`);
    expect(answer.body.match(/<script\b[^>]*>/g)).toEqual([
      `<script src="book/app.js?v=${BOOKING_APP_VERSION}" defer>`,
    ]);
    expect(answer.body).toContain('<meta name="medspa-booking-key" content="pk_live123">');
    expect(answer.headers).not.toHaveProperty('x-frame-options');
  });

  it('lets no site frame the page when the key has no origins (or is unknown), and escapes what it echoes', () => {
    const answer = bookingPageResponse({ key: 'pk_"><script>', allowedOrigins: [] });
    expect(policyOf(answer.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
    expect(answer.body).not.toContain('pk_"><script>');
    expect(answer.body.match(/<script\b/g)).toHaveLength(1);
    const elsewhere = bookingPageResponse({ key: 'pk_a', allowedOrigins: [], apiBase: 'https://api.example.com/prod' });
    expect(policyOf(elsewhere.headers['content-security-policy'])['connect-src']).toEqual([
      "'self'",
      'https://api.example.com',
    ]);
    expect(elsewhere.body).toContain('<meta name="medspa-api-base" content="https://api.example.com/prod">');
  });

  it('accepts the origins publishable keys accept: https, or http on localhost and 127.0.0.1', () => {
    for (const origin of [
      'https://spa.example',
      'https://spa.example:8443',
      'http://localhost',
      'http://127.0.0.1:3000',
    ])
      expect(isAllowedOrigin(origin), origin).toBe(true);
    for (const origin of [
      'http://spa.example',
      'https://spa.example/',
      'https://*.example',
      'spa.example',
      'https://spa.example:99999',
      "https://a.example; script-src 'unsafe-inline'",
    ])
      expect(isAllowedOrigin(origin), origin).toBe(false);
  });

  it("serves the script for a year under its versioned address, and book.js with the API's base", () => {
    const app = bookingAppScriptResponse();
    expect(app.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(app.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(app.body).toBe(BOOKING_APP_JS);
    const embed = bookJsResponse('https://api.example.com/prod/');
    expect(embed.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(embed.headers['cache-control']).toBe('public, max-age=300');
    expect(embed.body.endsWith('})("https://api.example.com/prod");\n')).toBe(true);
    expect(bookJsResponse('https://x.example/</script>').body).not.toContain('</script>');
    expect(() => bookJsResponse('javascript:alert(1)')).toThrow();
  });
});
