import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { clock } from '../clock';
import { getHold } from '../db/holds';
import { readMinutePartitions } from '../db/minute-partitions';
import { decodeStreamRecord, recordIds, type StreamRecord } from '../db/stream';
import { transact } from '../db/transact';
import {
  advanceWaitlistSweepCheckpoint,
  deleteWaitlistDue,
  entryChangeAction,
  freedChangeAction,
  getFreed,
  getOfferOfHold,
  getWaitlistEntry,
  putWaitlistDue,
  readWaitlistSweepCheckpoint,
  waitlistDueIn,
} from '../db/waitlist';
import { holdStatus } from '../domain/holds';
import type { WaitlistDueRecord, WaitlistOfferRecord } from '../domain/records';
import { sweepWindow, utcMinuteOf } from '../domain/reminders';
import { entryChanged, entryStatus, freedByAppointment, freedByHold, freedReleased } from '../domain/waitlist';
import { logger } from '../log';
import { retry } from '../retry';
import { offerFreedTime, offerNext } from './waitlist-offers';

/**
 * Where freed time comes from (docs/decisions/0032): the table stream (a cancel, no-show, delete
 * or move of an appointment; a released hold) and the waitlist sweep (an expired hold, found in
 * the minute partition its expiry was armed in when the hold was made; an expired entry). An
 * offer's own hold ending (declined, released, expired) moves its freed time on to the next entry.
 */

/** The stream kinds the waitlist worker acts on (its mapping's FilterCriteria: lib/workers). */
export const WAITLIST_STREAM_KINDS = ['APPOINTMENT', 'HOLD'] as const;

/**
 * An offer ends without a booking (declined, its hold released or expired): its entry waits again
 * (unless it moved on already: cancelled, or declined in its own write), its freed time names no
 * entry, in one transaction on the versions read; then the freed time goes to the next entry.
 */
export async function endOffer(offer: WaitlistOfferRecord, now: Date) {
  const { medspa_id: medspaId } = offer;
  await retry(
    async () => {
      const [entry, freed] = await Promise.all([
        getWaitlistEntry(medspaId, offer.entry_id),
        getFreed(medspaId, offer.freed_id),
      ]);
      const at = now.toISOString();
      const actions = [
        ...(entry?.status === 'offered' && entry.offer?.hold_id === offer.hold_id
          ? [entryChangeAction(entryChanged(entry, { status: 'waiting', offer: null }, at))]
          : []),
        ...(freed && freed.offered_to === offer.entry_id ? [freedChangeAction(freedReleased(freed, at))] : []),
      ];
      if (actions.length === 0) return { done: undefined };
      const outcome = await transact(actions.map((action) => ({ name: 'change', action })));
      return outcome.ok ? { done: undefined } : { retry: 'now' as const };
    },
    {
      attempts: 5,
      exhausted: () => {
        throw new Error('an offer could not be ended: its entry or freed time keeps changing');
      },
    },
  );
  return offerNext(medspaId, offer.freed_id, now);
}

/**
 * An offer's hold confirmed by `POST /v1/holds/{id}/confirm` rather than by the accept: its entry
 * is booked all the same (the accept moves it in the confirm's own write; this catches the other way).
 */
async function offerConfirmedElsewhere(medspaId: string, holdId: string, appointmentId: string, now: Date) {
  const offer = await getOfferOfHold(medspaId, holdId);
  if (!offer) return;
  const entry = await getWaitlistEntry(medspaId, offer.entry_id);
  if (entry?.status !== 'offered' || entry.offer?.hold_id !== holdId) return;
  const booked = entryChanged(entry, { status: 'booked', appointment_id: appointmentId }, now.toISOString());
  // A lost race means the entry moved on by another path: nothing to do.
  await transact([{ name: 'entry', action: entryChangeAction(booked) }]);
}

/** A hold that ended without a booking: an offer's moves on; any other hold's time is freed time. */
async function holdEnded(medspaId: string, holdId: string, cause: 'release' | 'expiry', now: Date) {
  const offer = await getOfferOfHold(medspaId, holdId);
  if (offer) return endOffer(offer, now);
  const hold = await getHold(medspaId, holdId);
  return hold ? offerFreedTime(freedByHold(hold, cause), now) : null;
}

