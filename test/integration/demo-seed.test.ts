import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureDemoPractice } from '../../infra/local/seed';
import { call } from '../fixtures/api';

const exchange = (clientId: string, clientSecret: string) =>
  call('POST', '/v1/auth/token', { body: { client_id: clientId, client_secret: clientSecret } });

describe('the demo practice of npm start', () => {
  afterEach(() => {
    delete process.env.DEMO_CLIENT_ID;
    delete process.env.DEMO_CLIENT_SECRET;
  });

  it('is made once, enabled, and its printed credential works across restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-'));
    const first = await ensureDemoPractice(dataDir);
    const again = await ensureDemoPractice(dataDir);
    expect(again).toEqual(first);
    const token = (await exchange(first.client_id, first.client_secret)).body.access_token;
    expect((await call('GET', '/v1/practice', { token })).body.data).toMatchObject({
      id: first.medspa_id,
      api_access: 'enabled',
    });
  });

  it('honours DEMO_CLIENT_ID/DEMO_CLIENT_SECRET, also when they change between restarts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'demo-'));
    const clientId = `demo_admin_${Date.now()}`;
    process.env.DEMO_CLIENT_ID = clientId;
    process.env.DEMO_CLIENT_SECRET = 'demo_secret_123';
    const first = await ensureDemoPractice(dataDir);
    expect(first).toMatchObject({ client_id: clientId, client_secret: 'demo_secret_123' });
    expect((await exchange(clientId, 'demo_secret_123')).status).toBe(200);

    process.env.DEMO_CLIENT_SECRET = 'new_secret_456';
    const second = await ensureDemoPractice(dataDir);
    expect(second).toEqual({ ...first, client_secret: 'new_secret_456' });
    expect((await exchange(clientId, 'new_secret_456')).status).toBe(200);
    expect((await exchange(clientId, 'demo_secret_123')).status).toBe(401);

    process.env.DEMO_CLIENT_ID = `${clientId}_2`;
    process.env.DEMO_CLIENT_SECRET = 'other_secret';
    const third = await ensureDemoPractice(dataDir);
    expect(third.medspa_id).toBe(first.medspa_id);
    expect((await exchange(`${clientId}_2`, 'other_secret')).status).toBe(200);
  });
});
