import { beforeAll, describe, expect, it } from 'vitest';
import { commitConsentChanges, readConsentState } from '../../lib/db/contact-consents';
import { NO_CONSENTS } from '../../lib/domain/contact-consent';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';

/**
 * Contact consent (API reference, section 14): PUT records a change, GET answers the current
 * state and the history (newest first) in one call, `GET /v1/clients?consent=` lists the granted.
 */

const TEXT = 'Yes, text me offers. Reply STOP to opt out.';

let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

const put = (clientId: string, pair: string, body: unknown, token = practice.adminToken) =>
  call('PUT', `/v1/clients/${clientId}/contact-consents/${pair}`, { token, body });
const grant = (clientId: string, pair = 'sms/marketing') =>
  put(clientId, pair, { status: 'granted', source: 'staff', evidence: { text_shown: TEXT } });
const revoke = (clientId: string, pair = 'sms/marketing') =>
  put(clientId, pair, { status: 'revoked', source: 'staff' });
const consentsOf = async (clientId: string, token = practice.adminToken) => {
  const answer = await call('GET', `/v1/clients/${clientId}/contact-consents`, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data as { current: any[]; history: any[] };
};
const listed = async (query: string) => {
  const answer = await call('GET', `/v1/clients?${query}`, { token: practice.adminToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return {
    ids: answer.body.data.map((client: { id: string }) => client.id) as string[],
    ...(answer.body.pagination as { total: number; next_cursor: string | null }),
  };
};
const expectError = (answer: { status: number; body: any }, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.error.code).toBe(code);
};

describe('PUT and GET /v1/clients/{id}/contact-consents', () => {
  it('a grant answers the recorded entry and becomes the current state; a revoke goes on top, newest first', async () => {
    const client = await makeClient(practice);
    expect(await consentsOf(client.id)).toEqual({ current: [], history: [] });

    const granted = await grant(client.id);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.data).toEqual({
      channel: 'sms',
      purpose: 'marketing',
      status: 'granted',
      source: 'staff',
      evidence: { text_shown: TEXT },
      recorded_at: expect.any(String),
    });
    const email = await put(client.id, 'email/transactional', { status: 'granted', source: 'import' });
    expect(email.status).toBe(200);
    const revoked = await revoke(client.id);
    expect(revoked.body.data).toMatchObject({ status: 'revoked', evidence: null });

    const { current, history } = await consentsOf(client.id);
    expect(current).toEqual([
      {
        channel: 'sms',
        purpose: 'marketing',
        status: 'revoked',
        source: 'staff',
        updated_at: revoked.body.data.recorded_at,
      },
      {
        channel: 'email',
        purpose: 'transactional',
        status: 'granted',
        source: 'import',
        updated_at: email.body.data.recorded_at,
      },
    ]);
    expect(history).toEqual([revoked.body.data, email.body.data, granted.body.data]);
  });

  it('takes an Idempotency-Key: a retried PUT replays its answer and records once', async () => {
    const client = await makeClient(practice);
    const send = () =>
      call('PUT', `/v1/clients/${client.id}/contact-consents/email/marketing`, {
        token: practice.adminToken,
        body: { status: 'granted', source: 'staff' },
        headers: { 'idempotency-key': `consent-${client.id}` },
      });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect((await consentsOf(client.id)).history).toHaveLength(1);
  });

  it('refuses an unknown channel or purpose and a bad body (400), an unknown or deleted client (404)', async () => {
    const client = await makeClient(practice);
    for (const pair of ['fax/marketing', 'sms/spam', 'SMS/marketing']) {
      const answer = await grant(client.id, pair);
      expectError(answer, 400, 'VALIDATION_ERROR');
    }
    expectError(await put(client.id, 'sms/marketing', { status: 'maybe', source: 'staff' }), 400, 'VALIDATION_ERROR');
    const unknownField = await put(client.id, 'sms/marketing', { status: 'granted', source: 'staff', note: 'x' });
    expectError(unknownField, 400, 'VALIDATION_ERROR');
    expect(unknownField.body.error.details).toContainEqual({ path: 'note', message: 'unknown field' });
    expect((await consentsOf(client.id)).history).toEqual([]);

    expectError(await grant('00000000-0000-4000-8000-000000000000'), 404, 'CLIENT_NOT_FOUND');
    expectError(await grant('not-a-uuid'), 404, 'CLIENT_NOT_FOUND');
    const gone = await makeClient(practice);
    expect((await call('DELETE', `/v1/clients/${gone.id}`, { token: practice.adminToken })).status).toBe(200);
    expectError(await grant(gone.id), 404, 'CLIENT_NOT_FOUND');
    expectError(
      await call('GET', `/v1/clients/${gone.id}/contact-consents`, { token: practice.adminToken }),
      404,
      'CLIENT_NOT_FOUND',
    );
    // Another practice's client is as absent as an unknown one.
    const other = await makePractice();
    const foreign = await put(client.id, 'sms/marketing', { status: 'granted', source: 'staff' }, other.adminToken);
    expectError(foreign, 404, 'CLIENT_NOT_FOUND');
  });

  it('is written by the roles that write clients (a provider or analyst gets 403) and read by every staff role', async () => {
    const client = await makeClient(practice);
    for (const role of ['provider', 'analyst'] as const) {
      const token = await practice.tokenForRole(role);
      expectError(
        await put(client.id, 'sms/marketing', { status: 'granted', source: 'staff' }, token),
        403,
        'FORBIDDEN',
      );
      expect((await consentsOf(client.id, token)).history).toEqual([]);
    }
    const frontDesk = await practice.tokenForRole('front_desk');
    expect((await put(client.id, 'sms/marketing', { status: 'granted', source: 'staff' }, frontDesk)).status).toBe(200);
  });

  it('N racing grants and revokes of one pair: every change is in the history and the current state is the newest', async () => {
    const client = await makeClient(practice);
    const N = 10;
    const answers = await Promise.all(
      Array.from({ length: N }, (_, n) => (n % 2 === 0 ? grant(client.id) : revoke(client.id))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(N).fill(200));
    const { current, history } = await consentsOf(client.id);
    expect(history).toHaveLength(N);
    expect(history.filter((entry) => entry.status === 'granted')).toHaveLength(N / 2);
    expect(current).toEqual([
      {
        channel: 'sms',
        purpose: 'marketing',
        status: history[0].status,
        source: 'staff',
        updated_at: history[0].recorded_at,
      },
    ]);
    // The marketing list agrees with the current state.
    const onList = (await listed('consent=sms_marketing&limit=100')).ids.includes(client.id);
    expect(onList).toBe(history[0].status === 'granted');
  });
});

describe('the history bound', () => {
  it('GET shows the latest 100 changes, newest first, with the current state; older ones stay stored', async () => {
    const client = await makeClient(practice);
    // 110 changes below HTTP, in two transactions (each change numbered in commit order).
    let state = NO_CONSENTS;
    let n = 0;
    for (const size of [60, 50]) {
      const changes = Array.from({ length: size }, () => {
        n += 1;
        return {
          channel: 'sms' as const,
          purpose: 'transactional' as const,
          status: n % 2 === 0 ? ('revoked' as const) : ('granted' as const),
          source: 'import' as const,
          evidence: { text_shown: `change ${n}` },
        };
      });
      const result = await commitConsentChanges(practice.medspaId, client.id, state, changes, new Date().toISOString());
      expect(result.ok).toBe(true);
      state = await readConsentState(practice.medspaId, client.id);
    }
    expect(state.version).toBe(110);
    const { current, history } = await consentsOf(client.id);
    expect(history.map((entry) => entry.evidence.text_shown)).toEqual(
      Array.from({ length: 100 }, (_, i) => `change ${110 - i}`),
    );
    expect(current).toEqual([expect.objectContaining({ channel: 'sms', purpose: 'transactional', status: 'revoked' })]);
  });
});

describe('GET /v1/clients?consent=', () => {
  let scoped: TestPractice;
  beforeAll(async () => {
    scoped = await makePractice();
  });
  const list = async (query: string) => {
    const answer = await call('GET', `/v1/clients?${query}`, { token: scoped.adminToken });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as { data: { id: string }[]; pagination: { total: number; next_cursor: string | null } };
  };
  const putIn = (clientId: string, pair: string, status: string) =>
    call('PUT', `/v1/clients/${clientId}/contact-consents/${pair}`, {
      token: scoped.adminToken,
      body: { status, source: 'staff' },
    });

  it('lists only the granted (a revoke drops out, a deleted client drops out), in id order, paged with total', async () => {
    const [a, b, c, d, e] = await Promise.all(Array.from({ length: 5 }, () => makeClient(scoped)));
    for (const client of [a, b, c, d]) expect((await putIn(client.id, 'sms/marketing', 'granted')).status).toBe(200);
    await putIn(e.id, 'email/marketing', 'granted');
    await putIn(e.id, 'sms/transactional', 'granted');
    await putIn(b.id, 'sms/marketing', 'revoked');
    expect((await call('DELETE', `/v1/clients/${c.id}`, { token: scoped.adminToken })).status).toBe(200);

    const expected = [a.id, d.id].sort();
    const all = await list('consent=sms_marketing');
    expect(all.data.map((client) => client.id)).toEqual(expected);
    expect(all.pagination).toEqual({ total: 2, next_cursor: null });
    expect((await list('consent=email_marketing')).data.map((client) => client.id)).toEqual([e.id]);

    // Pagination: one per page, the total on every page.
    const first = await list('consent=sms_marketing&limit=1');
    expect(first.data.map((client) => client.id)).toEqual([expected[0]]);
    expect(first.pagination.total).toBe(2);
    const second = await list(
      `consent=sms_marketing&limit=1&cursor=${encodeURIComponent(first.pagination.next_cursor!)}`,
    );
    expect(second.data.map((client) => client.id)).toEqual([expected[1]]);
    expect(second.pagination).toEqual({ total: 2, next_cursor: null });
    // A granted client shows as the client list shows it.
    expect(Object.keys(all.data[0])).toEqual(Object.keys((await list('limit=1')).data[0]));
  });

  it('refuses an unknown consent, and a combination with q or membership_status (400)', async () => {
    for (const query of [
      'consent=sms_transactional',
      'consent=sms',
      'consent=sms_marketing&q=ann',
      'consent=sms_marketing&membership_status=active',
    ]) {
      const answer = await call('GET', `/v1/clients?${query}`, { token: scoped.adminToken });
      expectError(answer, 400, 'VALIDATION_ERROR');
    }
  });
});