/** One stream record: freed time offered, a new hold's expiry armed. Idempotent: a redelivery finds what it did. */
export async function handleWaitlistRecord(record: StreamRecord, now: Date = clock().now()): Promise<void> {
  const change = decodeStreamRecord(record, WAITLIST_STREAM_KINDS);
  if (!change) return;
  try {
    if (change.kind === 'APPOINTMENT') {
      const freed = freedByAppointment(change.before, change.after);
      if (freed) await offerFreedTime(freed, now);
      return;
    }
    const { before, after } = change;
    if (change.change === 'INSERT' && after?.status === 'active') {
      await putWaitlistDue({
        medspa_id: after.medspa_id,
        kind: 'hold',
        id: after.id,
        due_minute: utcMinuteOf(after.expires_at),
      });
      return;
    }
    if (before?.status === 'active' && after?.status === 'released') {
      await holdEnded(after.medspa_id, after.id, 'release', now);
    }
    if (before?.status === 'active' && after?.status === 'confirmed' && after.appointment_id) {
      await offerConfirmedElsewhere(after.medspa_id, after.id, after.appointment_id, now);
    }
  } catch (error) {
    logger.warn('waitlist stream record failed', { ...recordIds(record), error: (error as Error).name });
    throw error;
  }
}

/** A batch of one shard's records, in order; the answer names the failed ones (partial batch response). */
export function processWaitlistRecords(
  records: StreamRecord[],
  options: { now?: () => Date } = {},
): Promise<DynamoDBBatchResponse> {
  const processor = new BatchProcessor(EventType.DynamoDBStreams);
  return processPartialResponse(
    { Records: records as DynamoDBRecord[] },
    (record: DynamoDBRecord) => handleWaitlistRecord(record as StreamRecord, options.now?.() ?? clock().now()),
    processor,
    { processInParallel: false, throwOnFullBatchFailure: false },
  );
}

/** One due item at `now`: true when it is done with (the item goes), false when not due yet. */
async function sweepDue(due: WaitlistDueRecord, now: Date): Promise<boolean> {
  if (due.kind === 'hold') {
    const hold = await getHold(due.medspa_id, due.id);
    if (!hold) return true;
    const status = holdStatus(hold, now.getTime());
    if (status === 'active') return false;
    if (status === 'expired') await holdEnded(due.medspa_id, due.id, 'expiry', now);
    return true;
  }
  const entry = await getWaitlistEntry(due.medspa_id, due.id);
  if (entry?.status !== 'waiting') return true;
  if (entryStatus(entry, now.getTime()) !== 'expired') return false;
  // Stored as expired, so `?status=` lists it so too (its read already answers expired).
  await transact([
    {
      name: 'entry',
      action: entryChangeAction({
        ...entry,
        status: 'expired',
        version: entry.version + 1,
        updated_at: now.toISOString(),
      }),
    },
  ]);
  return true;
}

export interface WaitlistSweepResult {
  from: string | null;
  through: string | null;
  done: number;
}

/**
 * The waitlist sweep at `now` (every minute; idempotent): every hold and entry armed to expire in
 * the minutes since the checkpoint (less a look-back) through now's. An expired offer's time moves
 * on, a plain hold's expired time is offered, an expired entry is stored as such. Items not due yet
 * (later in now's minute) stay for the next run; a failure leaves the checkpoint where it was.
 */
export async function sweepWaitlist(now: Date): Promise<WaitlistSweepResult> {
  const window = sweepWindow(await readWaitlistSweepCheckpoint(), now, {
    lookbackMinutes: 2,
    firstRunMinutes: 60,
    maxMinutes: 120,
  });
  if (!window) return { from: null, through: null, done: 0 };
  const dues = await readMinutePartitions(window.from, window.through, waitlistDueIn);
  let done = 0;
  // One at a time: each may place holds, and two of one freed time would only race each other.
  for (const due of dues) {
    if (await sweepDue(due, now)) {
      await deleteWaitlistDue(due);
      done += 1;
    }
  }
  await advanceWaitlistSweepCheckpoint(window.through, now.toISOString());
  return { ...window, done };
}
