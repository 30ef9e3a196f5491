import { randomUUID } from 'node:crypto';
import { clock } from '../clock';
import { canTransition } from '../domain/status';
import { occurrenceStarts, SERIES_COMMIT_MARGIN_SECONDS, SERIES_PENDING_SECONDS } from '../domain/series';
import type { SeriesRecord } from '../domain/records';
import { commitWithClaims, type ClaimChange } from '../db/appointments';
import { clientIsLive } from '../db/client-stats';
import { getPractice } from '../db/practices';
import type { RequestWrites } from '../db/request-writes';
import {
  finalizeClaimActions,
  getSeries,
  readSeriesAppointments,
  seriesAppointmentPut,
  seriesCommitAction,
  seriesDeleteAction,
  seriesPendingCheck,
  seriesPutAction,
} from '../db/series';
import { firstFailed, transact } from '../db/transact';
import { AppError, isAppError, type ErrorCode, type FieldProblem } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { CancelSeriesInput, CreateSeriesInput, SeriesView } from '../schemas/series';
import { changeStatus } from './appointment-status';
import { readPlanUse } from './plan-bookings';
import { claimsOf, decidePlacement, moneyTermsAtBooking, newAppointment, planClaimChanges } from './booking';

/**
 * Series all or none (API reference, series; docs/decisions/0025-series-all-or-none.md):
 * 1. decide every occurrence on fresh reads, and answer SERIES_CONFLICT naming each one refused;
 * 2. put the series `pending` and each occurrence's claims as pending entries (expiring at
 *    `claims_until`, one transaction per occurrence, each on condition the series is pending);
 * 3. commit: ONE transaction moves the series to `committed`, puts every appointment and, against
 *    a client plan, reserves one unit per occurrence (a balance on its version read, an entry each);
 * 4. mark the claims permanent (a shortcut: readers already count a committed series' claims).
 * Any failure before 3 takes the pending claims back and deletes the series; a request that dies
 * leaves claims that free themselves at `claims_until` and nothing readable.
 */

/** An occurrence refused for its time: named in SERIES_CONFLICT; any other refusal answers the whole request. */
const OCCURRENCE_CODES: readonly ErrorCode[] = ['PROVIDER_UNAVAILABLE', 'ROOM_UNAVAILABLE', 'EQUIPMENT_UNAVAILABLE'];

/** Lost bucket races of one occurrence's pending claims are decided again on fresh reads, bounded. */
const CLAIM_ATTEMPTS = 6;
/** Commits lost to a plan's balance moving are decided again on a fresh read of the plan, bounded. */
const PLAN_ATTEMPTS = 6;

type Decided = Awaited<ReturnType<typeof decidePlacement<{ providerIds: readonly string[] }>>>;

/** A test seam: runs before each write of a series, so a test can make the request die midway. */
export const seriesFaults: { beforeWrite?: (step: string) => void } = {};

const conflictOf = (index: number, scheduledAt: string, error: AppError): FieldProblem => ({
  path: 'scheduled_at',
  message: `occurrence ${index} (${scheduledAt}): ${error.message}`,
  index,
  scheduled_at: scheduledAt,
  code: error.code,
  ...(error.details?.[0]?.reason ? { reason: error.details[0].reason } : {}),
});

/** The whole request's refusal among the occurrences' (the first in occurrence order), else every occurrence refused for its time. */
function refusals(settled: PromiseSettledResult<Decided>[], starts: string[]): FieldProblem[] {
  const conflicts: FieldProblem[] = [];
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') return;
    const error = outcome.reason;
    if (!isAppError(error) || !OCCURRENCE_CODES.includes(error.code)) throw error;
    conflicts.push(conflictOf(index, starts[index]!, error));
  });
  return conflicts;
}

const seriesConflict = (conflicts: FieldProblem[]) =>
  new AppError(
    'SERIES_CONFLICT',
    `${conflicts.length} occurrence${conflicts.length === 1 ? '' : 's'} cannot be booked; nothing was booked`,
    { details: [...conflicts].sort((a, b) => a.index! - b.index!) },
  );

