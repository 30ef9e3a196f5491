import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../lib/auth/roles';
import { handlerModule, takesBearer, type RouteDef } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { tokenSigner } from '../../lib/auth/signing';
import { recordAudit } from '../../lib/db/audit';
import { changePractice } from '../../lib/use-cases/practice';
import { call, makePractice, tokenFor, type CallResult, type TestPractice } from '../fixtures/api';
import { TOKEN_CLOCK_SKEW_SECONDS, TOKEN_TTL_SECONDS } from '../../lib/auth/tokens';
import {
  claimsFor,
  decodeToken,
  signWithForeignKey,
  signWithServerKey,
  tamperPayload,
  unsignedToken,
} from '../fixtures/tokens';

/** Status and error code together, so a failure shows both. */
function expectError(response: CallResult, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.body.success).toBe(false);
  expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
}

async function newCredential(practice: TestPractice, role: Role, name = `${role} key`) {
  const created = await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name, role } });
  expect(created.status).toBe(201);
  const { client_id: clientId, client_secret: clientSecret } = created.body.data as {
    client_id: string;
    client_secret: string;
  };
  return { clientId, clientSecret, token: await tokenFor(clientId, clientSecret) };
}

const auditOf = async (practice: TestPractice, query = '') => {
  const response = await call('GET', `/v1/audit-log?limit=100${query}`, { token: practice.adminToken });
  expect(response.status).toBe(200);
  return response.body.data as Array<Record<string, unknown>>;
};

