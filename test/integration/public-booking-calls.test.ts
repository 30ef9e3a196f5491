import { describe, expect, it } from 'vitest';
import { bookOnline, cancelOnlineBooking, getOnlineBooking, rescheduleOnlineBooking } from '../../lib/use-cases/public-booking';
import { getPractice } from '../../lib/db/practices';
import { publicServices } from '../../lib/use-cases/public-catalog';
import { makeClient } from '../fixtures/builders';
import { makeOnlineScene, onlineBooking } from '../fixtures/online-booking';
import { BOOKING_DAY, nyTime } from '../fixtures/scheduling';
import { counted } from '../fixtures/ddb-calls';


describe('DynamoDB calls of online booking (no Scan)', () => {
  it('a booking: the email Query, the setup BatchGetItem, the booking BatchGetItem and TransactWriteItems; an existing client adds one Query (its bookings)', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const fresh = await counted(() => bookOnline(medspaId, onlineBooking(scene), new Date()));
    expect(fresh.calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 });
    const existing = await makeClient(scene.practice);
    const known = await counted(() => bookOnline(medspaId, onlineBooking(scene, { scheduled_at: nyTime(BOOKING_DAY, '12:00'), client: { first_name: 'A', last_name: 'B', email: existing.email } }), new Date()));
    expect(known.calls).toEqual({ QueryCommand: 2, BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 });
  });

  it('manage links: GET = GetItem + BatchGetItem; cancel adds GetItem + TransactWriteItems; reschedule adds GetItem + BatchGetItem + TransactWriteItems', async () => {
    const scene = await makeOnlineScene();
    const medspaId = scene.practice.medspaId;
    const booking = await bookOnline(medspaId, onlineBooking(scene), new Date());
    const now = new Date();
    expect((await counted(() => getOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, now))).calls).toEqual({ GetItemCommand: 1, BatchGetItemCommand: 1 });
    const moved = await counted(() => rescheduleOnlineBooking(medspaId, booking.appointment_id, booking.manage_token, { now, scheduledAt: nyTime(BOOKING_DAY, '14:00') }));
    expect(moved.calls).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 2, TransactWriteItemsCommand: 1 });
    const cancelled = await counted(() => cancelOnlineBooking(medspaId, booking.appointment_id, moved.result.manage_token, { now }));
    expect(cancelled.calls).toEqual({ GetItemCommand: 2, BatchGetItemCommand: 1, TransactWriteItemsCommand: 1 });
    // A token that does not open the booking costs nothing.
    expect((await counted(() => getOnlineBooking(medspaId, booking.appointment_id, 'nope', now).catch(() => null))).calls).toEqual({});
  });

  it('services: the services Query, then one read of their providers (the practice is the one read with the key)', async () => {
    const scene = await makeOnlineScene();
    const practice = (await getPractice(scene.practice.medspaId))!;
    // One provider here: a lone key is a GetItem (lib/db/key-reads.ts), more would be one BatchGetItem.
    expect((await counted(() => publicServices(practice))).calls).toEqual({ QueryCommand: 1, GetItemCommand: 1 });
  });
});
