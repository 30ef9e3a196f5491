import { bucketIdsForRange, busyFromBuckets } from '../domain/claims';
import type { Busy } from '../domain/availability';
import { claimBucketKey, toClaimBucket, type ClaimBucket } from '../db/appointments';
import { practiceCodec } from '../db/codecs';
import { itemId, readItems } from '../db/key-reads';
import { fromItem } from '../db/item';
import { entityKey, practiceKey, type ClaimedResource, type EntityType, type Key } from '../db/keys';
import type { PracticeRecord, ProviderRecord, ServiceRecord } from '../domain/records';

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

/**
 * A create refuses these whatever the time (inactive provider, room or equipment: 409
 * `*_UNAVAILABLE`; inactive service: 400), so slots and searches offer nothing for them.
 */
export const isInactive = (...resources: ({ active?: boolean } | null | undefined)[]) => resources.some((resource) => resource?.active === false);

type EntityRef = { type: EntityType; id: string | null | undefined };

export interface EntityReads {
  entity<T>(type: EntityType, id: string | null | undefined): T | null;
}

export interface ClaimReads {
  /** The buckets read for a resource, existing or not. */
  buckets(resource: ClaimedResource, resourceId: string): ClaimBucket[];
  busy(resource: ClaimedResource, resourceId: string): Busy[];
}

/** Everything one booking decision reads, fetched in one batched read (BatchGetItem per 100 keys). */
export interface BookingReads extends EntityReads, ClaimReads {
  practice: PracticeRecord | null;
  /** Any other item read with them (`extraKeys`), as stored. */
  item(key: Key): Record<string, unknown> | undefined;
}

type Found = Map<string, Record<string, unknown>>;

/** Soft-deleted setup resources (deleted_at) count as absent. */
const live = <T>(item: Record<string, unknown> | undefined): T | null => (item && !item.deleted_at ? fromItem<T>(item) : null);

const entityKeys = (medspaId: string, entities: EntityRef[]): Key[] =>
  entities.filter((ref): ref is { type: EntityType; id: string } => Boolean(ref.id)).map((ref) => entityKey(medspaId, ref.type, ref.id));

type PlannedBucket = Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour'> & { key: Key };

/** Every bucket the plans name, with its key made once: the read asks for it, the answer is found by it. */
const plannedBuckets = (medspaId: string, plans: BucketPlan[]): PlannedBucket[] =>
  plans.flatMap(({ resource, resourceId, hours }) => hours.map((hour) => ({ resource, resourceId, hour, key: claimBucketKey(medspaId, { resource, resourceId, hour }) })));

const entityReads = (medspaId: string, found: Found): EntityReads => ({
  entity: <T>(type: EntityType, id: string | null | undefined) => (id ? live<T>(found.get(itemId(entityKey(medspaId, type, id)))) : null),
});

function claimReads(planned: PlannedBucket[], found: Found): ClaimReads {
  const bucketsOf = new Map<string, Map<string, ClaimBucket>>();
  for (const { resource, resourceId, hour, key } of planned) {
    const id = `${resource}#${resourceId}`;
    let byHour = bucketsOf.get(id);
    if (!byHour) bucketsOf.set(id, (byHour = new Map<string, ClaimBucket>()));
    if (!byHour.has(hour)) byHour.set(hour, toClaimBucket(resource, resourceId, hour, found.get(itemId(key))));
  }
  const buckets = (resource: ClaimedResource, resourceId: string) => [...(bucketsOf.get(`${resource}#${resourceId}`)?.values() ?? [])];
  return {
    buckets,
    busy: (resource, resourceId) => busyFromBuckets(buckets(resource, resourceId).map((bucket) => bucket.entries)),
  };
}

export async function readForBooking(medspaId: string, entities: EntityRef[], ranges: ClaimRange[], extraKeys: Key[] = []): Promise<BookingReads> {
  const planned = plannedBuckets(medspaId, ranges.map((range) => ({ ...range, hours: bucketIdsForRange(range.start, range.end) })));
  const found = await readItems([practiceKey(medspaId), ...entityKeys(medspaId, entities), ...planned.map((bucket) => bucket.key), ...extraKeys]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    item: (key) => found.get(itemId(key)),
    ...entityReads(medspaId, found),
    ...claimReads(planned, found),
  };
}

/** Setup resources only, once the practice is known (one BatchGetItem per 100 keys, in parallel). */
export async function readEntities(medspaId: string, entities: EntityRef[]): Promise<EntityReads> {
  return entityReads(medspaId, await readItems(entityKeys(medspaId, entities)));
}

/** Claim buckets only, hour by hour as planned (one BatchGetItem per 100 keys, in parallel). */
export async function readClaims(medspaId: string, plans: BucketPlan[]): Promise<ClaimReads> {
  const planned = plannedBuckets(medspaId, plans);
  return claimReads(planned, await readItems(planned.map((bucket) => bucket.key)));
}
