import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { ddbCalls } from '../../lib/db/client';
import { appointmentListEntryCodec } from '../../lib/db/codecs';
import { appointmentTimeIndexPk } from '../../lib/db/keys';
import { queryStep } from '../../lib/db/query';
import { APPOINTMENT_LIST_ATTRIBUTES } from '../../lib/db/table';
import { call } from '../fixtures/api';
import { makeClient, makeService } from '../fixtures/builders';
import { addDays, firstOfMonth, lastOfMonth, monthOf, utc } from '../fixtures/dates';
import { booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

// Relative to now: three days from `book`'s default day, then a month end and the next month's first day.
const DAY = BOOKING_DAY;
const MONTH_END = lastOfMonth(addDays(DAY, 3));
const NEXT_MONTH = addDays(MONTH_END, 1);
/** From the first of DAY's month to the end of NEXT_MONTH's: all six appointments, two or three months. */
const RANGE = `from=${firstOfMonth(DAY)}&to=${lastOfMonth(NEXT_MONTH)}`;

describe('appointment list', () => {
  let scene: Scene;
  let token: string;
  let otherClient: { id: string };
  let otherService: { id: string };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    scene = await makeScene({ providers: 2 });
    token = scene.practice.adminToken;
    otherClient = await makeClient(scene.practice);
    otherService = await makeService(scene.practice, { provider_ids: scene.providers.map((p) => p.id) });
    ids.a = (await booked(scene, { scheduled_at: nyTime(DAY, '09:00') })).id;
    ids.b = (
      await booked(scene, {
        scheduled_at: nyTime(DAY, '16:00'),
        provider_id: scene.providers[1].id,
        client_id: otherClient.id,
      })
    ).id;
    ids.c = (await booked(scene, { scheduled_at: nyTime(addDays(DAY, 1), '10:00'), service_id: otherService.id })).id;
    ids.d = (await booked(scene, { scheduled_at: nyTime(addDays(DAY, 2), '10:00') })).id;
    ids.e = (await booked(scene, { scheduled_at: nyTime(MONTH_END, '16:00') })).id;
    ids.f = (await booked(scene, { scheduled_at: nyTime(NEXT_MONTH, '09:00') })).id;
    await call('POST', `/v1/appointments/${ids.d}/cancel`, { token });
  });

  const list = async (query: string) => (await call('GET', `/v1/appointments?${query}`, { token })).body;

  it('filters by inclusive local date range, ordered by start, with list item shape and total', async () => {
    const body = await list(`from=${DAY}&to=${addDays(DAY, 1)}`);
    expect(body.data.map((a: { id: string }) => a.id)).toEqual([ids.a, ids.b, ids.c]);
    expect(body.pagination).toEqual({ total: 3, next_cursor: null });
    expect(body.data[0]).toEqual({
      id: ids.a,
      client: { id: scene.client.id, first_name: scene.client.first_name, last_name: scene.client.last_name },
      service: { id: scene.service.id, name: scene.service.name, duration_minutes: 60 },
      provider: { id: scene.provider.id, full_name: scene.provider.full_name },
      scheduled_at: utc(DAY, '09:00'),
      duration_minutes: 60,
      status: 'scheduled',
    });
  });

  it('accepts startDate/endDate and a JSON body on GET', async () => {
    expect(
      (await list(`startDate=${addDays(DAY, 2)}&endDate=${addDays(DAY, 2)}`)).data.map((a: { id: string }) => a.id),
    ).toEqual([ids.d]);
    const response = await call('GET', '/v1/appointments', { token, body: { from: MONTH_END, to: NEXT_MONTH } });
    expect(response.body.data.map((a: { id: string }) => a.id)).toEqual([ids.e, ids.f]);
  });

  it('filters by provider, client, service and several statuses', async () => {
    const range = RANGE;
    expect((await list(`${range}&provider_id=${scene.providers[1].id}`)).data.map((a: { id: string }) => a.id)).toEqual(
      [ids.b],
    );
    expect((await list(`${range}&client_id=${otherClient.id}`)).data.map((a: { id: string }) => a.id)).toEqual([ids.b]);
    expect((await list(`${range}&service_id=${otherService.id}`)).data.map((a: { id: string }) => a.id)).toEqual([
      ids.c,
    ]);
    expect((await list(`${range}&status=cancelled`)).data.map((a: { id: string }) => a.id)).toEqual([ids.d]);
    const both = await list(`${range}&status=cancelled,scheduled`);
    expect(both.pagination.total).toBe(6);
    expect((await list(`${range}&status=scheduled&status=cancelled`)).pagination.total).toBe(6);
    expect((await call('GET', `/v1/appointments?${range}&status=bogus`, { token })).status).toBe(400);
  });

  it('pages across month partitions without duplicates or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: any = await list(`${RANGE}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.pagination.total).toBe(6);
      seen.push(...body.data.map((a: { id: string }) => a.id));
      cursor = body.pagination.next_cursor;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([ids.a, ids.b, ids.c, ids.d, ids.e, ids.f]);
    expect(pages).toBe(3);
  });

  it('rejects a forged cursor, a reversed range and a range over a year', async () => {
    const month = monthOf(DAY);
    const forged = Buffer.from(JSON.stringify({ month, key: { gsi1pk: `P#someone-else#APPTS#${month}` } })).toString(
      'base64url',
    );
    expect(
      (
        await call('GET', `/v1/appointments?from=${firstOfMonth(DAY)}&to=${lastOfMonth(DAY)}&cursor=${forged}`, {
          token,
        })
      ).body.error.code,
    ).toBe('VALIDATION_ERROR');
    expect(
      (await call('GET', `/v1/appointments?from=${addDays(firstOfMonth(DAY), 9)}&to=${firstOfMonth(DAY)}`, { token }))
        .status,
    ).toBe(400);
    expect((await call('GET', `/v1/appointments?from=${DAY}&to=${addDays(DAY, 517)}`, { token })).status).toBe(400);
  });

  it("never lists another practice's appointments", async () => {
    const other = await makeScene();
    await booked(other);
    const body = (await call('GET', `/v1/appointments?${RANGE}`, { token: other.practice.adminToken })).body;
    expect(body.pagination.total).toBe(1);
    expect((await call('GET', `/v1/appointments/${ids.a}`, { token: other.practice.adminToken })).body.error.code).toBe(
      'APPOINTMENT_NOT_FOUND',
    );
    expect((await call('POST', `/v1/appointments/${ids.a}/cancel`, { token: other.practice.adminToken })).status).toBe(
      404,
    );
    expect((await call('GET', `/v1/appointments/${ids.a}`, { token })).body.data.status).toBe('scheduled');
  });
});

