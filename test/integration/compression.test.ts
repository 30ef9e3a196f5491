import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../infra/local/router';
import { makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';

/**
 * Answers of 1 KB and more are gzipped for a client that asks (lib/http/compress.ts), and say they
 * vary by Accept-Encoding; a client that does not ask, and every small answer, get plain JSON.
 */
let practice: TestPractice;

beforeAll(async () => {
  practice = await makePractice();
  for (let i = 0; i < 8; i += 1) await makeClient(practice);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  dispatch({ method: 'GET', url, headers: { authorization: `Bearer ${practice.adminToken}`, ...headers } });

describe('compression', () => {
  it('a list page over 1 KB goes out gzipped to a client taking gzip, the same JSON as the plain answer', async () => {
    const plain = await get('/v1/clients');
    expect(plain.isBase64Encoded).toBeFalsy();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const zipped = await get('/v1/clients', { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    const bytes = Buffer.from(zipped.body, 'base64');
    expect(bytes.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(JSON.parse(plain.body));
  });

  it('gzip refused by weight (q=0), or not offered, means plain JSON', async () => {
    for (const accept of ['gzip;q=0', 'br', 'identity']) {
      const answer = await get('/v1/clients', { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(() => JSON.parse(answer.body)).not.toThrow();
    }
  });

  it('an answer under 1 KB is sent as it is, whatever the client takes', async () => {
    const answer = await get('/v1/practice', { 'accept-encoding': 'gzip' });
    expect(answer.body.length).toBeLessThan(1024);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body).data.id).toBe(practice.medspaId);
  });

  it('an Idempotency-Key replay is compressed for the client asking then, not as the first answer was', async () => {
    const key = crypto.randomUUID();
    const body = JSON.stringify({ first_name: 'Ada', last_name: 'Replay', notes: 'n'.repeat(1500) });
    const post = (accept?: string) =>
      dispatch({
        method: 'POST',
        url: '/v1/clients',
        body,
        headers: {
          authorization: `Bearer ${practice.adminToken}`,
          'content-type': 'application/json',
          'idempotency-key': key,
          ...(accept ? { 'accept-encoding': accept } : {}),
        },
      });
    const first = await post('gzip');
    expect(first.status).toBe(201);
    expect(first.headers['content-encoding']).toBe('gzip');
    const created = JSON.parse(gunzipSync(Buffer.from(first.body, 'base64')).toString('utf8'));
    const replay = await post();
    expect(replay.status).toBe(201);
    expect(replay.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(replay.body).data).toEqual(created.data);
  });
});
