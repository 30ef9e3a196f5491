import { describe, expect, it } from 'vitest';
import { isAppError } from '../../lib/errors';
import { createCredential, revoke } from '../../lib/use-cases/auth';
import { call, makePractice, tokenFor, type TestPractice } from '../fixtures/api';

/** Another credential of the practice with a token. */
async function credential(practice: TestPractice, role: 'admin' | 'manager' = 'admin') {
  const created = await createCredential(practice.medspaId, { name: `${role} extra`, role }, new Date());
  return { clientId: created.client_id, token: await tokenFor(created.client_id, created.client_secret) };
}

async function liveAdmins(practice: TestPractice, token = practice.adminToken) {
  const listed = await call('GET', '/v1/credentials?limit=100', { token });
  expect(listed.status).toBe(200);
  return listed.body.data
    .filter((c: { role: string; revoked_at: string | null }) => c.role === 'admin' && c.revoked_at === null)
    .map((c: { client_id: string }) => c.client_id)
    .sort();
}

const outcome = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'fulfilled'
    ? 'revoked'
    : isAppError(settled.reason)
      ? settled.reason.code
      : String(settled.reason);

describe('a practice never loses its last admin credential (409 CONFLICT)', () => {
  it('an admin may not revoke its own credential when it is the last, and is told why', async () => {
    const practice = await makePractice();
    const response = await call('DELETE', `/v1/credentials/${practice.clientId}`, { token: practice.adminToken });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('last active admin'),
      request_id: response.headers['x-request-id'],
    });
    // Nothing changed: the credential still exchanges and its token still works.
    expect(await liveAdmins(practice)).toEqual([practice.clientId]);
    expect(
      (
        await call('POST', '/v1/auth/token', {
          body: { client_id: practice.clientId, client_secret: practice.clientSecret },
        })
      ).status,
    ).toBe(200);
    const log = await call('GET', '/v1/audit-log', { token: practice.adminToken });
    expect(
      log.body.data.find((e: { request_id: string }) => e.request_id === response.headers['x-request-id']),
    ).toMatchObject({ operation: 'revokeCredential', outcome: 'CONFLICT', status: 409 });
  });

  it('with two admins one may go (even itself), then the other is the last; other roles are always revocable', async () => {
    const practice = await makePractice();
    const second = await credential(practice);
    const manager = await credential(practice, 'manager');
    expect((await call('DELETE', `/v1/credentials/${manager.clientId}`, { token: practice.adminToken })).status).toBe(
      200,
    );
    // The second admin revokes itself: the first remains.
    expect((await call('DELETE', `/v1/credentials/${second.clientId}`, { token: second.token })).status).toBe(200);
    expect(await liveAdmins(practice)).toEqual([practice.clientId]);
    // Revoking an already revoked admin stays idempotent, and does not count it as live.
    expect((await call('DELETE', `/v1/credentials/${second.clientId}`, { token: practice.adminToken })).status).toBe(
      200,
    );
    const last = await call('DELETE', `/v1/credentials/${practice.clientId}`, { token: practice.adminToken });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('CONFLICT');
  });

  it('two admins revoking each other at the same moment: exactly one wins, one admin is left', async () => {
    for (let round = 0; round < 3; round += 1) {
      const practice = await makePractice();
      const other = await credential(practice);
      const results = await Promise.allSettled([
        revoke(practice.medspaId, other.clientId, new Date()),
        revoke(practice.medspaId, practice.clientId, new Date()),
      ]);
      expect(results.map(outcome).sort()).toEqual(['CONFLICT', 'revoked']);
      const left = results[0].status === 'fulfilled' ? practice : { ...practice, adminToken: other.token };
      expect(await liveAdmins(practice, left.adminToken)).toHaveLength(1);
    }
  });

  it('five admins all revoking themselves at once: four go, the last stays', async () => {
    const practice = await makePractice();
    const others = await Promise.all(Array.from({ length: 4 }, () => credential(practice)));
    const ids = [practice.clientId, ...others.map((o) => o.clientId)];
    const results = await Promise.allSettled(ids.map((id) => revoke(practice.medspaId, id, new Date())));
    expect(results.map(outcome).sort()).toEqual(['CONFLICT', 'revoked', 'revoked', 'revoked', 'revoked']);
    const survivor = ids[results.findIndex((r) => r.status === 'rejected')];
    const token =
      survivor === practice.clientId ? practice.adminToken : others.find((o) => o.clientId === survivor)!.token;
    expect(await liveAdmins(practice, token)).toEqual([survivor]);
  });
});
