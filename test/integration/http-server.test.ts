import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, listen } from '../../infra/local/http-server';
import { MAX_BODY_BYTES } from '../../lib/http/input';
import { createPracticeWithAdmin } from '../../lib/use-cases/practice';

/** The real local HTTP server (the one `npm start` runs), in-process on a free port. */
describe('local HTTP server', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createLocalServer();
    const port = await listen(server, 0);
    baseUrl = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const practiceWithAdmin = async (name: string) => {
    const { practice, credential } = await createPracticeWithAdmin({ name }, new Date());
    return { medspaId: practice.id, clientId: credential.client_id, clientSecret: credential.client_secret };
  };

  const tokenOver = async (clientId: string, clientSecret: string) => {
    const response = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  it('GET /health answers 200 { status: "ok" } without auth', async () => {
    const response = await fetch(`${baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('exchanges a token over HTTP (JSON, form and Basic) and reads the practice with it', async () => {
    const admin = await practiceWithAdmin('HTTP Spa');

    const json = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: admin.clientId, client_secret: admin.clientSecret }),
    });
    expect(json.status).toBe(200);
    const tokenBody = (await json.json()) as Record<string, unknown>;
    expect(tokenBody).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'admin', access_token: expect.any(String) });

    const formBody = new URLSearchParams({ grant_type: 'client_credentials', client_id: admin.clientId, client_secret: admin.clientSecret });
    const form = await fetch(`${baseUrl}/v1/auth/token`, { method: 'POST', body: formBody });
    expect(form.status).toBe(200);

    const basic = await fetch(`${baseUrl}/v1/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${admin.clientId}:${admin.clientSecret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(200);

    for (const token of [tokenBody.access_token, ((await form.json()) as Record<string, unknown>).access_token, ((await basic.json()) as Record<string, unknown>).access_token]) {
      const practice = await fetch(`${baseUrl}/v1/practice`, { headers: { authorization: `Bearer ${token}` } });
      expect(practice.status).toBe(200);
      expect(practice.headers.get('etag')).toBe('"1"');
      expect(practice.headers.get('x-content-type-options')).toBe('nosniff');
      expect(practice.headers.get('strict-transport-security')).toBeTruthy();
      const body = (await practice.json()) as { success: boolean; data: { id: string; name: string } };
      expect(body.success).toBe(true);
      expect(body.data).toMatchObject({ id: admin.medspaId, name: 'HTTP Spa' });
    }
  });

  it('passes query strings, path parameters and methods through', async () => {
    const admin = await practiceWithAdmin('Routing Spa');
    const token = await tokenOver(admin.clientId, admin.clientSecret);
    const auth = { authorization: `Bearer ${token}` };

    const badLimit = await fetch(`${baseUrl}/v1/credentials?limit=0`, { headers: auth });
    expect(badLimit.status).toBe(400);
    const listed = await fetch(`${baseUrl}/v1/credentials?limit=1`, { headers: auth });
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);

    const patched = await fetch(`${baseUrl}/v1/practice`, {
      method: 'PATCH',
      headers: { ...auth, 'content-type': 'application/json', 'if-match': '"1"' },
      body: JSON.stringify({ name: 'Routed Spa' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('etag')).toBe('"2"');

    const missing = await fetch(`${baseUrl}/v1/credentials/${encodeURIComponent('ci_no such')}`, { method: 'DELETE', headers: auth });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('CREDENTIAL_NOT_FOUND');

    const unknown = await fetch(`${baseUrl}/v1/unknown`, { headers: auth });
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as { success: boolean; error: { code: string; request_id: string } };
    expect(unknownBody).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect(unknownBody.error.request_id).toBe(unknown.headers.get('x-request-id'));

    const noToken = await fetch(`${baseUrl}/v1/practice`);
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE (not a reset), creates nothing, and keeps serving', async () => {
    const admin = await practiceWithAdmin('Big Body Spa');
    const token = await tokenOver(admin.clientId, admin.clientSecret);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const total = async () => {
      const response = await fetch(`${baseUrl}/v1/credentials`, { headers: auth });
      return ((await response.json()) as { pagination: { total: number } }).pagination.total;
    };
    const before = await total();

    for (const size of [MAX_BODY_BYTES + 1024, 4 * 1024 * 1024]) {
      const response = await fetch(`${baseUrl}/v1/credentials`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'x'.repeat(size), role: 'admin' }),
      });
      expect(response.status).toBe(413);
      const body = (await response.json()) as { success: boolean; error: { code: string; request_id: string } };
      expect(body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect(body.error.request_id).toBe(response.headers.get('x-request-id'));
    }

    const malformed = await fetch(`${baseUrl}/v1/credentials`, { method: 'POST', headers: auth, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe('INVALID_JSON');

    expect(await total()).toBe(before);
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
  });
});
