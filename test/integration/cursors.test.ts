import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../lib/clock';
import { config } from '../../lib/config';
import { resetSecretKeys } from '../../lib/crypto/named-secret';
import { call, makePractice, type CallResult, type TestPractice } from '../fixtures/api';
import { makeClient, makeProvider, makeRoom, makeService } from '../fixtures/builders';

/** Every cursor refusal: 400 VALIDATION_ERROR whose details name `cursor`. */
function expectCursorRefused(response: CallResult) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
  });
  expect(response.body.error.details).toEqual([{ path: 'cursor', message: expect.any(String) }]);
  expect(response.body.error.request_id).toBe(response.headers['x-request-id']);
}

const withCursor = (path: string, cursor: string) =>
  `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

/** Replaces the character at `index` with another base64url character. */
const alterCharacter = (cursor: string, index: number) => {
  const replacement = cursor[index] === 'A' ? 'B' : 'A';
  return `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
};

/** Flips one bit of one byte of the decoded cursor and encodes it again (canonically). */
const alterByte = (cursor: string, index: number) => {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[index] ^= 0x01;
  return bytes.toString('base64url');
};

describe('pagination cursors', () => {
  let practice: TestPractice;
  let other: TestPractice;
  const providerIds: string[] = [];

  const get = (path: string, as: TestPractice = practice) => call('GET', path, { token: as.adminToken });
  const nextCursor = async (path: string, as: TestPractice = practice) => {
    const response = await get(path, as);
    expect(response.status).toBe(200);
    expect(response.body.pagination.next_cursor).toEqual(expect.any(String));
    return response.body.pagination.next_cursor as string;
  };

  beforeAll(async () => {
    [practice, other] = await Promise.all([makePractice(), makePractice()]);
    // 250 providers, 10 at a time (two shared cores), plus a little of everything else.
    for (let batch = 0; batch < 25; batch += 1) {
      const created = await Promise.all(Array.from({ length: 10 }, () => makeProvider(practice)));
      providerIds.push(...created.map((provider) => provider.id as string));
    }
    await Promise.all([
      makeRoom(practice),
      makeRoom(practice),
      makeService(practice, { category: 'injectables' }),
      makeService(practice, { category: 'injectables' }),
      makeService(practice, { category: 'laser' }),
      makeProvider(other),
      makeProvider(other),
    ]);
    const clients = await Promise.all([
      makeClient(practice, { first_name: 'Paige' }),
      makeClient(practice, { first_name: 'Paula' }),
      makeClient(practice, { first_name: 'Pam' }),
    ]);
    for (const client of clients) {
      const paid = await call('POST', '/v1/payments', {
        token: practice.adminToken,
        body: { client_id: client.id, amount_cents: 5000, method: 'card' },
      });
      expect(paid.status).toBe(201);
    }
  }, 120_000);

  afterEach(() => {
    setClock(null);
  });

  it('paging through 250 items returns each exactly once, in id order, with total 250 and a null cursor at the end', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: CallResult = await get(
        cursor ? withCursor('/v1/providers?limit=9', cursor) : '/v1/providers?limit=9',
      );
      expect(response.status).toBe(200);
      expect(response.body.pagination.total).toBe(250);
      seen.push(...response.body.data.map((provider: { id: string }) => provider.id));
      cursor = response.body.pagination.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil(250 / 9));
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect([...seen].sort()).toEqual([...providerIds].sort());
    expect(seen).toEqual([...seen].sort());
  });

  it('a cursor is opaque: no table key, practice id or JSON shows through', async () => {
    const cursor = await nextCursor('/v1/providers?limit=2');
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(decoded).not.toContain(practice.medspaId);
    expect(decoded).not.toContain('PROVIDER');
    expect(decoded.startsWith('{')).toBe(false);
    expect(() => JSON.parse(decoded)).toThrow();
  });

  describe('altered in one byte: 400 naming cursor', () => {
    it.each([
      ['a provider list (collection Query)', '/v1/providers?limit=2'],
      ['the payments list (month partitions)', '/v1/payments?limit=1'],
      ['a client search (search index)', '/v1/clients?q=pa&limit=1'],
      ['the audit log (sort-key range)', '/v1/audit-log?limit=2'],
    ])('%s', async (_name, path) => {
      const cursor = await nextCursor(path);
      expect((await get(withCursor(path, cursor))).status).toBe(200);
      const decodedLength = Buffer.from(cursor, 'base64url').length;
      // The version byte, the IV, the ciphertext and the tag: one of each.
      for (const index of [0, 5, Math.floor(decodedLength / 2), decodedLength - 1])
        expectCursorRefused(await get(withCursor(path, alterByte(cursor, index))));
      for (const index of [0, Math.floor(cursor.length / 2), cursor.length - 1])
        expectCursorRefused(await get(withCursor(path, alterCharacter(cursor, index))));
      expectCursorRefused(await get(withCursor(path, cursor.slice(0, -1))));
      expectCursorRefused(await get(withCursor(path, `${cursor}A`)));
    });

    it('and the old format (base64 JSON of a table key) is refused too', async () => {
      const forged = Buffer.from(
        JSON.stringify({ pk: `P#${practice.medspaId}#PROVIDER`, sk: providerIds[0] }),
      ).toString('base64url');
      expectCursorRefused(await get(withCursor('/v1/providers', forged)));
    });
  });

  it("another practice's cursor, for the same list and filters: 400 naming cursor", async () => {
    const foreign = await nextCursor('/v1/providers?limit=1', other);
    expect((await get(withCursor('/v1/providers?limit=1', foreign), other)).status).toBe(200);
    expectCursorRefused(await get(withCursor('/v1/providers?limit=1', foreign)));
    const mine = await nextCursor('/v1/providers?limit=1');
    expectCursorRefused(await get(withCursor('/v1/providers?limit=1', mine), other));
  });

  it("another operation's cursor: 400 naming cursor", async () => {
    const providers = await nextCursor('/v1/providers?limit=1');
    const rooms = await nextCursor('/v1/rooms?limit=1');
    const payments = await nextCursor('/v1/payments?limit=1');
    expectCursorRefused(await get(withCursor('/v1/rooms?limit=1', providers)));
    expectCursorRefused(await get(withCursor('/v1/equipment?limit=1', providers)));
    expectCursorRefused(await get(withCursor('/v1/providers?limit=1', rooms)));
    expectCursorRefused(await get(withCursor('/v1/clients?limit=1', providers)));
    expectCursorRefused(await get(withCursor('/v1/appointments?limit=1', payments)));
    expectCursorRefused(await get(withCursor('/v1/audit-log?limit=1', payments)));
  });

  it('the same list with other filters: 400 naming cursor; the same filters with another limit: accepted', async () => {
    const injectables = await nextCursor('/v1/services?category=injectables&limit=1');
    expect((await get(withCursor('/v1/services?category=injectables&limit=5', injectables))).status).toBe(200);
    expectCursorRefused(await get(withCursor('/v1/services?category=laser&limit=1', injectables)));
    expectCursorRefused(await get(withCursor('/v1/services?limit=1', injectables)));

    const search = await nextCursor('/v1/clients?q=pa&limit=1');
    expectCursorRefused(await get(withCursor('/v1/clients?q=pau&limit=1', search)));
    expectCursorRefused(await get(withCursor('/v1/clients?q=pa&membership_status=active&limit=1', search)));

    const payments = await nextCursor('/v1/payments?limit=1');
    const today = new Date().toISOString().slice(0, 10);
    expectCursorRefused(await get(withCursor(`/v1/payments?to=${today}&limit=1`, payments)));
  });

  it(`an expired cursor (older than CURSOR_TTL_SECONDS): 400 naming cursor`, async () => {
    const handedOut = new Date();
    setClock(handedOut);
    const cursor = await nextCursor('/v1/providers?limit=2');
    const ttlMs = config().CURSOR_TTL_SECONDS * 1000;

    setClock(new Date(handedOut.getTime() + ttlMs - 1000));
    expect((await get(withCursor('/v1/providers?limit=2', cursor))).status).toBe(200);

    setClock(new Date(handedOut.getTime() + ttlMs));
    const expired = await get(withCursor('/v1/providers?limit=2', cursor));
    expectCursorRefused(expired);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('a key rotation (CURSOR_SECRET=new,old) keeps cursors handed out under the old key valid; dropping the old key ends them', async () => {
    const previous = process.env.CURSOR_SECRET;
    const useSecret = (value: string) => {
      process.env.CURSOR_SECRET = value;
      resetSecretKeys();
    };
    try {
      useSecret('the-old-cursor-secret');
      const old = await nextCursor('/v1/providers?limit=3');

      useSecret('the-new-cursor-secret,the-old-cursor-secret');
      const continued = await get(withCursor('/v1/providers?limit=3', old));
      expect(continued.status).toBe(200);
      const sealedWithNew = continued.body.pagination.next_cursor as string;

      useSecret('the-new-cursor-secret');
      expect((await get(withCursor('/v1/providers?limit=3', sealedWithNew))).status).toBe(200);
      expectCursorRefused(await get(withCursor('/v1/providers?limit=3', old)));
    } finally {
      if (previous === undefined) delete process.env.CURSOR_SECRET;
      else process.env.CURSOR_SECRET = previous;
      resetSecretKeys();
    }
  });
});
