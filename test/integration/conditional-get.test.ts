import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dispatch } from '../../infra/local/router';
import { logger } from '../../lib/log';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';

/**
 * Conditional GETs (lib/http/conditional-get.ts): a list page's ETag is a weak tag of what it
 * shows, not of its sealed cursor; a poll naming it in If-None-Match is 304 with no body until the
 * page changes. A resource's ETag is its version, and takes If-None-Match the same way.
 */
let practice: TestPractice;

beforeAll(async () => {
  practice = await makePractice();
  for (let i = 0; i < 3; i += 1) await makeClient(practice);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  dispatch({ method: 'GET', url, headers: { authorization: `Bearer ${practice.adminToken}`, ...headers } });

describe('conditional GETs', () => {
  it('a list page keeps its ETag while unchanged, across fresh cursors, and a poll naming it is 304 with no body', async () => {
    const first = await get('/v1/clients?limit=2');
    const again = await get('/v1/clients?limit=2');
    expect(JSON.parse(first.body).pagination.next_cursor).not.toBe(JSON.parse(again.body).pagination.next_cursor);
    expect(first.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(again.headers.etag).toBe(first.headers.etag);

    const info = vi.spyOn(logger, 'info');
    const poll = await get('/v1/clients?limit=2', { 'if-none-match': first.headers.etag });
    // It sent nothing: no request line of ours (the gateway's access log has it), unlike a 200.
    const requestLines = () => info.mock.calls.filter(([message]) => message === 'request');
    expect(requestLines()).toEqual([]);
    await get('/v1/clients?limit=2');
    expect(requestLines()).toEqual([
      [
        'request',
        // Locally the line names its operation (on Lambda its function's log group does).
        {
          operation: 'listClients',
          requestId: expect.any(String),
          status: 200,
          medspaId: practice.medspaId,
          clientId: expect.any(String),
        },
      ],
    ]);
    info.mockRestore();
    expect(poll.status).toBe(304);
    expect(poll.body).toBe('');
    expect(poll.headers.etag).toBe(first.headers.etag);
    expect(poll.headers['content-type']).toBeUndefined();
    expect(poll.headers['x-request-id']).toBeTruthy();
    expect(poll.headers['ratelimit-remaining']).toBeDefined();
    // Listed among others, or compared weakly without its W/ prefix: still a match.
    const strong = first.headers.etag.replace(/^W\//, '');
    for (const header of [`"x", ${first.headers.etag}`, strong, '*'])
      expect((await get('/v1/clients?limit=2', { 'if-none-match': header })).status, header).toBe(304);
  });

  it('a change to what the page shows (or to its total) gives a new ETag and a full answer', async () => {
    const before = await get('/v1/clients');
    const [client] = JSON.parse(before.body).data as { id: string }[];
    const renamed = await call('PATCH', `/v1/clients/${client.id}`, {
      token: practice.adminToken,
      body: { first_name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    const changed = await get('/v1/clients', { 'if-none-match': before.headers.etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(before.headers.etag);
    await makeClient(practice);
    const grown = await get('/v1/clients', { 'if-none-match': changed.headers.etag });
    expect(grown.status).toBe(200);
    expect(JSON.parse(grown.body).pagination.total).toBe(4);
  });

  it("a resource's ETag is its version: If-None-Match with it is 304 until the next change", async () => {
    const list = JSON.parse((await get('/v1/clients')).body).data as { id: string }[];
    const url = `/v1/clients/${list[1].id}`;
    const read = await get(url);
    expect(read.headers.etag).toMatch(/^"\d+"$/);
    expect((await get(url, { 'if-none-match': read.headers.etag })).status).toBe(304);
    await call('PATCH', url, { token: practice.adminToken, body: { notes: 'changed' } });
    expect((await get(url, { 'if-none-match': read.headers.etag })).status).toBe(200);
  });

  it('If-None-Match changes nothing for a change (a PATCH answers as always)', async () => {
    const list = JSON.parse((await get('/v1/clients')).body).data as { id: string; version: number }[];
    const patched = await dispatch({
      method: 'PATCH',
      url: `/v1/clients/${list[2].id}`,
      body: JSON.stringify({ notes: 'n' }),
      headers: {
        authorization: `Bearer ${practice.adminToken}`,
        'content-type': 'application/json',
        'if-none-match': '*',
      },
    });
    expect(patched.status).toBe(200);
  });
});
