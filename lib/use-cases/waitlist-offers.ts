import { clock } from '../clock';
import { getPractice } from '../db/practices';
import { readEntities } from '../db/booking-reads';
import { getLiveEntities, servicesCertifying } from '../db/resources';
import {
  entryChangeAction,
  freedChangeAction,
  getFreed,
  getWaitlistEntry,
  newOfferAction,
  oldestWaiting,
  putFreedOnce,
  waitlistInUse,
} from '../db/waitlist';
import type { TransactItem } from '../db/transact';
import { clientContact } from '../domain/presenters';
import type { HoldRecord, WaitlistEntryRecord, WaitlistFreedRecord } from '../domain/records';
import {
  DEFAULT_WAITLIST_OFFER_MINUTES,
  entryChanged,
  fittingEntries,
  MAX_OFFER_TRIES,
  WAITING_ENTRIES_READ,
  type FreedSpan,
} from '../domain/waitlist';
import { AppError } from '../errors';
import { placeHold } from './holds';

/**
 * Offers of freed time (API reference, waitlist; docs/decisions/0032). A freed time is recorded
 * once (its item names its cause, so a redelivered stream record finds it) and offered to the
 * oldest fitting entry: a hold placed by the holds' own placement (so the time must really be
 * bookable now, and double booking stays impossible), in ONE transaction with the entry moved to
 * `offered` (on the version read, while waiting), the freed time naming its entry (on the version
 * read, while offered to none) and the offer item (which the stream turns into
 * `waitlist.offer_created`). So a freed time is offered to one entry at a time, an entry holds one
 * offer, and a lost race decides again on fresh reads.
 */

/** The entry or the freed time changed since they were read: decide again on fresh reads. */
class Raced extends Error {}

/** The outcome of one offer try. */
type Try = 'offered' | 'not-bookable' | 'raced';

/** One offer of `start` to `entry`: the hold and the writes beside it, re-read and checked each try. */
async function tryOffer(
  freedRead: WaitlistFreedRecord,
  entryRead: WaitlistEntryRecord,
  start: string,
  offerMinutes: number,
  now: Date,
): Promise<Try> {
  const medspaId = freedRead.medspa_id;
  const alongside = async (hold: HoldRecord): Promise<TransactItem[]> => {
    const [entry, freed, reads] = await Promise.all([
      getWaitlistEntry(medspaId, entryRead.id),
      getFreed(medspaId, freedRead.id),
      readEntities(medspaId, [{ type: 'CLIENT', id: entryRead.client_id }]),
    ]);
    if (entry?.status !== 'waiting' || entry.version !== entryRead.version) throw new Raced();
    if (!freed || freed.offered_to || freed.offered.includes(entry.id)) throw new Raced();
    const client = reads.entity('CLIENT', entry.client_id);
    // A client erased since it waited: its entry is passed over.
    if (!client) throw new AppError('CLIENT_NOT_FOUND');
    const at = now.toISOString();
    const offered = entryChanged(
      entry,
      {
        status: 'offered',
        offer: {
          hold_id: hold.id,
          scheduled_at: hold.scheduled_at,
          provider_id: hold.provider_id,
          expires_at: hold.expires_at,
          freed_id: freed.id,
        },
      },
      at,
    );
    return [
      entryChangeAction(offered),
      freedChangeAction({
        ...freed,
        offered_to: entry.id,
        offered: [...freed.offered, entry.id],
        version: freed.version + 1,
        updated_at: at,
      }),
      newOfferAction({
        medspa_id: medspaId,
        hold_id: hold.id,
        entry_id: entry.id,
        freed_id: freed.id,
        entry: offered,
        client: clientContact(client),
        created_at: at,
      }),
    ];
  };
  try {
    await placeHold(
      medspaId,
      {
        service_id: entryRead.service_id,
        scheduledAt: start,
        providerIds: [freedRead.provider_id],
        expiresInSeconds: offerMinutes * 60,
        alongside,
      },
      now,
    );
    return 'offered';
  } catch (error) {
    if (error instanceof Raced) return 'raced';
    // Not bookable now (claims, hours, time off, certification, an inactive service or provider, the past).
    if (error instanceof AppError) return 'not-bookable';
    throw error;
  }
}

/** The waiting entries a freed time could go to: the oldest of each service its provider is certified for (one Query each). */
async function candidatesFor(freed: WaitlistFreedRecord, now: Date) {
  const certifying = await servicesCertifying(freed.medspa_id, freed.provider_id);
  const services = await getLiveEntities(
    freed.medspa_id,
    'SERVICE',
    certifying.map((service) => service.id),
  );
  const live = [...services.values()].filter((service) => service.active !== false);
  const durations = new Map(live.map((service) => [service.id, service.duration_minutes]));
  const waiting = (
    await Promise.all(live.map((service) => oldestWaiting(freed.medspa_id, service.id, WAITING_ENTRIES_READ)))
  ).flat();
  return fittingEntries(
    waiting,
    { start: freed.start, end: freed.end, providerId: freed.provider_id },
    { durations, offeredBefore: freed.offered, now: now.getTime() },
  );
}

/**
 * Offers a recorded freed time to the next fitting entry, unless it is offered to one now. Null
 * when nobody takes it (no fitting entry, nothing bookable, or MAX_OFFER_TRIES placements tried).
 */
export async function offerNext(medspaId: string, freedId: string, now: Date): Promise<WaitlistEntryRecord | null> {
  let tries = 0;
  let passedOver = new Set<string>();
  // Read once: a lost race reads the freed time and the entries again, not the practice's setting.
  let minutes: number | undefined;
  while (tries < MAX_OFFER_TRIES) {
    const freed = await getFreed(medspaId, freedId);
    if (!freed || freed.offered_to || Date.parse(freed.end) <= now.getTime()) return null;
    minutes ??= (await getPractice(medspaId))?.waitlist_offer_minutes ?? DEFAULT_WAITLIST_OFFER_MINUTES;
    const fits = (await candidatesFor(freed, now)).filter(({ entry }) => !passedOver.has(entry.id));
    if (fits.length === 0) return null;
    let raced = false;
    for (const { entry, starts } of fits) {
      for (const start of starts) {
        tries += 1;
        const outcome = await tryOffer(freed, entry, start, minutes, now);
        if (outcome === 'offered') return getWaitlistEntry(medspaId, entry.id);
        if (outcome === 'raced') raced = true;
        if (raced || tries >= MAX_OFFER_TRIES) break;
      }
      if (raced || tries >= MAX_OFFER_TRIES) break;
      // None of its times is bookable now: the next entry, without reading again.
      passedOver = new Set([...passedOver, entry.id]);
    }
    if (!raced) return null;
  }
  return null;
}

/**
 * Records a freed time (once) and offers it to the oldest fitting entry. A practice that never had
 * a waitlist entry has nobody to offer it to: one read, nothing written.
 */
export async function offerFreedTime(freed: FreedSpan, now: Date = clock().now()) {
  if (!(await waitlistInUse(freed.medspaId))) return null;
  const at = now.toISOString();
  await putFreedOnce({
    medspa_id: freed.medspaId,
    id: freed.id,
    provider_id: freed.providerId,
    service_id: freed.serviceId,
    start: freed.start,
    end: freed.end,
    offered: [],
    version: 1,
    created_at: at,
    updated_at: at,
  });
  return offerNext(freed.medspaId, freed.id, now);
}
