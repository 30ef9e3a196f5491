import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getAppointment } from '../../lib/db/appointments';
import type { Appointment } from '../../lib/schemas/appointments';
import { changeStatus, deleteAppointment } from '../../lib/use-cases/appointment-status';
import { createAppointment, updateAppointment } from '../../lib/use-cases/booking';
import { makeRoom } from '../fixtures/builders';
import { addDays, futureWeekday } from '../fixtures/dates';
import { bookingViolations, type ClaimBucket } from '../fixtures/invariants';
import { claimItems, makeScene, nyTime } from '../fixtures/scheduling';

type Op =
  | { kind: 'create'; provider: number; room: number | null; start: number; duration: number }
  | { kind: 'reschedule'; target: number; start: number }
  | { kind: 'cancel' | 'noShow' | 'delete'; target: number };

const start = fc.integer({ min: 8 * 4, max: 17 * 4 }); // quarter hours of the local day
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      provider: fc.integer({ min: 0, max: 1 }),
      room: fc.option(fc.integer({ min: 0, max: 1 })),
      start,
      duration: fc.constantFrom(15, 30, 45, 60, 90, 120),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reschedule' as const), target: fc.nat(), start }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom('cancel' as const, 'noShow' as const, 'delete' as const),
      target: fc.nat(),
    }),
  },
);

const hhmm = (quarter: number) =>
  `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;

describe('booking invariants (property-based, on DynamoDB Local)', () => {
  // Heavy (hundreds of DynamoDB Local transactions): generous time on a busy 2-core machine.
  it('random create/reschedule/cancel/no-show/delete never leave overlaps or orphan claims', {
    timeout: 120_000,
  }, async () => {
    const scene = await makeScene({ providers: 2 });
    const rooms = [scene.room, await makeRoom(scene.practice)];
    const medspaId = scene.practice.medspaId;
    const ids: string[] = [];
    // Each run books on its own day, the days after a Monday some weeks ahead.
    const firstDay = futureWeekday('mon', 2);
    let day = 0;

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        day += 1;
        const date = addDays(firstDay, day);
        const now = new Date();
        const run = async (o: Op) => {
          const target = () => ids[('target' in o ? o.target : 0) % Math.max(ids.length, 1)];
          if (o.kind === 'create') {
            const created = await createAppointment(
              medspaId,
              {
                client_id: scene.client.id,
                service_id: scene.service.id,
                provider_id: scene.providers[o.provider].id,
                room_id: o.room === null ? null : rooms[o.room].id,
                scheduled_at: nyTime(date, hhmm(o.start)),
                duration_minutes: o.duration,
                source: 'manual',
              },
              now,
            );
            ids.push(created.id);
          } else if (o.kind === 'reschedule' && ids.length) {
            await updateAppointment(medspaId, target(), { scheduled_at: nyTime(date, hhmm(o.start)) }, { now });
          } else if (o.kind === 'cancel' && ids.length) {
            await changeStatus(medspaId, target(), 'cancelled', { now });
          } else if (o.kind === 'noShow' && ids.length) {
            for (const status of ['confirmed', 'checked_in', 'no_show'] as const)
              await changeStatus(medspaId, target(), status, { now });
          } else if (o.kind === 'delete' && ids.length) {
            await deleteAppointment(medspaId, target(), {});
          }
        };
        // Run in groups of three at once, so operations also race each other; refusals are expected.
        for (let i = 0; i < ops.length; i += 3) await Promise.allSettled(ops.slice(i, i + 3).map(run));

        const appointments = (await Promise.all(ids.map((id) => getAppointment(medspaId, id)))).filter(
          (a): a is Appointment => a !== null,
        );
        const claims: ClaimBucket[] = [];
        const resources = [
          ...scene.providers.map((p) => ['PROVIDER', p.id] as const),
          ...rooms.map((r) => ['ROOM', r.id] as const),
        ];
        for (const [resource, id] of resources) {
          for (const item of await claimItems(medspaId, resource, id))
            claims.push({ resource, resourceId: id, hour: item.sk, entries: item.entries });
        }
        // No overlaps; claims are exactly the active appointments' buckets, with their current intervals.
        expect(bookingViolations(appointments, claims)).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});