describe("the list's index (gsi1n)", () => {
  it('holds only what the list shows and filters on, kept current by DynamoDB with every write', async () => {
    const scene = await makeScene();
    const scheduledAt = nyTime(DAY, '13:00');
    const id = (await booked(scene, { scheduled_at: scheduledAt })).id;
    const entryOf = async () =>
      (
        await queryStep({ index: 'gsi1n', partition: appointmentTimeIndexPk(scene.practice.medspaId, monthOf(DAY)) })
      ).items.find((item) => String(item.gsi1sk).endsWith(id))!;
    const entry = await entryOf();
    // The keys (the table's and gsi1's), then exactly the projected attributes: no notes, prices or policy.
    expect(Object.keys(entry).sort()).toEqual(['gsi1pk', 'gsi1sk', 'pk', 'sk', ...APPOINTMENT_LIST_ATTRIBUTES].sort());
    // The id and the start come from gsi1sk.
    expect(appointmentListEntryCodec.fromItem(entry)).toEqual({
      id,
      scheduled_at: new Date(scheduledAt).toISOString(),
      client_id: scene.client.id,
      service_id: scene.service.id,
      provider_id: scene.provider.id,
      duration_minutes: expect.any(Number),
      status: 'scheduled',
    });
    const token = scene.practice.adminToken;
    expect((await call('POST', `/v1/appointments/${id}/cancel`, { token })).status).toBe(200);
    expect((await entryOf()).status).toBe('cancelled');
  });
});

describe("the list's nested names", () => {
  afterEach(() => {
    delete process.env.LIST_NAMES_TTL_MS;
    resetConfig();
  });

  /** A scene with one appointment, a way to find it in its day's list, and renames of its client and provider. */
  async function renaming() {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const id = (await booked(scene, { scheduled_at: nyTime(DAY, '11:00') })).id;
    const listed = async () =>
      (await call('GET', `/v1/appointments?from=${DAY}&to=${DAY}`, { token })).body.data.find(
        (item: { id: string }) => item.id === id,
      );
    const rename = async () => {
      expect(
        (await call('PATCH', `/v1/clients/${scene.client.id}`, { token, body: { first_name: 'Renamed' } })).status,
      ).toBe(200);
      expect(
        (await call('PATCH', `/v1/providers/${scene.provider.id}`, { token, body: { last_name: 'Renamed' } })).status,
      ).toBe(200);
    };
    return { scene, token, id, listed, rename };
  }

  it('come from the names this container read lately, for LIST_NAMES_TTL_MS: a page may trail a rename, the detail is fresh', async () => {
    const { scene, token, id, listed, rename } = await renaming();
    const before = await listed();
    expect(before.client.first_name).toBe(scene.client.first_name);
    await rename();
    ddbCalls.reset();
    const stale = await listed();
    // The names read a moment ago, without a read of them.
    expect(ddbCalls.counts.get('BatchGetItemCommand') ?? 0).toBe(0);
    expect(stale).toEqual(before);
    const detail = (await call('GET', `/v1/appointments/${id}`, { token })).body.data;
    expect(detail.client.first_name).toBe('Renamed');
    expect(detail.provider.full_name).toMatch(/Renamed/);
  });

  it('past the TTL (0: every page reads its names) a page shows the rename', async () => {
    process.env.LIST_NAMES_TTL_MS = '0';
    resetConfig();
    const { listed, rename } = await renaming();
    await listed();
    await rename();
    const fresh = await listed();
    expect(fresh.client.first_name).toBe('Renamed');
    expect(fresh.provider.full_name).toMatch(/Renamed/);
  });
});
