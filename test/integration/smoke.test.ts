import { describe, expect, it } from 'vitest';
import { call, makePractice } from '../fixtures/api';

describe('smoke', () => {
  it('exchanges a token and reads the practice', async () => {
    const practice = await makePractice();
    const response = await call('GET', '/v1/practice', { token: practice.adminToken });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(practice.medspaId);
  });
});
