import { describe, expect, it } from 'vitest';
import { serverUrlOf } from '../../lib/http/server-url';
import { buildOpenApiDocument } from '../../lib/openapi/document';
import { call } from '../fixtures/api';

// Through the route's handler and the local runtime (its synthesized function), so not in the
// unit project with the document's own tests (test/unit/openapi.test.ts).
const doc = buildOpenApiDocument() as Record<string, any>;

describe('GET /v1/openapi.json (and /openapi.json)', () => {
  it('serves the document without a token, at both paths', async () => {
    for (const path of ['/v1/openapi.json', '/openapi.json']) {
      const response = await call('GET', path);
      expect(response.status, path).toBe(200);
      expect(response.headers['x-request-id']).toBeTruthy();
      expect(response.body).toEqual(JSON.parse(JSON.stringify(doc)));
    }
  });

  it("names the request's own host in servers and the token URL", async () => {
    const local = await call('GET', '/v1/openapi.json', { headers: { host: '127.0.0.1:4321' } });
    expect(local.body.servers).toEqual([{ url: 'http://127.0.0.1:4321', description: expect.any(String) }]);
    expect(local.body.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      'http://127.0.0.1:4321/v1/auth/token',
    );
    const aws = await call('GET', '/v1/openapi.json', {
      headers: { host: 'api.glow.example', 'x-forwarded-proto': 'https' },
    });
    expect(aws.body.servers[0].url).toBe('https://api.glow.example');
    expect(serverUrlOf({ host: 'evil.example/<script>' })).toBeNull();
    expect(serverUrlOf({ host: 'localhost:3000' })).toBe('http://localhost:3000');
  });
});
