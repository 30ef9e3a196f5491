import type { Busy } from '../domain/availability';
import { bucketIdsForRange, busyFromBuckets } from '../domain/claims';
import { isLiveEntry } from '../domain/holds';
import type { ClaimBucketRecord, PracticeRecord, ProviderRecord, ServiceRecord } from '../domain/records';
import { claimBucketOf, type ClaimBucket } from './appointments';
import { entitiesOf, type CollectionType, type RecordOf } from './batch';
import { claimBucketCodec, practiceCodec, seriesCodec } from './codecs';
import { itemId, readItems, type ReadOptions } from './key-reads';
import {
  claimPk,
  contactConsentStateKey,
  entityKey,
  onlineLedgerKey,
  practiceKey,
  seriesKey,
  type ClaimedResource,
  type Key,
} from './keys';
import type { ConsentState } from '../domain/contact-consent';
import { stateOf } from './contact-consents';
import { queryAll } from './query';
import { clock } from '../clock';
import { emailOwnerOf, ledgerOf, onlineEmailKeyOf, type OnlineLedger } from './online-clients';

/** The stored setup resources booking reads (the resources module writes them). */
export type { ProviderRecord, ServiceRecord };

export interface ClaimRange {
  resource: ClaimedResource;
  resourceId: string;
  start: string;
  end: string;
}

/** The hour buckets ('YYYY-MM-DDTHH', UTC) to read for one provider, room or equipment. */
export interface BucketPlan {
  resource: ClaimedResource;
  resourceId: string;
  hours: string[];
}

export type EntityRef = { type: CollectionType; id: string | null | undefined };

export interface EntityReads {
  /** The live entity (soft-deleted ones count as absent), decoded by its kind's codec. */
  entity<K extends CollectionType>(type: K, id: string | null | undefined): RecordOf<K> | null;
}

export interface ClaimReads {
  /** The buckets read for a resource, existing or not. */
  buckets(resource: ClaimedResource, resourceId: string): ClaimBucket[];
  busy(resource: ClaimedResource, resourceId: string): Busy[];
}

/** What online booking reads with a booking: the client an email books as, and clients' ledgers (lib/db/online-clients.ts). */
export interface OnlineReads {
  emails?: readonly string[];
  ledgersOf?: readonly string[];
  /** Clients whose contact consent state a public booking's grants decide on (section 14). */
  consentStatesOf?: readonly string[];
}

/** Everything one booking decision reads, fetched in one batched read (BatchGetItem per 100 keys). */
export interface BookingReads extends EntityReads, ClaimReads {
  practice: PracticeRecord | null;
  /** The client an email read with them (`online.emails`) books as, or null. */
  emailOwner(email: string): string | null;
  /** A client's ledger read with them (`online.ledgersOf`); one never written is empty. */
  ledger(clientId: string): OnlineLedger;
  /** A client's contact consent state read with them (`online.consentStatesOf`); none recorded is version 0. */
  consentState(clientId: string): ConsentState;
}

type Found = Map<string, Record<string, unknown>>;

const entityKeys = (medspaId: string, entities: EntityRef[]): Key[] =>
  entities
    .filter((ref): ref is { type: CollectionType; id: string } => Boolean(ref.id))
    .map((ref) => entityKey(medspaId, ref.type, ref.id));

type PlannedBucket = Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour'>;

/** Every bucket the plans name. */
const plannedBuckets = (plans: BucketPlan[]): PlannedBucket[] =>
  plans.flatMap(({ resource, resourceId, hours }) => hours.map((hour) => ({ resource, resourceId, hour })));

/** Soft-deleted setup resources (deleted_at) count as absent. */
function entityReads(medspaId: string, found: Found): EntityReads {
  const entities = entitiesOf(medspaId, found);
  return {
    entity: <K extends CollectionType>(type: K, id: string | null | undefined) => {
      const record = id ? entities.get(type, id) : null;
      return record && !(record as { deleted_at?: string }).deleted_at ? record : null;
    },
  };
}