describe('bearer tokens', () => {
  let practice: TestPractice;
  let frontDesk: { clientId: string; clientSecret: string; token: string };
  const getPractice = (token: string) => call('GET', '/v1/practice', { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    practice = await makePractice();
    frontDesk = await newCredential(practice, 'front_desk');
  });

  const caller = () => ({ medspaId: practice.medspaId, clientId: frontDesk.clientId, role: 'front_desk' });

  it('control: a real token, and a token built by the test helpers with the server claims, are accepted', async () => {
    expect((await getPractice(frontDesk.token)).status).toBe(200);
    const rebuilt = await signWithServerKey(claimsFor(caller()));
    const response = await getPractice(rebuilt);
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(practice.medspaId);
  });

  it('no Authorization header: 401 UNAUTHORIZED with WWW-Authenticate: Bearer', async () => {
    const response = await call('GET', '/v1/practice');
    expectError(response, 401, 'UNAUTHORIZED');
    expect(response.headers['www-authenticate']).toBe('Bearer');
  });

  it.each([
    ['empty', () => ''],
    ['scheme only', () => 'Bearer'],
    ['scheme and space', () => 'Bearer '],
    ['token without scheme', () => frontDesk.token],
    ['another scheme', () => `Token ${frontDesk.token}`],
    [
      'Basic client credentials',
      () => `Basic ${Buffer.from(`${frontDesk.clientId}:${frontDesk.clientSecret}`).toString('base64')}`,
    ],
    ['two tokens', () => `Bearer ${frontDesk.token} ${frontDesk.token}`],
    ['not a JWT', () => 'Bearer not-a-jwt'],
    ['three garbage parts', () => 'Bearer aaa.bbb.ccc'],
    ['truncated signature', () => `Bearer ${frontDesk.token.slice(0, -8)}`],
  ])('malformed Authorization (%s): 401 UNAUTHORIZED', async (_name, header) => {
    expectError(await call('GET', '/v1/practice', { headers: { authorization: header() } }), 401, 'UNAUTHORIZED');
  });

  it('alg none (unsigned, valid-looking claims, with or without the server kid or a real signature): 401', async () => {
    const { kid } = await tokenSigner();
    const claims = claimsFor(caller());
    expectError(await getPractice(unsignedToken(claims)), 401, 'UNAUTHORIZED');
    expectError(await getPractice(unsignedToken(claims, kid)), 401, 'UNAUTHORIZED');
    expectError(
      await getPractice(unsignedToken(claims, kid, decodeToken(frontDesk.token).signature)),
      401,
      'UNAUTHORIZED',
    );
  });

  it('a tampered payload under a genuine signature (role escalation, other practice): 401', async () => {
    expectError(await getPractice(tamperPayload(frontDesk.token, { role: 'admin' })), 401, 'UNAUTHORIZED');
    const other = await makePractice();
    expectError(await getPractice(tamperPayload(frontDesk.token, { medspa_id: other.medspaId })), 401, 'UNAUTHORIZED');
    const escalated = await call('POST', '/v1/credentials', {
      headers: { authorization: `Bearer ${tamperPayload(frontDesk.token, { role: 'admin' })}` },
      body: { name: 'escalated', role: 'admin' },
    });
    expectError(escalated, 401, 'UNAUTHORIZED');
  });

  it('a token signed by another ES256 key, with the server kid or another: 401', async () => {
    const { kid } = await tokenSigner();
    expectError(await getPractice(await signWithForeignKey(claimsFor(caller()), kid)), 401, 'UNAUTHORIZED');
    expectError(
      await getPractice(await signWithForeignKey(claimsFor(caller()), 'some-other-kid')),
      401,
      'UNAUTHORIZED',
    );
  });

  it('algorithm confusion (HS256 keyed with the public JWK) under the server kid: 401', async () => {
    const signer = await tokenSigner();
    const secret = new TextEncoder().encode(JSON.stringify(signer.publicJwk));
    const token = await new SignJWT(claimsFor(caller()))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signer.kid })
      .sign(secret);
    expectError(await getPractice(token), 401, 'UNAUTHORIZED');
  });

  describe('correctly signed by the server key but with bad claims: 401', () => {
    const now = () => Math.floor(Date.now() / 1000);
    it.each<[string, (claims: Record<string, unknown>) => Record<string, unknown>]>([
      ['another issuer', (c) => ({ ...c, iss: 'https://evil.example' })],
      ['no issuer', ({ iss: _iss, ...c }) => c],
      ['expired', (c) => ({ ...c, iat: now() - 7200, exp: now() - 60 })],
      ['no exp', ({ exp: _exp, ...c }) => c],
      ['another audience', (c) => ({ ...c, aud: 'another-api' })],
      ['no audience', ({ aud: _aud, ...c }) => c],
      ['not valid yet (nbf in the future)', (c) => ({ ...c, nbf: now() + 600 })],
      ['no medspa_id', ({ medspa_id: _m, ...c }) => c],
      ['no sub', ({ sub: _s, ...c }) => c],
      ['a role the credential does not have', (c) => ({ ...c, role: 'admin' })],
      ['an unknown credential', (c) => ({ ...c, sub: 'ci_nobody' })],
    ])('%s', async (_name, change) => {
      const token = await signWithServerKey(change(claimsFor(caller())));
      expectError(await getPractice(token), 401, 'UNAUTHORIZED');
    });

    it('a role claim the credential does not have is refused even while the credential is cached as live', async () => {
      expect((await getPractice(frontDesk.token)).status).toBe(200);
      const asAdmin = await signWithServerKey({ ...claimsFor(caller()), role: 'admin' });
      expectError(await getPractice(asAdmin), 401, 'UNAUTHORIZED');
      const escalated = await call('POST', '/v1/credentials', {
        token: asAdmin,
        body: { name: 'escalated', role: 'admin' },
      });
      expectError(escalated, 401, 'UNAUTHORIZED');
      expect((await getPractice(frontDesk.token)).status).toBe(200);
    });

    describe('lifetime, issue time, required claims and crit (TOKEN_TTL_SECONDS + TOKEN_CLOCK_SKEW_SECONDS)', () => {
      const ttl = TOKEN_TTL_SECONDS;
      const skew = TOKEN_CLOCK_SKEW_SECONDS;

      it('control: the same key and claims with an hour of life, a lifetime at the bound and an iat within the skew are accepted', async () => {
        const accepted = [
          claimsFor(caller()),
          { ...claimsFor(caller()), exp: now() + ttl + skew },
          { ...claimsFor(caller()), iat: now() + skew - 20, exp: now() + ttl },
        ];
        for (const claims of accepted) {
          const response = await getPractice(await signWithServerKey(claims));
          expect(response.status).toBe(200);
          expect(response.body.data.id).toBe(practice.medspaId);
        }
      });

      it.each<[string, (claims: Record<string, unknown>) => Record<string, unknown>]>([
        ['long-lived: a day of life', (c) => ({ ...c, iat: now(), exp: now() + 86_400 })],
        ['long-lived: one second past lifetime plus skew', (c) => ({ ...c, iat: now(), exp: now() + ttl + skew + 1 })],
        ['long-lived: backdated iat with a still-valid exp', (c) => ({ ...c, iat: now() - 2 * ttl, exp: now() + 600 })],
        ['iat in the future beyond the skew', (c) => ({ ...c, iat: now() + skew + 120, exp: now() + ttl })],
        ['no iat', ({ iat: _iat, ...c }) => c],
        ['iat not a number', (c) => ({ ...c, iat: String(c.iat) })],
        ['no exp', ({ exp: _exp, ...c }) => c],
        ['no sub', ({ sub: _s, ...c }) => c],
        ['empty sub', (c) => ({ ...c, sub: '' })],
        ['no medspa_id', ({ medspa_id: _m, ...c }) => c],
        ['no role', ({ role: _r, ...c }) => c],
        ['a role that does not exist', (c) => ({ ...c, role: 'superuser' })],
      ])('%s: 401 UNAUTHORIZED', async (_name, change) => {
        expectError(await getPractice(await signWithServerKey(change(claimsFor(caller())))), 401, 'UNAUTHORIZED');
      });

      it.each<[string, Record<string, unknown>]>([
        ['crit naming a registered claim', { crit: ['exp'] }],
        ['crit naming an extension that is present', { crit: ['b64'], b64: true }],
        ['an empty crit', { crit: [] }],
        ['crit that is not even an array', { crit: 'exp' }],
      ])('a crit header (%s), otherwise valid: 401 UNAUTHORIZED', async (_name, header) => {
        expectError(await getPractice(await signWithServerKey(claimsFor(caller()), header)), 401, 'UNAUTHORIZED');
      });
    });

    it('the credential of practice A under the medspa_id of practice B', async () => {
      const other = await makePractice();
      const token = await signWithServerKey({ ...claimsFor(caller()), medspa_id: other.medspaId });
      expectError(await getPractice(token), 401, 'UNAUTHORIZED');
    });
  });

  it('a revoked credential: its live token is refused at once, and it can no longer exchange', async () => {
    const doomed = await newCredential(practice, 'manager');
    // Warm the per-process access cache, so the 401 below proves revocation clears it.
    expect((await getPractice(doomed.token)).status).toBe(200);

    const revoked = await call('DELETE', `/v1/credentials/${doomed.clientId}`, { token: practice.adminToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, data: { id: doomed.clientId, deleted: true } });

    expectError(await getPractice(doomed.token), 401, 'UNAUTHORIZED');
    expectError(
      await call('POST', '/v1/auth/token', {
        body: { client_id: doomed.clientId, client_secret: doomed.clientSecret },
      }),
      401,
      'INVALID_CLIENT',
    );

    const listed = await call('GET', '/v1/credentials', { token: practice.adminToken });
    const entry = listed.body.data.find((c: { client_id: string }) => c.client_id === doomed.clientId);
    expect(entry.revoked_at).toEqual(expect.any(String));
    expect(entry).not.toHaveProperty('secret_hash');
    expect(entry).not.toHaveProperty('client_secret');

    // Other credentials of the practice are unaffected.
    expect((await getPractice(frontDesk.token)).status).toBe(200);
  });
});

