import { describe, expect, it } from 'vitest';
import { checkProviderAvailability, type WorkingHours } from '../../lib/domain/availability';
import { buffersOf, heldInterval } from '../../lib/domain/held-time';
import type { BookingReads } from '../../lib/db/booking-reads';
import { claimsOf, readCovering } from '../../lib/use-cases/booking';

/** Buffers (contract section 11): the held time; slots agree with the check (test/unit/slots.test.ts). */
const NY = 'America/New_York';
const DATE = '2026-11-23';
// 09:00-17:00 New York = 14:00-22:00Z on this date.
const HOURS: WorkingHours = { mon: [{ start: '09:00', end: '17:00' }] };
const at = (hhmmZ: string) => `${DATE}T${hhmmZ}:00.000Z`;
const busy = (start: string, end: string, appointment_id = 'a1') => ({
  start: at(start),
  end: at(end),
  appointment_id,
});

describe('heldInterval', () => {
  it('widens the client time by the buffers; none (or missing fields) leaves it as it is', () => {
    const client = { start: at('15:00'), end: at('16:00') };
    expect(heldInterval(client, { buffer_before_minutes: 10, buffer_after_minutes: 15 })).toEqual({
      start: at('14:50'),
      end: at('16:15'),
    });
    expect(heldInterval(client, {})).toEqual(client);
    expect(heldInterval(client, null)).toEqual(client);
    expect(buffersOf(undefined)).toEqual({ buffer_before_minutes: 0, buffer_after_minutes: 0 });
  });

  it('is what claimsOf claims on every resource (holds pass their buffer fields the same way)', () => {
    const claims = claimsOf({
      provider_id: 'p',
      room_id: 'r',
      equipment_id: null,
      scheduled_at: at('15:00'),
      end_at: at('16:00'),
      buffer_before_minutes: 5,
      buffer_after_minutes: 20,
    });
    expect(claims).toEqual([
      { resource: 'PROVIDER', resourceId: 'p', start: at('14:55'), end: at('16:20') },
      { resource: 'ROOM', resourceId: 'r', start: at('14:55'), end: at('16:20') },
    ]);
  });
});

describe('checkProviderAvailability with buffers', () => {
  const check = (
    start: string,
    end: string,
    buffers: { buffer_before_minutes?: number; buffer_after_minutes?: number },
  ) =>
    checkProviderAvailability({
      start: at(start),
      end: at(end),
      zone: NY,
      workingHours: HOURS,
      timeOff: [{ start: at('20:00'), end: at('21:00') }],
      providerBusy: [busy('16:00', '17:15')],
      buffers,
    }).conflicts.map((c) => c.type);

  it('judges bookings on the held time', () => {
    expect(check('15:00', '16:00', {})).toEqual([]);
    expect(check('15:00', '16:00', { buffer_after_minutes: 1 })).toEqual(['provider_booked']);
    expect(check('17:15', '18:00', { buffer_before_minutes: 1 })).toEqual(['provider_booked']);
  });

  it('judges working hours and time off on the client time only', () => {
    // Buffers reaching before opening and into time off: fine.
    expect(check('14:00', '15:00', { buffer_before_minutes: 240 })).toEqual([]);
    expect(check('19:00', '20:00', { buffer_after_minutes: 30 })).toEqual([]);
    expect(check('21:00', '22:00', { buffer_after_minutes: 240, buffer_before_minutes: 30 })).toEqual([]);
    expect(check('13:45', '14:45', {})).toEqual(['outside_working_hours']);
  });
});

describe('readCovering: a create reads the buckets of its service held time', () => {
  const service = (before: number, after: number) => ({ buffer_before_minutes: before, buffer_after_minutes: after });
  /** A fake booking read: the service as successive reads find it; records the buffers each read asked for. */
  const reader = (...found: ReturnType<typeof service>[]) => {
    const asked: unknown[] = [];
    const read = async (buffers: unknown) => {
      asked.push(buffers);
      const record = found[Math.min(asked.length - 1, found.length - 1)];
      return { entity: () => record } as unknown as BookingReads;
    };
    return { asked, read };
  };

  it('reads once when the hint (or no buffers) covers the service', async () => {
    const none = reader(service(0, 0));
    await readCovering(none.read, 's', undefined);
    expect(none.asked).toEqual([service(0, 0)]);
    const hinted = reader(service(10, 15));
    await readCovering(hinted.read, 's', service(10, 15));
    expect(hinted.asked).toEqual([service(10, 15)]);
  });

  it("reads again for the service's buffers, and for the widest when they grew in between", async () => {
    const wider = reader(service(0, 15));
    await readCovering(wider.read, 's', undefined);
    expect(wider.asked).toEqual([service(0, 0), service(0, 15)]);
    const grew = reader(service(0, 15), service(0, 30));
    await readCovering(grew.read, 's', undefined);
    expect(grew.asked).toEqual([service(0, 0), service(0, 15), service(240, 240)]);
  });
});
