import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { readEntities } from '../db/booking-reads';
import { clientIsLive } from '../db/client-stats';
import type { RequestWrites } from '../db/request-writes';
import { transact } from '../db/transact';
import {
  entryChangeAction,
  freedChangeAction,
  getFreed,
  getWaitlistEntry,
  listWaitlistEntries,
  newEntryAction,
  waitlistInUseAction,
  waitlistDueAction,
} from '../db/waitlist';
import type { WaitlistEntryRecord } from '../domain/records';
import { utcMinuteOf } from '../domain/reminders';
import { entryChanged, freedReleased, presentEntry } from '../domain/waitlist';
import { AppError, fieldError } from '../errors';
import type { Appointment } from '../schemas/appointments';
import type { CreateWaitlistEntryInput, ListWaitlistQuery, WaitlistEntry } from '../schemas/waitlist';
import { staffClientWrites } from './booking';
import { bookHold, releaseHold } from './holds';
import { toListResult, type ListResult } from './list-result';

/**
 * Waitlist entries (API reference, waitlist; docs/decisions/0032): made, listed, read, cancelled,
 * and an offer accepted (booked through its hold, the hold path's own write) or declined (its hold
 * released with the entry back to waiting in one write; the stream then moves the freed time on).
 * Offers themselves come from freed time only (lib/use-cases/waitlist-offers.ts).
 */

const iso = (value: string) => new Date(value).toISOString();

/** POST /v1/waitlist: checked in create's order (client, service, providers, certification); makes no offer. */
export async function createWaitlistEntry(
  medspaId: string,
  input: CreateWaitlistEntryInput,
  now: Date,
  writes?: RequestWrites,
): Promise<WaitlistEntry> {
  input.windows.forEach((window, index) => {
    if (Date.parse(window.end) <= Date.parse(window.start))
      throw fieldError(`windows.${index}.end`, 'must be after start');
  });
  if (input.expires_at !== undefined && Date.parse(input.expires_at) <= now.getTime())
    throw fieldError('expires_at', 'must be in the future');
  const providerIds = input.provider_ids ? [...new Set(input.provider_ids)] : null;
  const reads = await readEntities(medspaId, [
    { type: 'CLIENT', id: input.client_id },
    { type: 'SERVICE', id: input.service_id },
    ...(providerIds ?? []).map((id) => ({ type: 'PROVIDER' as const, id })),
  ]);
  if (!reads.entity('CLIENT', input.client_id)) throw new AppError('CLIENT_NOT_FOUND');
  const service = reads.entity('SERVICE', input.service_id);
  if (!service) throw new AppError('SERVICE_NOT_FOUND');
  for (const id of providerIds ?? []) if (!reads.entity('PROVIDER', id)) throw new AppError('PROVIDER_NOT_FOUND');
  for (const id of providerIds ?? [])
    if (!service.provider_ids.includes(id)) throw new AppError('PROVIDER_NOT_CERTIFIED');
  const at = now.toISOString();
  const entry: WaitlistEntryRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    client_id: input.client_id,
    service_id: input.service_id,
    provider_ids: providerIds,
    windows: input.windows.map((window) => ({ start: iso(window.start), end: iso(window.end) })),
    expires_at: input.expires_at === undefined ? null : iso(input.expires_at),
    status: 'waiting',
    offer: null,
    appointment_id: null,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  const outcome = await transact(
    [
      { name: 'entry', action: newEntryAction(entry) },
      // From now on the waitlist worker looks for entries when time is freed (lib/db/keys.ts waitlistInUseKey).
      { name: 'inUse', action: waitlistInUseAction(medspaId, at) },
      // A client erased meanwhile gets no entry.
      { name: 'client', action: clientIsLive(medspaId, entry.client_id) },
      // The sweep stores it as expired within a minute of `expires_at` (reads say so at once).
      ...(entry.expires_at
        ? [
            {
              name: 'due',
              action: waitlistDueAction({
                medspa_id: medspaId,
                kind: 'entry',
                id: entry.id,
                due_minute: utcMinuteOf(entry.expires_at),
              }),
            },
          ]
        : []),
    ],
    writes,
  );
  if (!outcome.ok) throw new AppError('CLIENT_NOT_FOUND');
  return presentEntry(entry, now);
}

/** The entry, or 404. */
async function readEntry(medspaId: string, id: string): Promise<WaitlistEntryRecord> {
  const entry = await getWaitlistEntry(medspaId, id);
  if (!entry) throw new AppError('WAITLIST_ENTRY_NOT_FOUND');
  return entry;
}

export const showWaitlistEntry = async (medspaId: string, id: string, now: Date) =>
  presentEntry(await readEntry(medspaId, id), now);

/**
 * GET /v1/waitlist: one Query (the service's entries on gsi1, oldest first; else the practice's
 * collection by id). `status` filters on the stored status, which the sweep moves to `expired`
 * within a minute of `expires_at`.
 */
export async function listWaitlist(
  medspaId: string,
  query: ListWaitlistQuery,
  now: Date,
): Promise<ListResult<WaitlistEntry>> {
  const page = await listWaitlistEntries(
    medspaId,
    { serviceId: query.service_id, status: query.status },
    pageRequest(medspaId, 'waitlist', query),
  );
  return toListResult({ ...page, items: page.items.map((entry) => presentEntry(entry, now)) });
}