/** The buckets as planned, each found by `bucketAt` (a bucket never written is empty, version null). */
function claimReads(planned: PlannedBucket[], bucketAt: (bucket: PlannedBucket) => ClaimBucket): ClaimReads {
  const bucketsOf = new Map<string, Map<string, ClaimBucket>>();
  for (const bucket of planned) {
    const id = `${bucket.resource}#${bucket.resourceId}`;
    let byHour = bucketsOf.get(id);
    if (!byHour) bucketsOf.set(id, (byHour = new Map<string, ClaimBucket>()));
    if (!byHour.has(bucket.hour)) byHour.set(bucket.hour, bucketAt(bucket));
  }
  const buckets = (resource: ClaimedResource, resourceId: string) => [
    ...(bucketsOf.get(`${resource}#${resourceId}`)?.values() ?? []),
  ];
  return {
    buckets,
    // Read when the buckets are: a hold past its expiry holds nothing from then on (lib/domain/holds.ts).
    busy: (resource, resourceId) =>
      busyFromBuckets(
        buckets(resource, resourceId).map((bucket) => bucket.entries),
        clock().now().getTime(),
      ),
  };
}

/** Claim buckets as read; `committed`: series whose claims hold for good. */
const claimsFound = (
  planned: PlannedBucket[],
  bucketAt: (bucket: PlannedBucket) => ClaimBucket,
  committed: ReadonlySet<string> = new Set(),
): ClaimReads =>
  claimReads(planned, (plannedBucket) => {
    const bucket = bucketAt(plannedBucket);
    if (committed.size === 0) return bucket;
    // Only a committed series' claims become permanent; every other entry (a hold's) keeps its expiry.
    const entries = bucket.entries.map((entry) => {
      if (!(entry.series_id && committed.has(entry.series_id))) return entry;
      const { series_id: _series, expires_at: _expires, ...permanent } = entry;
      return permanent;
    });
    return { ...bucket, entries };
  });

/**
 * The series of expired pending claims among the buckets read that did commit (docs/decisions/0025):
 * their claims are their appointments' and hold for good, though the request that made them died
 * before it marked them so. Read strongly, and only when such a claim is found (none: no round trip).
 */
async function committedSeriesOf(
  medspaId: string,
  planned: PlannedBucket[],
  bucketAt: (bucket: PlannedBucket) => ClaimBucket,
): Promise<Set<string>> {
  const now = clock().now().getTime();
  const ids = new Set<string>();
  for (const bucket of planned)
    for (const entry of bucketAt(bucket).entries)
      if (entry.series_id && !isLiveEntry(entry, now)) ids.add(entry.series_id);
  if (ids.size === 0) return ids;
  const series = await readItems([...ids].map((id) => seriesKey(medspaId, id)));
  return new Set(
    [...ids].filter((id) => seriesCodec.fromItem(series.get(itemId(seriesKey(medspaId, id))))?.status === 'committed'),
  );
}

export async function readForBooking(
  medspaId: string,
  entities: EntityRef[],
  ranges: ClaimRange[],
  online: OnlineReads = {},
): Promise<BookingReads> {
  const planned = plannedBuckets(
    ranges.map((range) => ({ ...range, hours: bucketIdsForRange(range.start, range.end) })),
  );
  const onlineKeys = [
    ...(online.emails ?? []).map((email) => onlineEmailKeyOf(medspaId, email)),
    ...(online.ledgersOf ?? []).map((id) => onlineLedgerKey(medspaId, id)),
    ...(online.consentStatesOf ?? []).map((id) => contactConsentStateKey(medspaId, id)),
  ];
  // The claims strongly, one Query per resource over its hours, beside the batched read.
  const [found, bucketAt] = await Promise.all([
    readItems([practiceKey(medspaId), ...entityKeys(medspaId, entities), ...onlineKeys]),
    readBuckets(medspaId, planned, { consistent: true }),
  ]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    emailOwner: (email) => emailOwnerOf(found.get(itemId(onlineEmailKeyOf(medspaId, email)))),
    ledger: (clientId) => ledgerOf(found.get(itemId(onlineLedgerKey(medspaId, clientId)))),
    consentState: (clientId) => stateOf(found.get(itemId(contactConsentStateKey(medspaId, clientId)))),
    ...entityReads(medspaId, found),
    ...claimsFound(planned, bucketAt, await committedSeriesOf(medspaId, planned, bucketAt)),
  };
}

