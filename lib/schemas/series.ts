import * as z from './zod';
import { SERIES_LIMITS } from '../domain/series';
import { Appointment, ClientNotes, ids } from './appointments';
import { DateTime, doc, IdOf, meta, OutId, schema } from './common';

/**
 * Series (API reference, series): occurrences at the same practice-local time, booked all
 * together or not at all (docs/decisions/0025).
 */

export const CreateSeriesBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      client_id: ids.client,
      service_id: ids.service,
      provider_id: ids.provider,
      scheduled_at: doc(
        DateTime,
        "The first occurrence's start, with an offset; at most 5 minutes in the past. The others follow at the same practice-local time (DST-aware).",
        '2026-12-01T10:00:00-05:00',
      ),
      count: doc(
        z.number().check(z.int(), z.gte(SERIES_LIMITS.count.min), z.lte(SERIES_LIMITS.count.max)),
        `How many occurrences, ${SERIES_LIMITS.count.min}..${SERIES_LIMITS.count.max}.`,
        4,
      ),
      every_days: doc(
        z.number().check(z.int(), z.gte(SERIES_LIMITS.everyDays.min), z.lte(SERIES_LIMITS.everyDays.max)),
        `Practice-local days between occurrences, ${SERIES_LIMITS.everyDays.min}..${SERIES_LIMITS.everyDays.max}.`,
        28,
      ),
      room_id: z.nullish(ids.room),
      equipment_id: z.nullish(ids.equipment),
      notes: z.nullish(ClientNotes),
      client_plan_id: z.optional(
        IdOf(
          'clientPlan',
          "Book every occurrence against this client plan: one unit of the service per occurrence is reserved in the series' own commit, and each price is 0. Checked as a create's, right after PROVIDER_NOT_CERTIFIED: 404 CLIENT_PLAN_NOT_FOUND, 422 PLAN_NOT_APPLICABLE, 409 PLAN_NOT_ACTIVE, then 409 ENTITLEMENT_EXHAUSTED (not SERIES_CONFLICT) when fewer units remain than `count`.",
        ),
      ),
    }),
    "A series of bookings of one service with one provider. Validated as a create for each occurrence; any occurrence that cannot be booked refuses the whole series (409 SERIES_CONFLICT naming every such occurrence), and nothing is booked. Refusals of the whole request (a missing client, service or provider, an uncertified provider, a client plan's) answer as a create does.",
  ),
);
export type CreateSeriesInput = z.output<typeof CreateSeriesBody>;

export const SeriesParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('series', 'The series (else 404 SERIES_NOT_FOUND).') }),
);

export const CancelSeriesBody = /* @__PURE__ */ schema(() =>
  doc(
    z.optional(
      z.strictObject({
        reason: doc(
          z.optional(z.string().check(z.maxLength(1000))),
          "Why (at most 1000 characters), kept as each cancelled appointment's cancellation_reason.",
          'Course stopped',
        ),
      }),
    ),
    'Optional; an empty body cancels without a reason.',
  ),
);
export type CancelSeriesInput = z.output<typeof CancelSeriesBody>;

export const Series = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('series', 'The series id.'),
      appointments: doc(
        z.array(Appointment),
        'Its appointments, by start, each with `series_id` (cancelled ones included, with their status).',
      ),
    }),
    {
      description:
        'A series: every occurrence booked together. Each appointment is an ordinary one (move, cancel, complete it alone).',
    },
  ),
);
export type SeriesView = z.output<typeof Series>;