/**
 * The writes that end an entry's offer with its hold's release (decline, delete): the entry as
 * `to` makes it, on the version read, and its freed time offered to nobody (the stream then
 * offers it on, never to this entry again). Read afresh on each try of the release.
 */
const endingOffer =
  (medspaId: string, entryId: string, holdId: string, to: (entry: WaitlistEntryRecord) => WaitlistEntryRecord) =>
  async () => {
    const entry = await readEntry(medspaId, entryId);
    if (entry.status !== 'offered' || entry.offer?.hold_id !== holdId) throw new AppError('NO_ACTIVE_OFFER');
    const freed = await getFreed(medspaId, entry.offer.freed_id);
    const next = to(entry);
    return [
      entryChangeAction(next),
      ...(freed && freed.offered_to === entry.id ? [freedChangeAction(freedReleased(freed, next.updated_at))] : []),
    ];
  };

/** POST /v1/waitlist/{id}/decline: the hold released and the entry waiting again, in one write. */
export async function declineOffer(
  medspaId: string,
  id: string,
  now: Date,
  writes?: RequestWrites,
): Promise<WaitlistEntry> {
  const entry = await readEntry(medspaId, id);
  if (entry.status !== 'offered' || !entry.offer) throw new AppError('NO_ACTIVE_OFFER');
  await releaseOfferHold(
    medspaId,
    entry,
    (current) => entryChanged(current, { status: 'waiting', offer: null }, now.toISOString()),
    now,
    writes,
  );
  return presentEntry(await readEntry(medspaId, id), now);
}

async function releaseOfferHold(
  medspaId: string,
  entry: WaitlistEntryRecord,
  to: (entry: WaitlistEntryRecord) => WaitlistEntryRecord,
  now: Date,
  writes?: RequestWrites,
) {
  const holdId = entry.offer!.hold_id;
  try {
    await releaseHold(medspaId, holdId, { now, writes, alongside: endingOffer(medspaId, entry.id, holdId, to) });
  } catch (error) {
    throw asOfferError(error);
  }
}

/**
 * A refusal of the offer's hold as the offer's: expired is OFFER_EXPIRED; confirmed (accepted) or
 * released by another meanwhile, or gone, is NO_ACTIVE_OFFER.
 */
function asOfferError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.code === 'HOLD_EXPIRED') return new AppError('OFFER_EXPIRED');
  if (error.code === 'HOLD_NOT_ACTIVE' || error.code === 'HOLD_NOT_FOUND') return new AppError('NO_ACTIVE_OFFER');
  return error;
}

/** DELETE /v1/waitlist/{id}: the entry cancelled (an offer's hold released with it); a booked one stays booked (409). */
export async function cancelWaitlistEntry(
  medspaId: string,
  id: string,
  options: { ifMatch?: number; now: Date; writes?: RequestWrites },
): Promise<{ id: string; deleted: true }> {
  const entry = await readEntry(medspaId, id);
  if (options.ifMatch !== undefined && options.ifMatch !== entry.version) throw new AppError('VERSION_CONFLICT');
  if (entry.status === 'booked') throw new AppError('CONFLICT', 'The entry was booked: cancel its appointment instead');
  if (entry.status === 'cancelled') return { id, deleted: true };
  const cancel = (current: WaitlistEntryRecord) =>
    entryChanged(current, { status: 'cancelled' }, options.now.toISOString());
  if (entry.status === 'offered' && entry.offer) {
    await releaseOfferHold(medspaId, entry, cancel, options.now, options.writes);
  } else {
    const outcome = await transact([{ name: 'entry', action: entryChangeAction(cancel(entry)) }], options.writes);
    if (!outcome.ok) throw new AppError('VERSION_CONFLICT');
  }
  return { id, deleted: true };
}

/**
 * POST /v1/waitlist/{id}/accept: books the offered time through its hold (the hold confirm's own
 * write: the appointment with `waitlist_entry_id`, the hold confirmed, the entry `booked` on the
 * version read). 409 OFFER_EXPIRED once the hold expired, NO_ACTIVE_OFFER without an offer.
 */
export async function acceptOffer(
  medspaId: string,
  id: string,
  now: Date,
  writes?: RequestWrites,
): Promise<Appointment> {
  const entry = await readEntry(medspaId, id);
  if (entry.status !== 'offered' || !entry.offer) throw new AppError('NO_ACTIVE_OFFER');
  const holdId = entry.offer.hold_id;
  try {
    const { appointment } = await bookHold(
      medspaId,
      holdId,
      async () => {
        const current = await readEntry(medspaId, id);
        if (current.status !== 'offered' || current.offer?.hold_id !== holdId) throw new AppError('NO_ACTIVE_OFFER');
        return {
          clients: [current.client_id],
          decide: (reads) => {
            if (!reads.entity('CLIENT', current.client_id)) throw new AppError('CLIENT_NOT_FOUND');
            return {
              clientId: current.client_id,
              writes: (placed) => [
                ...staffClientWrites(medspaId, placed),
                entryChangeAction(
                  entryChanged(current, { status: 'booked', appointment_id: placed.id }, now.toISOString()),
                ),
              ],
            };
          },
          fields: { source: 'manual', waitlist_entry_id: id },
        };
      },
      now,
      writes,
    );
    return appointment;
  } catch (error) {
    throw asOfferError(error);
  }
}
