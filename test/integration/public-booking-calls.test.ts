import { describe, expect, it } from 'vitest';
import {
  bookOnline,
  cancelOnlineBooking,
  getOnlineBooking,
  rescheduleOnlineBooking,
} from '../../lib/use-cases/public-booking';
import { getPractice } from '../../lib/db/practices';
import { publicServices } from '../../lib/use-cases/public-catalog';
import { makeClient } from '../fixtures/builders';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime } from '../fixtures/scheduling';
import { ddbCalls } from '../../lib/db/client';
import { counted } from '../fixtures/ddb-calls';

describe('DynamoDB calls of online booking (no Scan)', () => {
  it('a new email and a known one make the same calls in the same order: the email Query beside the setup BatchGetItem, then the booking BatchGetItem beside its claims Query, and TransactWriteItems', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    // What went out, in order; the two reads of each of the first two rounds go out together, in either order.
    const sent = async (work: () => Promise<unknown>) => {
      ddbCalls.trace = [];
      const { calls } = await counted(work);
      const order = ddbCalls.trace.filter((line) => line.includes(' sent')).map((line) => line.replace(/ sent.*/, ''));
      ddbCalls.trace = undefined;
      return { calls, order: [...order.slice(0, 2).sort(), ...order.slice(2, 4).sort(), ...order.slice(4)] };
    };
    const fresh = await sent(() => bookOnline(medspaId, onlineBooking(scene), new Date()));
    const existing = await makeClient(scene.practice);
    const known = await sent(() =>
      bookOnline(
        medspaId,
        onlineBooking(scene, {
          scheduled_at: nyTime(BOOKING_DAY, '12:00'),
          client: { first_name: 'A', last_name: 'B', email: existing.email },
        }),
        new Date(),
      ),
    );
    const rebooked = await sent(() =>
      bookOnline(
        medspaId,
        onlineBooking(scene, {
          scheduled_at: nyTime(BOOKING_DAY, '14:00'),
          client: { first_name: 'A', last_name: 'B', email: existing.email },
        }),
        new Date(),
      ),
    );
    const expected = {
      calls: { QueryCommand: 2, BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 },
      order: [
        'BatchGetItemCommand',
        'QueryCommand',
        'BatchGetItemCommand',
        'QueryCommand',
        'TransactWriteItemsCommand',
      ],
    };
    expect(fresh).toEqual(expected);
    expect(known).toEqual(expected);
    expect(rebooked).toEqual(expected);
  });

  it('manage links: GET = GetItem + BatchGetItem; cancel adds GetItem + TransactWriteItems; reschedule adds GetItem + BatchGetItem and its claims Query + TransactWriteItems', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const booking = await bookOnline(medspaId, onlineBooking(scene), new Date());
    const now = new Date();
    expect(
      (await counted(() => getOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, now))).calls,
    ).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1 });
    const moved = await counted(() =>
      rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, {
        now,
        scheduledAt: nyTime(BOOKING_DAY, '14:00'),
      }),
    );
    expect(moved.calls).toEqual({
      GetItemCommand: 2,
      BatchGetItemCommand: 2,
      QueryCommand: 1,
      TransactWriteItemsCommand: 1,
    });
    const cancelled = await counted(() =>
      cancelOnlineBooking(medspaId, booking.appointment_id, moved.result.manage_token, { now }),
    );
    expect(cancelled.calls).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    // A token that does not open the booking costs nothing.
    expect(
      (await counted(() => getOnlineBooking(medspaId, booking.appointment_id, 'nope', now).catch(() => null))).calls,
    ).toEqual({});
  });

  it('services: the services Query, then one read of their providers (the practice is the one read with the key)', async () => {
    const scene = await makeOnlineScene();
    const practice = (await getPractice(scene.practice.medspaId))!;
    // One provider here: a lone key is a GetItem (lib/db/key-reads.ts), more would be one BatchGetItem.
    expect((await counted(() => publicServices(practice))).calls).toEqual({ QueryCommand: 1, GetItemCommand: 1 });
  });
});