/** POST /v1/appointment-series. */
export async function createSeries(
  medspaId: string,
  input: CreateSeriesInput,
  now: Date,
  writes?: RequestWrites,
): Promise<SeriesView> {
  const practice = await getPractice(medspaId);
  const starts = occurrenceStarts(input.scheduled_at, input.count, input.every_days, practice?.time_zone ?? 'UTC');
  let plan = input.client_plan_id ? await readPlanUse(medspaId, input.client_plan_id, now) : null;
  // One unit per occurrence: fewer is ENTITLEMENT_EXHAUSTED for the whole series, in create's order.
  const checkPlan = () => plan?.check(input, starts.length);
  const decide = (scheduledAt: string) =>
    decidePlacement(
      medspaId,
      {
        service_id: input.service_id,
        scheduledAt,
        providerIds: [input.provider_id],
        room_id: input.room_id,
        equipment_id: input.equipment_id,
        source: 'manual',
        decide: (reads) => {
          if (!reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
          return { providerIds: [input.provider_id] };
        },
        afterCertified: checkPlan,
      },
      now,
      [{ type: 'CLIENT', id: input.client_id }],
    );
  // 1. Every occurrence decided (all buckets read), every refusal collected, not just the first.
  const settled = await Promise.allSettled(starts.map(decide));
  const conflicts = refusals(settled, starts);
  if (conflicts.length > 0) throw seriesConflict(conflicts);
  const placed = settled.map((outcome) => (outcome as PromiseFulfilledResult<Decided>).value);

  const at = now.toISOString();
  const series: SeriesRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    status: 'pending',
    claims_until: new Date(clock().now().getTime() + SERIES_PENDING_SECONDS * 1000).toISOString(),
    appointment_ids: [],
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const appointments: Appointment[] = placed.map(({ reads, service, placement, duration }) => {
    // A plan-booked occurrence costs 0 (its unit is prepaid) and so asks no deposit.
    const price = plan ? 0 : service.price_cents;
    return {
      ...newAppointment(medspaId, {
        client_id: input.client_id,
        service_id: service.id,
        placement,
        duration_minutes: duration,
        notes: input.notes,
        source: 'manual',
        price_cents: price,
        moneyTerms: moneyTermsAtBooking(service, price, reads.practice, input.client_plan_id),
        now,
        client_plan_id: input.client_plan_id,
      }),
      series_id: series.id,
    };
  });
  series.appointment_ids = appointments.map((appointment) => appointment.id);

  const written = new Set<number>();
  try {
    seriesFaults.beforeWrite?.('series');
    await transact([{ name: 'series' as const, action: seriesPutAction(series) }]);
    // 2. Each occurrence's claims, pending, in its own transaction (a series can pass 100 actions).
    // All settled before anything is taken back, so the take-back knows every claim written.
    const late = await Promise.allSettled(
      appointments.map((appointment, index) =>
        claimPending(medspaId, series, appointment, placed[index]!, () => decide(starts[index]!)).then((refusal) => {
          if (refusal) return conflictOf(index, starts[index]!, refusal);
          written.add(index);
          return null;
        }),
      ),
    );
    const broken = late.find((outcome) => outcome.status === 'rejected');
    if (broken) throw broken.reason;
    const lateConflicts = late.flatMap((outcome) =>
      outcome.status === 'fulfilled' && outcome.value ? [outcome.value] : [],
    );
    if (lateConflicts.length > 0) throw seriesConflict(lateConflicts);
    // 3. The commit point: every appointment at once, with the series (and a plan's units).
    for (let attempt = 1; ; attempt++) {
      seriesFaults.beforeWrite?.('commit');
      const margin = new Date(clock().now().getTime() + SERIES_COMMIT_MARGIN_SECONDS * 1000).toISOString();
      const outcome = await transact(
        [
          { name: 'series' as const, action: seriesCommitAction(medspaId, series.id, margin, at) },
          { name: 'client' as const, action: clientIsLive(medspaId, input.client_id) },
          ...appointments.map((appointment) => ({
            name: 'appointment' as const,
            action: seriesAppointmentPut(appointment),
          })),
          // One balance step of `count` units on the version read, one reserve entry per occurrence.
          ...(plan?.reserve(...appointments) ?? []).map((action) => ({ name: 'plan' as const, action })),
        ],
        writes,
      );
      if (outcome.ok) break;
      const failed = firstFailed(outcome.failed, ['client', 'series', 'plan', 'appointment']);
      if (failed?.name === 'client') throw new AppError('CLIENT_NOT_FOUND');
      if (failed?.name === 'plan' && attempt < PLAN_ATTEMPTS) {
        // The plan moved since it was read (another booking, a pause): decided again on what is left,
        // while the pending claims still hold the time.
        plan = await readPlanUse(medspaId, input.client_plan_id!, now);
        checkPlan();
        continue;
      }
      throw new AppError('SERIES_CONFLICT', 'The series took too long to book; nothing was booked, try again', {
        details: [],
      });
    }
  } catch (error) {
    await takeBack(medspaId, series.id, appointments, written);
    throw error;
  }
  // 4. A shortcut only (readers count a committed series' claims already): failures change nothing.
  await Promise.allSettled(
    appointments.map(async (appointment) => {
      seriesFaults.beforeWrite?.('finalize');
      return transact(
        finalizeClaimActions(medspaId, appointment.id, claimsOf(appointment)).map((action) => ({
          name: 'finalize' as const,
          action,
        })),
      );
    }),
  );
  return { id: series.id, appointments };
}

/**
 * One occurrence's pending claims, on condition the series is pending and each bucket is as read;
 * a lost race is decided again on fresh reads. Answers the occurrence's refusal, or null once written.
 */
async function claimPending(
  medspaId: string,
  series: SeriesRecord,
  appointment: Appointment,
  first: Decided,
  again: () => Promise<Decided>,
): Promise<AppError | null> {
  let reads = first.reads;
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    seriesFaults.beforeWrite?.('claims');
    const changes: ClaimChange[] = planClaimChanges(appointment.id, [], claimsOf(appointment), reads).map((change) =>
      change.kind === 'add' ? { ...change, series: { id: series.id, expires_at: series.claims_until } } : change,
    );
    const result = await commitWithClaims(seriesPendingCheck(medspaId, series.id), changes, medspaId);
    if (result.ok) return null;
    if (result.failed !== 'claim') throw new AppError('SERIES_CONFLICT', 'The series was taken back; try again');
    try {
      reads = (await again()).reads;
    } catch (error) {
      if (isAppError(error) && OCCURRENCE_CODES.includes(error.code)) return error;
      throw error;
    }
  }
  return new AppError('PROVIDER_UNAVAILABLE', 'The time is in high demand; try again');
}