describe('roles', () => {
  let practice: TestPractice;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    practice = await makePractice();
    tokens.admin = practice.adminToken;
    for (const role of ROLES.filter((r) => r !== 'admin')) tokens[role] = await practice.tokenForRole(role);
  });

  it('admin may create, list and revoke credentials, change the practice and read the audit log', async () => {
    const created = await call('POST', '/v1/credentials', {
      token: tokens.admin,
      body: { name: 'by admin', role: 'provider' },
    });
    expect(created.status).toBe(201);
    expect((await call('GET', '/v1/credentials', { token: tokens.admin })).status).toBe(200);
    expect(
      (await call('PATCH', '/v1/practice', { token: tokens.admin, body: { reminder_lead_minutes: 60 } })).status,
    ).toBe(200);
    expect((await call('GET', '/v1/audit-log', { token: tokens.admin })).status).toBe(200);
    expect(
      (await call('DELETE', `/v1/credentials/${created.body.data.client_id}`, { token: tokens.admin })).status,
    ).toBe(200);
  });

  it.each(ROLES)('%s may read the practice', async (role) => {
    const response = await call('GET', '/v1/practice', { token: tokens[role] });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(practice.medspaId);
  });

  describe.each(ROLES.filter((role) => role !== 'admin'))('%s', (role) => {
    it('may not change the practice (403) and nothing changes', async () => {
      const before = await call('GET', '/v1/practice', { token: tokens.admin });
      expectError(
        await call('PATCH', '/v1/practice', { token: tokens[role], body: { name: `Renamed by ${role}` } }),
        403,
        'FORBIDDEN',
      );
      const after = await call('GET', '/v1/practice', { token: tokens.admin });
      expect(after.body.data).toEqual(before.body.data);
    });

    it('may not create, list or revoke credentials (403) and nothing changes', async () => {
      const before = await call('GET', '/v1/credentials', { token: tokens.admin });
      expectError(
        await call('POST', '/v1/credentials', { token: tokens[role], body: { name: 'sneaky', role: 'admin' } }),
        403,
        'FORBIDDEN',
      );
      expectError(await call('GET', '/v1/credentials', { token: tokens[role] }), 403, 'FORBIDDEN');
      expectError(
        await call('DELETE', `/v1/credentials/${practice.clientId}`, { token: tokens[role] }),
        403,
        'FORBIDDEN',
      );
      const after = await call('GET', '/v1/credentials', { token: tokens.admin });
      expect(after.body.pagination.total).toBe(before.body.pagination.total);
      expect(after.body.data).toEqual(before.body.data);
      // The admin credential still works.
      expect(
        (
          await call('POST', '/v1/auth/token', {
            body: { client_id: practice.clientId, client_secret: practice.clientSecret },
          })
        ).status,
      ).toBe(200);
    });

    it('may not read the audit log (403)', async () => {
      expectError(await call('GET', '/v1/audit-log', { token: tokens[role] }), 403, 'FORBIDDEN');
    });
  });
});

