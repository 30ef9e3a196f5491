import { it } from 'vitest';
import { call } from '../fixtures/api';
it('repro', async () => {
  for (const id of ['x'.repeat(3000), 'é'.repeat(1100), '\u0000', '\ud800abc', 'ci_' + 'f'.repeat(48)]) {
    const basic = Buffer.from(`${id}:secret`).toString('base64');
    const r = await call('POST', '/v1/auth/token', { rawBody: 'grant_type=client_credentials', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` } });
    console.log(id.length, r.status, JSON.stringify(r.body).slice(0, 150));
  }
});
