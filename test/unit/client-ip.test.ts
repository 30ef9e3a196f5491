import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { isAppError } from '../../lib/errors';
import { clientIpOf, EDGE_HEADERS, type ClientEvent } from '../../lib/http/client-ip';
import { edgeOnly } from '../../lib/http/edge-only';
import { serverUrlOf } from '../../lib/http/server-url';
import type { ApiMiddyRequest } from '../../lib/http/types';

const SECRET = `${'x'.repeat(20)}the-stage-origin-verify-secret`;
const CLOUDFRONT = '130.176.0.10';
const event = (headers: Record<string, string>, sourceIp = CLOUDFRONT): ClientEvent => ({
  headers,
  requestContext: { http: { sourceIp } },
});
const throughEdge = (viewerAddress: string) =>
  event({ [EDGE_HEADERS.verify]: SECRET, [EDGE_HEADERS.viewerAddress]: viewerAddress });

function withEdge(secret: string | undefined) {
  if (secret === undefined) delete process.env.ORIGIN_VERIFY_SECRET;
  else process.env.ORIGIN_VERIFY_SECRET = secret;
  resetConfig();
}

afterEach(() => withEdge(undefined));

describe('clientIpOf', () => {
  it("is the viewer's IP from CloudFront-Viewer-Address when the request carries the stage's secret", () => {
    withEdge(SECRET);
    expect(clientIpOf(throughEdge('198.51.100.10:46532'))).toBe('198.51.100.10');
    expect(clientIpOf(throughEdge('2001:DB8::1:46532'))).toBe('2001:db8::1');
  });

  it('ignores a spoofed viewer address: without the secret, or with a wrong one, the peer (sourceIp) is the client', () => {
    withEdge(SECRET);
    const spoofed = { [EDGE_HEADERS.viewerAddress]: '203.0.113.7:1234' };
    expect(clientIpOf(event(spoofed, '192.0.2.50'))).toBe('192.0.2.50');
    expect(clientIpOf(event({ ...spoofed, [EDGE_HEADERS.verify]: `${SECRET}x` }, '192.0.2.50'))).toBe('192.0.2.50');
    expect(clientIpOf(event({ ...spoofed, [EDGE_HEADERS.verify]: SECRET.slice(1) }, '192.0.2.50'))).toBe('192.0.2.50');
    expect(clientIpOf(event({ ...spoofed, [EDGE_HEADERS.verify]: '' }, '192.0.2.50'))).toBe('192.0.2.50');
  });

  it('trusts no header at all where no edge is configured (locally, or the edge off), whatever is sent', () => {
    withEdge(undefined);
    expect(clientIpOf(throughEdge('198.51.100.10:46532'))).toBe(CLOUDFRONT);
    expect(
      clientIpOf(event({ [EDGE_HEADERS.verify]: 'undefined', [EDGE_HEADERS.viewerAddress]: '198.51.100.10:1' })),
    ).toBe(CLOUDFRONT);
  });

  it('falls back to sourceIp when the trusted header is missing or not an address (it becomes a table key)', () => {
    withEdge(SECRET);
    for (const bad of ['', 'no-port', ':443', 'PK#x:1', '198.51.100.10 OR 1=1:5'])
      expect(clientIpOf(throughEdge(bad)), bad).toBe(CLOUDFRONT);
    expect(clientIpOf(event({ [EDGE_HEADERS.verify]: SECRET }))).toBe(CLOUDFRONT);
  });

  it('refuses a too short secret in the configuration (parsed once, failing fast)', () => {
    withEdge('short');
    expect(() => clientIpOf(event({}))).toThrow();
  });
});

describe('with the edge on', () => {
  const refusal = async (headers: Record<string, string>) => {
    try {
      await edgeOnly().before!({ event: { headers } } as unknown as ApiMiddyRequest);
      return null;
    } catch (error) {
      return isAppError(error) ? [error.status, error.code] : error;
    }
  };

  it("refuses, 403, a request that went around CloudFront (no or a wrong secret), and lets the edge's through", async () => {
    withEdge(SECRET);
    expect(await refusal({})).toEqual([403, 'FORBIDDEN']);
    expect(await refusal({ [EDGE_HEADERS.verify]: 'guess' })).toEqual([403, 'FORBIDDEN']);
    expect(await refusal({ [EDGE_HEADERS.verify]: SECRET })).toBeNull();
    withEdge(undefined);
    expect(await refusal({})).toBeNull();
  });

  it("names the stage's public URL (API_BASE_URL) in the API's own URLs only for the edge's requests", () => {
    withEdge(SECRET);
    process.env.API_BASE_URL = 'https://d111.cloudfront.net';
    resetConfig();
    try {
      // CloudFront sends the origin's Host (execute-api answers no other); a viewer's X-Forwarded-Host is no one's word.
      const origin = { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'evil.example' };
      expect(serverUrlOf({ ...origin, [EDGE_HEADERS.verify]: SECRET })).toBe('https://d111.cloudfront.net');
      expect(serverUrlOf(origin)).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com');
      withEdge(undefined);
      expect(serverUrlOf({ ...origin, [EDGE_HEADERS.verify]: SECRET })).toBe(
        'https://abc123.execute-api.eu-west-1.amazonaws.com',
      );
    } finally {
      delete process.env.API_BASE_URL;
      resetConfig();
    }
  });
});