/** Setup resources only, once the practice is known (one BatchGetItem per 100 keys, in parallel). */
export async function readEntities(
  medspaId: string,
  entities: EntityRef[],
  options: ReadOptions = {},
): Promise<EntityReads> {
  return entityReads(medspaId, await readItems(entityKeys(medspaId, entities), options));
}

/**
 * The planned buckets, read with ONE Query per resource, a `between` on the hour sort key from its
 * first planned hour to its last (hours between that were not planned are read but left out, so
 * the answer is the one the planned keys give). It costs what the buckets that exist weigh, at
 * least half a read unit per resource (one strong unit), however many hours the range spans; a
 * read of every hour's key cost a unit per hour, existing or not (a booking's: 4 hours either side
 * for buffers, most of them never written). A bucket never written is empty, version null.
 */
async function readBuckets(
  medspaId: string,
  planned: PlannedBucket[],
  options: { consistent: boolean },
): Promise<(bucket: PlannedBucket) => ClaimBucket> {
  const hoursOf = new Map<string, { resource: ClaimedResource; resourceId: string; hours: string[] }>();
  for (const { resource, resourceId, hour } of planned) {
    const id = `${resource}#${resourceId}`;
    const plan = hoursOf.get(id) ?? { resource, resourceId, hours: [] };
    plan.hours.push(hour);
    hoursOf.set(id, plan);
  }
  const stored = new Map<string, ClaimBucketRecord>();
  await Promise.all(
    [...hoursOf.entries()].map(async ([id, { resource, resourceId, hours }]) => {
      const sorted = [...hours].sort();
      const records = await queryAll(claimBucketCodec, {
        partition: claimPk(medspaId, resource, resourceId),
        sort: { op: 'between', from: sorted[0]!, to: sorted[sorted.length - 1]! },
        consistent: options.consistent,
      });
      for (const record of records) stored.set(`${id}#${record.hour}`, record);
    }),
  );
  return ({ resource, resourceId, hour }) =>
    claimBucketOf(resource, resourceId, hour, stored.get(`${resource}#${resourceId}#${hour}`) ?? null);
}

/**
 * Claim buckets for an answer that only shows free time (slots, availability, a search), read
 * eventually consistently (readBuckets): a booking committed within about a second may not show
 * yet. No guarantee rests on it: a booking reads its buckets strongly and conditions its
 * transaction on their versions (docs/decisions/0001), so a slot shown stale is refused there.
 */
export async function queryClaims(medspaId: string, plans: BucketPlan[]): Promise<ClaimReads> {
  const planned = plannedBuckets(plans);
  return claimReads(planned, await readBuckets(medspaId, planned, { consistent: false }));
}

/** What an answer showing free time reads: the practice, setup resources and claim buckets. */
export interface SearchReads extends EntityReads, ClaimReads {
  practice: PracticeRecord | null;
}

/**
 * The practice and setup resources (one eventually consistent BatchGetItem) and each range's claim
 * buckets (`queryClaims`), all in parallel: for slots, availability and a search's setup, answers
 * that show free time and write nothing. Eventually consistent throughout, half the read units:
 * a change of the last second (a renamed or deactivated provider, a deleted service, new working
 * hours, a new time zone, online booking switched off) may not show yet. No guarantee rests on
 * them: a create or move reads the same items strongly (`readForBooking`) and its transaction
 * conditions on what it read, so a slot offered stale is refused there, never double-booked.
 */
export async function readForSearch(
  medspaId: string,
  entities: EntityRef[],
  ranges: ClaimRange[] = [],
): Promise<SearchReads> {
  const [found, claims] = await Promise.all([
    readItems([practiceKey(medspaId), ...entityKeys(medspaId, entities)], { consistent: false }),
    // No range, no Query.
    queryClaims(
      medspaId,
      ranges.map((range) => ({ ...range, hours: bucketIdsForRange(range.start, range.end) })),
    ),
  ]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    ...entityReads(medspaId, found),
    ...claims,
  };
}
