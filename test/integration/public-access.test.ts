import { describe, expect, it } from 'vitest';
import { call, makePractice } from '../fixtures/api';

describe('smoke', () => {
  it('works', async () => {
    const practice = await makePractice();
    const created = await call('POST', '/v1/publishable-keys', { token: practice.adminToken, body: { name: 'Web', allowed_origins: ['https://spa.example'] }, headers: { 'idempotency-key': 'k1' } });
    console.log(created.status, JSON.stringify(created.body));
    const key = created.body.data.key;
    console.log((await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key } })).body);
    const patched = await call('PATCH', '/v1/practice', { token: practice.adminToken, body: { online_booking: { enabled: true }, allowed_origins: ['https://app.example'] } });
    console.log(patched.status, JSON.stringify(patched.body));
    const r = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key, origin: 'https://spa.example' } });
    console.log(r.status, r.headers, JSON.stringify(r.body));
    const o = await call('GET', '/v1/public/practice', { headers: { 'x-publishable-key': key, origin: 'https://evil.example' } });
    console.log(o.status, o.headers, JSON.stringify(o.body));
    const pf = await call('OPTIONS', '/v1/appointments/abc', { headers: { origin: 'https://evil.example' } });
    console.log(pf.status, pf.headers);
    const st = await call('GET', '/v1/practice', { token: practice.adminToken, headers: { origin: 'https://app.example' } });
    console.log(st.status, st.headers);
    const list = await call('GET', '/v1/publishable-keys', { token: practice.adminToken });
    console.log(list.status, JSON.stringify(list.body));
    expect(1).toBe(1);
  });
});