describe('practice isolation', () => {
  it("A's admin cannot revoke B's credential: 404 CREDENTIAL_NOT_FOUND, as for an id that never existed, and B keeps working", async () => {
    const a = await makePractice();
    const b = await makePractice();
    const foreign = await call('DELETE', `/v1/credentials/${b.clientId}`, { token: a.adminToken });
    expectError(foreign, 404, 'CREDENTIAL_NOT_FOUND');
    const absent = await call('DELETE', '/v1/credentials/ci_does-not-exist', { token: a.adminToken });
    expectError(absent, 404, 'CREDENTIAL_NOT_FOUND');
    expect(foreign.body.error.message).toBe(absent.body.error.message);

    expect((await call('GET', '/v1/practice', { token: b.adminToken })).status).toBe(200);
    const exchanged = await call('POST', '/v1/auth/token', {
      body: { client_id: b.clientId, client_secret: b.clientSecret },
    });
    expect(exchanged.status).toBe(200);
    const listed = await call('GET', '/v1/credentials', { token: b.adminToken });
    expect(listed.body.data.find((c: { client_id: string }) => c.client_id === b.clientId).revoked_at).toBeNull();
  });

  it("A's credential list holds only A's credentials", async () => {
    const a = await makePractice();
    const b = await makePractice();
    const bExtra = await newCredential(b, 'analyst');
    await newCredential(a, 'manager');
    const listed = await call('GET', '/v1/credentials', { token: a.adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(2);
    const ids = listed.body.data.map((c: { client_id: string }) => c.client_id);
    expect(ids).toContain(a.clientId);
    expect(ids).not.toContain(b.clientId);
    expect(ids).not.toContain(bExtra.clientId);
    expect(listed.body.data.every((c: { medspa_id: string }) => c.medspa_id === a.medspaId)).toBe(true);
  });

  it("A's audit log shows none of B's entries", async () => {
    const a = await makePractice();
    const b = await makePractice();
    const bChange = await call('PATCH', '/v1/practice', { token: b.adminToken, body: { name: 'B renamed' } });
    expect(bChange.status).toBe(200);
    await newCredential(b, 'manager');
    const bDenied = await call('POST', '/v1/credentials', {
      token: await b.tokenForRole('front_desk'),
      body: { name: 'x', role: 'admin' },
    });
    expect(bDenied.status).toBe(403);
    const aChange = await call('PATCH', '/v1/practice', { token: a.adminToken, body: { name: 'A renamed' } });
    expect(aChange.status).toBe(200);

    const bEntries = await auditOf(b);
    expect(bEntries.length).toBeGreaterThanOrEqual(3);
    const aEntries = await auditOf(a);
    expect(aEntries.map((e) => e.request_id)).toContain(aChange.headers['x-request-id']);
    const bRequestIds = new Set(bEntries.map((e) => e.request_id));
    const bClientIds = new Set(bEntries.map((e) => e.client_id));
    for (const entry of aEntries) {
      expect(bRequestIds.has(entry.request_id)).toBe(false);
      expect(bClientIds.has(entry.client_id)).toBe(false);
      expect(entry.resource_id).not.toBe(b.medspaId);
    }
  });

  it("the token's medspa_id cannot be overridden by body, query or header", async () => {
    const a = await makePractice({ name: 'Practice A' });
    const b = await makePractice({ name: 'Practice B' });

    // A query naming a practice is an unknown parameter (contract 1): refused, never obeyed.
    const byQuery = await call('GET', `/v1/practice?medspa_id=${b.medspaId}`, { token: a.adminToken });
    expectError(byQuery, 400, 'VALIDATION_ERROR');
    expect(byQuery.body.error.details).toEqual([{ path: 'medspa_id', message: 'unknown parameter' }]);
    const byHeader = await call('GET', '/v1/practice', { token: a.adminToken, headers: { 'x-medspa-id': b.medspaId } });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body.data).toMatchObject({ id: a.medspaId, name: 'Practice A' });

    const byBody = await call('PATCH', '/v1/practice', {
      token: a.adminToken,
      body: { name: 'Hijacked', medspa_id: b.medspaId },
    });
    expectError(byBody, 400, 'VALIDATION_ERROR');
    const byBodyQuery = await call('PATCH', `/v1/practice?medspa_id=${b.medspaId}`, {
      token: a.adminToken,
      body: { name: 'A via query' },
    });
    expectError(byBodyQuery, 400, 'VALIDATION_ERROR');

    const credential = await call('POST', `/v1/credentials?medspa_id=${b.medspaId}`, {
      token: a.adminToken,
      body: { name: 'planted', role: 'admin', medspa_id: b.medspaId },
    });
    expectError(credential, 400, 'VALIDATION_ERROR');
    const viaQuery = await call('POST', `/v1/credentials?medspa_id=${b.medspaId}`, {
      token: a.adminToken,
      body: { name: 'planted', role: 'analyst' },
    });
    expectError(viaQuery, 400, 'VALIDATION_ERROR');

    // Nothing of either practice moved.
    const aNow = await call('GET', '/v1/practice', { token: a.adminToken });
    expect(aNow.body.data).toMatchObject({ name: 'Practice A', version: 1 });
    const bNow = await call('GET', '/v1/practice', { token: b.adminToken });
    expect(bNow.body.data).toMatchObject({ name: 'Practice B', version: 1 });
    const bCredentials = await call('GET', '/v1/credentials', { token: b.adminToken });
    expect(bCredentials.body.pagination.total).toBe(1);
  });
});

describe('API access gate', () => {
  it('a waitlisted practice may read its practice but nothing else (403 API_ACCESS_NOT_ENABLED) until enabled', async () => {
    const practice = await makePractice({ api_access: 'waitlisted' });

    const own = await call('GET', '/v1/practice', { token: practice.adminToken });
    expect(own.status).toBe(200);
    expect(own.body.data.api_access).toBe('waitlisted');

    expectError(await call('GET', '/v1/credentials', { token: practice.adminToken }), 403, 'API_ACCESS_NOT_ENABLED');
    expectError(
      await call('POST', '/v1/credentials', { token: practice.adminToken, body: { name: 'x', role: 'admin' } }),
      403,
      'API_ACCESS_NOT_ENABLED',
    );
    expectError(await call('GET', '/v1/audit-log', { token: practice.adminToken }), 403, 'API_ACCESS_NOT_ENABLED');
    // It cannot lift its own gate.
    expectError(
      await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { api_access: 'enabled' } }),
      403,
      'API_ACCESS_NOT_ENABLED',
    );
    expect((await call('GET', '/v1/practice', { token: practice.adminToken })).body.data.api_access).toBe('waitlisted');

    // Enabled by the operator (as the admin command does): the same token works at once.
    await changePractice(practice.medspaId, { api_access: 'enabled' }, { now: new Date() });
    const listed = await call('GET', '/v1/credentials', { token: practice.adminToken });
    expect(listed.status).toBe(200);
    expect(listed.body.pagination.total).toBe(1);

    // The refused calls were denials, and denials are audited.
    const outcomes = (await auditOf(practice)).map((e) => `${e.operation}:${e.outcome}`);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        'listCredentials:API_ACCESS_NOT_ENABLED',
        'createCredential:API_ACCESS_NOT_ENABLED',
        'getAuditLog:API_ACCESS_NOT_ENABLED',
        'updatePractice:API_ACCESS_NOT_ENABLED',
      ]),
    );
  });

  it('waitlisting an enabled practice closes the gate at once', async () => {
    const practice = await makePractice();
    expect((await call('GET', '/v1/credentials', { token: practice.adminToken })).status).toBe(200);
    await changePractice(practice.medspaId, { api_access: 'waitlisted' }, { now: new Date() });
    expectError(await call('GET', '/v1/credentials', { token: practice.adminToken }), 403, 'API_ACCESS_NOT_ENABLED');
  });
});

