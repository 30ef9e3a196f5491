import { describe, expect, it } from 'vitest';
import { call } from '../fixtures/api';
import { utc } from '../fixtures/dates';
import { book, BOOKING_DAY, claimItems, makeScene, nyTime } from '../fixtures/scheduling';

/** The day `book` uses by default, some weeks ahead. */
const DAY = BOOKING_DAY;
const ACTIVE = 'scheduled,confirmed,checked_in,in_progress';

const codes = (responses: { status: number; body: any }[]) => {
  const tally: Record<string, number> = {};
  for (const r of responses) {
    const key = r.status === 201 || r.status === 200 ? String(r.status) : `${r.status} ${r.body.error.code}`;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  return tally;
};

async function activeCount(scene: Awaited<ReturnType<typeof makeScene>>) {
  const list = await call('GET', `/v1/appointments?from=${DAY}&to=${DAY}&status=${ACTIVE}&limit=100`, {
    token: scene.practice.adminToken,
  });
  return list.body.pagination.total as number;
}

// 50-way races make hundreds of DynamoDB Local transactions: generous time on a busy 2-core machine.
describe('no double booking under concurrency', { timeout: 120_000 }, () => {
  it('50 concurrent overlapping creates for one provider: exactly one wins', async () => {
    const scene = await makeScene();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        book(scene, { scheduled_at: nyTime(DAY, `10:${String(i % 45).padStart(2, '0')}`) }),
      ),
    );
    expect(codes(responses)).toEqual({ '201': 1, '409 PROVIDER_UNAVAILABLE': 49 });
    expect(await activeCount(scene)).toBe(1);
  });

  it('50 concurrent creates for one room with different providers: exactly one wins', async () => {
    const scene = await makeScene({ providers: 50 });
    const responses = await Promise.all(
      scene.providers.map((provider) => book(scene, { provider_id: provider.id, room_id: scene.room.id })),
    );
    expect(codes(responses)).toEqual({ '201': 1, '409 ROOM_UNAVAILABLE': 49 });
    expect(await activeCount(scene)).toBe(1);
  });

  it('50 concurrent creates for one piece of equipment with different providers: exactly one wins', async () => {
    const scene = await makeScene({ providers: 50 });
    const responses = await Promise.all(
      scene.providers.map((provider, i) =>
        book(scene, {
          provider_id: provider.id,
          equipment_id: scene.equipment.id,
          scheduled_at: nyTime(DAY, `10:${String(i).padStart(2, '0')}`),
        }),
      ),
    );
    expect(codes(responses)).toEqual({ '201': 1, '409 EQUIPMENT_UNAVAILABLE': 49 });
    expect(await activeCount(scene)).toBe(1);
  });

  it('20 concurrent creates at 20 different free times for one provider all succeed', async () => {
    const scene = await makeScene();
    // 20-minute appointments from 09:00 to 15:40: three share each hour bucket, so they race on buckets.
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const minutes = 9 * 60 + i * 20;
        const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        return book(scene, { scheduled_at: nyTime(DAY, hhmm), duration_minutes: 20 });
      }),
    );
    expect(codes(responses)).toEqual({ '201': 20 });
    expect(await activeCount(scene)).toBe(20);
    const entries = (await claimItems(scene.practice.medspaId, 'PROVIDER', scene.provider.id)).flatMap((item) =>
      Object.keys(item.entries),
    );
    expect(entries).toHaveLength(20);
  });

  it('concurrent reschedules into the same free slot: one wins', async () => {
    const scene = await makeScene();
    const token = scene.practice.adminToken;
    const appointments = [];
    for (const hhmm of ['09:00', '10:00', '11:00', '12:00', '13:00'])
      appointments.push((await book(scene, { scheduled_at: nyTime(DAY, hhmm) })).body.data);
    const responses = await Promise.all(
      appointments.map((a) =>
        call('PATCH', `/v1/appointments/${a.id}`, { token, body: { scheduled_at: nyTime(DAY, '15:00') } }),
      ),
    );
    expect(codes(responses)).toEqual({ '200': 1, '409 PROVIDER_UNAVAILABLE': 4 });
    const list = await call('GET', `/v1/appointments?from=${DAY}&to=${DAY}`, { token });
    const starts = list.body.data.map((a: { scheduled_at: string }) => a.scheduled_at);
    expect(starts.filter((s: string) => s === utc(DAY, '15:00'))).toHaveLength(1);
    expect(starts).toHaveLength(5);
  });

  it('concurrent cancels of one appointment: one succeeds, the rest are invalid transitions', async () => {
    const scene = await makeScene();
    const a = (await book(scene)).body.data;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', `/v1/appointments/${a.id}/cancel`, { token: scene.practice.adminToken }),
      ),
    );
    expect(codes(responses)).toEqual({ '200': 1, '409 INVALID_STATUS_TRANSITION': 9 });
  });
});
