import { afterEach, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { call, makePractice } from '../fixtures/api';

afterEach(() => setClock(null));

describe('one injected clock', () => {
  it("a change's updated_at and its audit entry's at are the same instant, the clock's", async () => {
    const practice = await makePractice();
    // A fixed instant (to the second, like the token's iat, which is checked against this clock too).
    const fixed = new Date(Math.floor(Date.now() / 1000) * 1000);
    setClock(fixed);
    const created = await call('POST', '/v1/clients', {
      token: practice.adminToken,
      body: { first_name: 'Clara', last_name: 'Clock' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.updated_at).toBe(fixed.toISOString());

    const later = new Date(fixed.getTime() + 90_000);
    setClock(later);
    const updated = await call('PATCH', `/v1/clients/${created.body.data.id}`, {
      token: practice.adminToken,
      body: { last_name: 'Later' },
    });
    expect(updated.body.data.updated_at).toBe(later.toISOString());

    const from = new Date(fixed.getTime() - 60_000).toISOString();
    const to = new Date(later.getTime() + 60_000).toISOString();
    const log = await call('GET', `/v1/audit-log?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
      token: practice.adminToken,
    });
    const entries = log.body.data.filter(
      (entry: { resource_id: string }) => entry.resource_id === created.body.data.id,
    );
    expect(entries.map((entry: { operation: string; at: string }) => [entry.operation, entry.at])).toEqual([
      ['updateClient', later.toISOString()],
      ['createClient', fixed.toISOString()],
    ]);
  });
});