describe('audit log', () => {
  it('records changes with time, credential, role, operation, resource id, outcome and request id', async () => {
    const practice = await makePractice();
    const before = new Date().toISOString();
    const created = await call('POST', '/v1/credentials', {
      token: practice.adminToken,
      body: { name: 'Audited', role: 'manager' },
    });
    expect(created.status).toBe(201);
    const patched = await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { name: 'Audited Spa' } });
    expect(patched.status).toBe(200);
    const after = new Date().toISOString();

    const entries = await auditOf(practice);
    const createEntry = entries.find((e) => e.request_id === created.headers['x-request-id']);
    expect(createEntry).toEqual({
      at: expect.any(String),
      request_id: created.headers['x-request-id'],
      client_id: practice.clientId,
      role: 'admin',
      operation: 'createCredential',
      method: 'POST',
      resource_id: created.body.data.client_id,
      outcome: 'success',
      status: 201,
    });
    const patchEntry = entries.find((e) => e.request_id === patched.headers['x-request-id']);
    expect(patchEntry).toMatchObject({
      client_id: practice.clientId,
      role: 'admin',
      operation: 'updatePractice',
      method: 'PATCH',
      resource_id: practice.medspaId,
      outcome: 'success',
      status: 200,
    });
    for (const entry of [createEntry!, patchEntry!]) {
      const at = entry.at as string;
      expect(new Date(at).toISOString()).toBe(at);
      expect(at >= before && at <= after).toBe(true);
    }
    // Nothing secret is logged.
    expect(JSON.stringify(entries)).not.toContain(created.body.data.client_secret);
  });

  it('records denied calls with their error code as outcome (403 by role, 401 from a revoked token)', async () => {
    const practice = await makePractice();
    const frontDesk = await newCredential(practice, 'front_desk');
    const forbidden = await call('POST', '/v1/credentials', {
      token: frontDesk.token,
      body: { name: 'nope', role: 'admin' },
    });
    expect(forbidden.status).toBe(403);

    const doomed = await newCredential(practice, 'analyst');
    expect((await call('DELETE', `/v1/credentials/${doomed.clientId}`, { token: practice.adminToken })).status).toBe(
      200,
    );
    const unauthorized = await call('GET', '/v1/practice', { token: doomed.token });
    expect(unauthorized.status).toBe(401);

    const entries = await auditOf(practice);
    expect(entries.find((e) => e.request_id === forbidden.headers['x-request-id'])).toMatchObject({
      client_id: frontDesk.clientId,
      role: 'front_desk',
      operation: 'createCredential',
      outcome: 'FORBIDDEN',
      status: 403,
    });
    expect(entries.find((e) => e.request_id === unauthorized.headers['x-request-id'])).toMatchObject({
      client_id: doomed.clientId,
      role: 'analyst',
      operation: 'getPractice',
      outcome: 'UNAUTHORIZED',
      status: 401,
    });
    expect(entries.find((e) => e.operation === 'revokeCredential')).toMatchObject({
      resource_id: doomed.clientId,
      outcome: 'success',
    });
  });

  it('does not record successful reads', async () => {
    const practice = await makePractice();
    const manager = await practice.tokenForRole('manager');
    const reads = [
      await call('GET', '/v1/practice', { token: practice.adminToken }),
      await call('GET', '/v1/practice', { token: manager }),
      await call('GET', '/v1/credentials', { token: practice.adminToken }),
      await call('GET', '/v1/audit-log', { token: practice.adminToken }),
    ];
    for (const read of reads) expect(read.status).toBe(200);
    const entries = await auditOf(practice);
    expect(entries).toEqual([]);
    const ids = entries.map((e) => e.request_id);
    for (const read of reads) expect(ids).not.toContain(read.headers['x-request-id']);
  });

  it('filters by ?from=&to= (inclusive), newest first, defaulting to the last 30 days', async () => {
    const practice = await makePractice();
    const entry = (at: string, operation: string) => ({
      at,
      request_id: `req-${operation}`,
      client_id: practice.clientId,
      role: 'admin',
      operation,
      method: 'POST',
      resource_id: null,
      outcome: 'success',
      status: 201,
    });
    const now = Date.now();
    const daysAgo = (days: number) => new Date(now - days * 86_400_000).toISOString();
    const times = { old: daysAgo(40), d10: daysAgo(10), d5: daysAgo(5), d1: daysAgo(1) };
    for (const [name, at] of Object.entries(times)) await recordAudit(practice.medspaId, entry(at, name));

    const ops = (entries: Array<Record<string, unknown>>) => entries.map((e) => e.operation);
    expect(ops(await auditOf(practice))).toEqual(['d1', 'd5', 'd10']);
    expect(ops(await auditOf(practice, `&from=${times.d10}&to=${times.d5}`))).toEqual(['d5', 'd10']);
    expect(ops(await auditOf(practice, `&from=${daysAgo(9)}&to=${daysAgo(2)}`))).toEqual(['d5']);
    expect(ops(await auditOf(practice, `&from=${daysAgo(50)}&to=${daysAgo(30)}`))).toEqual(['old']);
    expect(ops(await auditOf(practice, `&from=${daysAgo(100)}`))).toEqual(['d1', 'd5', 'd10', 'old']);
    expect(ops(await auditOf(practice, `&to=${daysAgo(3)}&from=${daysAgo(100)}`))).toEqual(['d5', 'd10', 'old']);
    expect(
      ops(await auditOf(practice, `&from=${encodeURIComponent('2000-01-01T00:00:00+01:00')}&to=2000-12-31T00:00:00Z`)),
    ).toEqual([]);

    // A real call lands inside a window around now.
    const before = new Date().toISOString();
    const change = await call('PATCH', '/v1/practice', {
      token: practice.adminToken,
      body: { reminder_lead_minutes: 30 },
    });
    const after = new Date().toISOString();
    const window = await auditOf(practice, `&from=${before}&to=${after}`);
    expect(window.map((e) => e.request_id)).toEqual([change.headers['x-request-id']]);

    const page = await call('GET', `/v1/audit-log?limit=2&from=${daysAgo(100)}`, { token: practice.adminToken });
    expect(page.body.pagination).toEqual({ total: 5, next_cursor: expect.any(String) });
    const rest = await call(
      'GET',
      `/v1/audit-log?limit=2&from=${daysAgo(100)}&cursor=${page.body.pagination.next_cursor}`,
      { token: practice.adminToken },
    );
    expect(ops(rest.body.data)).toEqual(['d5', 'd10']);
  });

  it('rejects a from/to without an offset', async () => {
    const practice = await makePractice();
    expectError(
      await call('GET', '/v1/audit-log?from=2026-01-01T00:00:00', { token: practice.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(
      await call('GET', '/v1/audit-log?to=yesterday', { token: practice.adminToken }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('takes practice-local dates as whole days', async () => {
    const practice = await makePractice({ time_zone: 'Pacific/Auckland' });
    await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { name: 'Kia ora' } });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(new Date());
    const day = await call('GET', `/v1/audit-log?from=${today}&to=${today}`, { token: practice.adminToken });
    expect(day.body.data.map((e: { operation: string }) => e.operation)).toEqual(['updatePractice']);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await call('GET', `/v1/audit-log?from=${yesterday}&to=${yesterday}`, { token: practice.adminToken })).body.data,
    ).toEqual([]);
  });
});

describe('every route of the route table', () => {
  const projectRoot = join(import.meta.dirname, '..', '..');
  const all = Object.entries(routes as Record<string, RouteDef>);
  // Staff routes; the public-booking ones (a publishable key, no roles) have their own matrix (public-access.test.ts).
  const guarded = all
    .filter(([, route]) => takesBearer(route))
    .map(([operation, route]) => ({ operation, route, roles: route.auth as readonly Role[] }));
  // Routes whose handler is still being written are left to their own tests.
  const served = guarded.filter(({ operation, route }) =>
    existsSync(join(projectRoot, `${handlerModule(operation, route)}.ts`)),
  );
  const urlOf = (route: RouteDef) => route.path.replace(/\{\w+\}/g, () => randomUUID());
  const bodyOf = (route: RouteDef) => (route.method === 'GET' || route.method === 'DELETE' ? undefined : {});

  it('declares the roles of the API reference (authentication and access)', () => {
    const adminOnly = (path: string, method: string) =>
      path.startsWith('/v1/credentials') ||
      path.startsWith('/v1/publishable-keys') ||
      path.startsWith('/v1/audit-log') ||
      (path === '/v1/practice' && method !== 'GET');
    const catalog = /^\/v1\/(services|providers|rooms|equipment)(\/|$)/;
    for (const { operation, route, roles } of guarded) {
      const where = `${operation} (${route.method} ${route.path}): ${roles.join(',')}`;
      expect(roles, where).toContain('admin');
      if (adminOnly(route.path, route.method)) {
        expect(roles, where).toEqual(['admin']);
        continue;
      }
      // manager: everything but credentials and practice settings.
      expect(roles, where).toContain('manager');
      // Webhooks (API reference, webhooks and events): admin and manager only.
      if (/^\/v1\/webhooks(\/|$)/.test(route.path)) {
        expect(roles, where).toEqual(['admin', 'manager']);
        continue;
      }
      // Clinical photos (section 13, PHI): admin, manager and provider; the front desk may upload only; analysts never.
      if (/^\/v1\/(photos|clients\/\{id\}\/photos)(\/|$)/.test(route.path)) {
        expect([...roles].sort(), where).toEqual(
          route.method === 'POST' ? ['admin', 'front_desk', 'manager', 'provider'] : ['admin', 'manager', 'provider'],
        );
        continue;
      }
      // Form submissions (section 14, medical history): taken and read by the roles at the client's side, never analysts.
      if (/^\/v1\/(form-submissions|clients\/\{id\}\/form-submissions)(\/|$)/.test(route.path)) {
        expect([...roles].sort(), where).toEqual(['admin', 'front_desk', 'manager', 'provider']);
        continue;
      }
      // A lot's exposures (section 13, PHI: who was treated from it): admin, manager and provider; its recall: admin and manager.
      if (/^\/v1\/lots\/\{id\}\/(exposures|recall)$/.test(route.path)) {
        expect([...roles].sort(), where).toEqual(
          route.method === 'GET' ? ['admin', 'manager', 'provider'] : ['admin', 'manager'],
        );
        continue;
      }
      // analyst: reads everything else, writes nothing.
      if (route.method === 'GET') expect(roles, where).toContain('analyst');
      else expect(roles, where).not.toContain('analyst');
      // front_desk: no reports or webhooks; reads the catalog only.
      if (/^\/v1\/(reports|webhooks)(\/|$)/.test(route.path)) expect(roles, where).not.toContain('front_desk');
      if (catalog.test(route.path) && route.method !== 'GET') expect(roles, where).not.toContain('front_desk');
      // provider: reads, plus appointment status and treatment records.
      if (route.method !== 'GET' && roles.includes('provider'))
        expect(route.path, where).toMatch(/^\/v1\/appointments\/\{id\}\/([\w-]+|treatment-record\/(sign|amendments))$/);
      if (/^\/v1\/(reports|webhooks)(\/|$)/.test(route.path)) expect(roles, where).not.toContain('provider');
    }
  });

  it('answers 401 UNAUTHORIZED to every guarded route without a token', async () => {
    // At least the foundation's own routes are served.
    expect(served.map((s) => s.operation)).toEqual(
      expect.arrayContaining([
        'createCredential',
        'listCredentials',
        'revokeCredential',
        'getAuditLog',
        'getPractice',
        'updatePractice',
      ]),
    );
    for (const { operation, route } of served) {
      const response = await call(route.method, urlOf(route), { body: bodyOf(route) });
      expect({ operation, status: response.status, code: response.body?.error?.code }).toEqual({
        operation,
        status: 401,
        code: 'UNAUTHORIZED',
      });
    }
  });

  it('answers 403 FORBIDDEN to every role a route does not list, and never to one it lists', async () => {
    const practice = await makePractice();
    const tokens = { admin: practice.adminToken } as Record<Role, string>;
    for (const role of ROLES.filter((r) => r !== 'admin')) tokens[role] = await practice.tokenForRole(role);
    for (const { operation, route, roles } of served) {
      // A route's roles side by side: each call is its own (fresh ids, an empty body), and what is
      // held to is the role check, which comes before anything the call reads or writes.
      const answers = await Promise.all(
        ROLES.map((role) => call(route.method, urlOf(route), { token: tokens[role], body: bodyOf(route) })),
      );
      for (const [index, role] of ROLES.entries()) {
        const response = answers[index]!;
        const forbidden = response.status === 403 && response.body?.error?.code === 'FORBIDDEN';
        expect({ operation, role, forbidden, status: response.status }).toMatchObject({
          operation,
          role,
          forbidden: !roles.includes(role),
        });
      }
    }
  });

  it('answers 403 API_ACCESS_NOT_ENABLED to a waitlisted practice everywhere but its practice read', async () => {
    const practice = await makePractice({ api_access: 'waitlisted' });
    // All at once: each call is its own (fresh ids, an empty body), and what decides its answer is
    // the practice's access, which no route changes (the admin CLI does).
    const answers = await Promise.all(
      served.map(({ route }) => call(route.method, urlOf(route), { token: practice.adminToken, body: bodyOf(route) })),
    );
    for (const [index, { operation, route }] of served.entries()) {
      const response = answers[index]!;
      if (route.allowWaitlisted) {
        expect({ operation, status: response.status }).not.toEqual({ operation, status: 403 });
      } else {
        expect({ operation, status: response.status, code: response.body?.error?.code }).toEqual({
          operation,
          status: 403,
          code: 'API_ACCESS_NOT_ENABLED',
        });
      }
    }
  });
});
