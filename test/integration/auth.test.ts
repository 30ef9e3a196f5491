import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { describe, expect, it } from 'vitest';
import { config } from '../../lib/config';
import { TOKEN_AUDIENCE } from '../../lib/auth/tokens';
import { call, makePractice, type CallResult } from '../fixtures/api';
import { decodeToken } from '../fixtures/tokens';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function jwks(): Promise<JSONWebKeySet> {
  const response = await call('GET', '/.well-known/jwks.json');
  expect(response.status).toBe(200);
  return response.body;
}

/** The RFC 6749 shape (no envelope), a token the JWKS verifies, naming the practice and credential. */
async function expectValidTokenResponse(
  response: CallResult,
  expected: { medspaId: string; clientId: string; role: string },
) {
  expect(response.status).toBe(200);
  expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
  expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: expected.role });
  expect(response.body).not.toHaveProperty('success');
  expect(response.headers['cache-control']).toBe('no-store');

  const token: string = response.body.access_token;
  const { header, payload } = decodeToken(token);
  expect(header.alg).toBe('ES256');
  expect(typeof header.kid).toBe('string');

  const keySet = await jwks();
  expect(keySet.keys.map((key) => key.kid)).toContain(header.kid);
  for (const key of keySet.keys) {
    // Public halves only.
    expect(key).not.toHaveProperty('d');
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  }

  const verified = await jwtVerify(token, createLocalJWKSet(keySet), {
    algorithms: ['ES256'],
    issuer: config().TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
  });
  expect(verified.payload).toMatchObject({ medspa_id: expected.medspaId, role: expected.role, sub: expected.clientId });
  expect((payload.exp as number) - (payload.iat as number)).toBe(3600);

  // And the API accepts it.
  const practice = await call('GET', '/v1/practice', { token });
  expect(practice.status).toBe(200);
  expect(practice.body.data.id).toBe(expected.medspaId);
}

