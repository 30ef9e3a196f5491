import { it } from 'vitest';
import { call, makePractice } from '../fixtures/api';
import { usedGrants } from '../../infra/local/aws/runtime';
it('x', async () => {
  const p = await makePractice();
  const r = await call('GET', '/v1/providers', { token: p.adminToken });
  console.log(r.status, JSON.stringify(usedGrants()).slice(0, 1500));
});