/** Takes back the pending claims written and deletes the series: best effort (what is left expires by itself). */
async function takeBack(medspaId: string, seriesId: string, appointments: Appointment[], written: Set<number>) {
  try {
    seriesFaults.beforeWrite?.('take-back');
    await Promise.all(
      [...written].map((index) =>
        commitWithClaims(
          seriesPendingCheck(medspaId, seriesId),
          planClaimChanges(appointments[index]!.id, claimsOf(appointments[index]!), []),
          medspaId,
        ),
      ),
    );
    await transact([{ name: 'series' as const, action: seriesDeleteAction(medspaId, seriesId) }]);
  } catch {
    // The claims free themselves at claims_until, and a pending series is never shown.
  }
}

/** A committed series, or 404 (a pending one is nobody's yet; one that never committed is gone). */
async function readCommitted(medspaId: string, id: string): Promise<SeriesRecord> {
  const series = await getSeries(medspaId, id);
  if (series?.status !== 'committed') throw new AppError('SERIES_NOT_FOUND');
  return series;
}

const byStart = (a: Appointment, b: Appointment) => a.scheduled_at.localeCompare(b.scheduled_at);

/** GET /v1/appointment-series/{id}: its appointments as they are now (a deleted one is left out). */
export async function showSeries(medspaId: string, id: string): Promise<SeriesView> {
  const series = await readCommitted(medspaId, id);
  const appointments = await readSeriesAppointments(medspaId, series.appointment_ids);
  return { id, appointments: appointments.sort(byStart) };
}

/**
 * POST /v1/appointment-series/{id}/cancel: each future active appointment cancelled by the
 * appointment's own cancel (its events, its claims freed, the late-cancel fee of its policy).
 */
export async function cancelSeries(
  medspaId: string,
  id: string,
  input: CancelSeriesInput,
  options: { now: Date; writes?: RequestWrites },
): Promise<SeriesView> {
  const series = await readCommitted(medspaId, id);
  const appointments = await readSeriesAppointments(medspaId, series.appointment_ids);
  for (const appointment of appointments) {
    if (Date.parse(appointment.scheduled_at) <= options.now.getTime()) continue;
    if (!canTransition(appointment.status, 'cancelled')) continue;
    try {
      await changeStatus(medspaId, appointment.id, 'cancelled', { ...options, reason: input?.reason });
    } catch (error) {
      // Ended or cancelled by someone else meanwhile: nothing left to cancel there.
      if (!isAppError(error) || error.code !== 'INVALID_STATUS_TRANSITION') throw error;
    }
  }
  return showSeries(medspaId, id);
}