describe('POST /v1/auth/token', () => {
  it('exchanges JSON { client_id, client_secret } for an ES256 JWT the JWKS verifies', async () => {
    const practice = await makePractice();
    const response = await call('POST', '/v1/auth/token', {
      body: { client_id: practice.clientId, client_secret: practice.clientSecret },
    });
    await expectValidTokenResponse(response, {
      medspaId: practice.medspaId,
      clientId: practice.clientId,
      role: 'admin',
    });
  });

  it('exchanges the OAuth form (grant_type=client_credentials, x-www-form-urlencoded)', async () => {
    const practice = await makePractice();
    const response = await call('POST', '/v1/auth/token', {
      rawBody: form({
        grant_type: 'client_credentials',
        client_id: practice.clientId,
        client_secret: practice.clientSecret,
      }),
      headers: FORM,
    });
    await expectValidTokenResponse(response, {
      medspaId: practice.medspaId,
      clientId: practice.clientId,
      role: 'admin',
    });
  });

  it('exchanges HTTP Basic credentials with a grant_type=client_credentials form body', async () => {
    const practice = await makePractice();
    const response = await call('POST', '/v1/auth/token', {
      rawBody: form({ grant_type: 'client_credentials' }),
      headers: { ...FORM, authorization: basic(practice.clientId, practice.clientSecret) },
    });
    await expectValidTokenResponse(response, {
      medspaId: practice.medspaId,
      clientId: practice.clientId,
      role: 'admin',
    });
  });

  it('names the credential role in the token and its scope', async () => {
    const practice = await makePractice();
    const created = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 'Reports', role: 'analyst' },
    });
    expect(created.status).toBe(201);
    const response = await call('POST', '/v1/auth/token', {
      body: { client_id: created.body.data.client_id, client_secret: created.body.data.client_secret },
    });
    await expectValidTokenResponse(response, {
      medspaId: practice.medspaId,
      clientId: created.body.data.client_id,
      role: 'analyst',
    });
  });

  it('issues a distinct token per exchange', async () => {
    const practice = await makePractice();
    const body = { client_id: practice.clientId, client_secret: practice.clientSecret };
    const first = await call('POST', '/v1/auth/token', { body });
    const second = await call('POST', '/v1/auth/token', { body });
    expect(first.body.access_token).not.toBe(second.body.access_token);
    expect(decodeToken(first.body.access_token).payload.jti).not.toBe(
      decodeToken(second.body.access_token).payload.jti,
    );
  });

  describe('rejects bad credentials with 401 INVALID_CLIENT', () => {
    const expectInvalidClient = (response: CallResult) => {
      expect(response.status).toBe(401);
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe('INVALID_CLIENT');
      expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
      expect(response.body).not.toHaveProperty('access_token');
    };

    it('wrong secret (JSON, form and Basic)', async () => {
      const practice = await makePractice();
      expectInvalidClient(
        await call('POST', '/v1/auth/token', {
          body: { client_id: practice.clientId, client_secret: `${practice.clientSecret}x` },
        }),
      );
      expectInvalidClient(
        await call('POST', '/v1/auth/token', {
          rawBody: form({ grant_type: 'client_credentials', client_id: practice.clientId, client_secret: 'cs_wrong' }),
          headers: FORM,
        }),
      );
      expectInvalidClient(
        await call('POST', '/v1/auth/token', {
          rawBody: form({ grant_type: 'client_credentials' }),
          headers: { ...FORM, authorization: basic(practice.clientId, 'cs_wrong') },
        }),
      );
    });

    it("another credential's secret", async () => {
      const a = await makePractice();
      const b = await makePractice();
      expectInvalidClient(
        await call('POST', '/v1/auth/token', { body: { client_id: a.clientId, client_secret: b.clientSecret } }),
      );
    });

    it('unknown client_id, well-formed or not', async () => {
      const practice = await makePractice();
      // Same shape as a real id (it names an existing practice), but never issued.
      const forged = `${practice.clientId.slice(0, -16)}0000000000000000`;
      expectInvalidClient(
        await call('POST', '/v1/auth/token', { body: { client_id: forged, client_secret: practice.clientSecret } }),
      );
      expectInvalidClient(
        await call('POST', '/v1/auth/token', {
          body: { client_id: 'ci_nobody', client_secret: practice.clientSecret },
        }),
      );
      expectInvalidClient(
        await call('POST', '/v1/auth/token', {
          body: { client_id: 'ci_00000000000000000000000000000000aaaaaaaaaaaaaaaa', client_secret: 'x' },
        }),
      );
    });

    it('unknown and wrong-secret answers are indistinguishable', async () => {
      const practice = await makePractice();
      const wrong = await call('POST', '/v1/auth/token', {
        body: { client_id: practice.clientId, client_secret: 'cs_wrong' },
      });
      const unknown = await call('POST', '/v1/auth/token', {
        body: { client_id: 'ci_nobody', client_secret: 'cs_wrong' },
      });
      const strip = (r: CallResult) => ({ status: r.status, code: r.body.error.code, message: r.body.error.message });
      expect(strip(wrong)).toEqual(strip(unknown));
    });

    it('a revoked credential', async () => {
      const practice = await makePractice();
      const created = await call('POST', '/v1/credentials', {
        token: practice.adminToken,
        body: { name: 'Temp', role: 'manager' },
      });
      const body = { client_id: created.body.data.client_id, client_secret: created.body.data.client_secret };
      expect((await call('POST', '/v1/auth/token', { body })).status).toBe(200);
      expect((await call('DELETE', `/v1/credentials/${body.client_id}`, { token: practice.adminToken })).status).toBe(
        200,
      );
      expectInvalidClient(await call('POST', '/v1/auth/token', { body }));
    });
  });

  describe('rejects incomplete requests with 400 VALIDATION_ERROR', () => {
    const expectValidation = (response: CallResult) => {
      expect(response.status).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details?.length).toBeGreaterThan(0);
    };

    it('missing client_secret, missing client_id, empty object, no body', async () => {
      const practice = await makePractice();
      const noSecret = await call('POST', '/v1/auth/token', { body: { client_id: practice.clientId } });
      expectValidation(noSecret);
      expect(noSecret.body.error.details[0].path).toBe('client_secret');
      const noId = await call('POST', '/v1/auth/token', { body: { client_secret: practice.clientSecret } });
      expectValidation(noId);
      expect(noId.body.error.details[0].path).toBe('client_id');
      expectValidation(await call('POST', '/v1/auth/token', { body: {} }));
      expectValidation(await call('POST', '/v1/auth/token'));
    });

    it('a form with only grant_type and no Basic header', async () => {
      expectValidation(
        await call('POST', '/v1/auth/token', { rawBody: form({ grant_type: 'client_credentials' }), headers: FORM }),
      );
    });

    it('an unsupported grant_type', async () => {
      const practice = await makePractice();
      expectValidation(
        await call('POST', '/v1/auth/token', {
          rawBody: form({ grant_type: 'password', client_id: practice.clientId, client_secret: practice.clientSecret }),
          headers: FORM,
        }),
      );
    });

    it('wrong types', async () => {
      expectValidation(await call('POST', '/v1/auth/token', { body: { client_id: 5, client_secret: true } }));
    });
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('is public, bare (no envelope) and lists the signing key', async () => {
    const response = await call('GET', '/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('success');
    expect(response.body.keys.length).toBeGreaterThanOrEqual(1);
    expect(response.headers['x-request-id']).toBeTruthy();
  });
});
