import { bucketIdsForRange, busyFromBuckets } from '../domain/claims';
import type { Busy } from '../domain/availability';
import { claimBucketKey, toClaimBucket, type ClaimBucket } from '../db/appointments';
import { batchGetKeys, fromItem, itemId } from '../db/entities';
import { entityKey, practiceKey, type ClaimedResource, type EntityType, type Key } from '../db/keys';
import type { Practice } from '../schemas/practice';
import type { ProviderRecord, ServiceRecord } from '../schemas/resources';

/** The stored setup resources booking reads (the resources module writes them). */
export type { ProviderRecord, ServiceRecord };

export interface ClaimRange {
  resource: ClaimedResource;
  resourceId: string;
  start: string;
  end: string;
}

/** Everything one booking decision reads, fetched in one batched read (BatchGetItem per 100 keys). */
export interface BookingReads {
  practice: Practice | null;
  entity<T>(type: EntityType, id: string | null | undefined): T | null;
  /** The buckets read for a resource, existing or not. */
  buckets(resource: ClaimedResource, resourceId: string): ClaimBucket[];
  busy(resource: ClaimedResource, resourceId: string): Busy[];
}

/** Soft-deleted setup resources (deleted_at) count as absent. */
const live = <T>(item: Record<string, unknown> | undefined): T | null => (item && !item.deleted_at ? fromItem<T>(item) : null);

export async function readForBooking(
  medspaId: string,
  entities: { type: EntityType; id: string | null | undefined }[],
  ranges: ClaimRange[],
): Promise<BookingReads> {
  const entityRefs = entities.filter((ref): ref is { type: EntityType; id: string } => Boolean(ref.id));
  const bucketPlan = ranges.map((range) => ({ ...range, hours: bucketIdsForRange(range.start, range.end) }));
  const keys: Key[] = [
    practiceKey(medspaId),
    ...entityRefs.map((ref) => entityKey(medspaId, ref.type, ref.id)),
    ...bucketPlan.flatMap((plan) => plan.hours.map((hour) => claimBucketKey(medspaId, { ...plan, hour }))),
  ];
  const found = await batchGetKeys(keys);
  const bucketsOf = new Map<string, ClaimBucket[]>();
  for (const plan of bucketPlan) {
    const list = bucketsOf.get(`${plan.resource}#${plan.resourceId}`) ?? [];
    for (const hour of plan.hours) {
      if (list.some((bucket) => bucket.hour === hour)) continue;
      list.push(toClaimBucket(plan.resource, plan.resourceId, hour, found.get(itemId(claimBucketKey(medspaId, { ...plan, hour })))));
    }
    bucketsOf.set(`${plan.resource}#${plan.resourceId}`, list);
  }
  const buckets = (resource: ClaimedResource, resourceId: string) => bucketsOf.get(`${resource}#${resourceId}`) ?? [];
  return {
    practice: fromItem<Practice>(found.get(itemId(practiceKey(medspaId)))),
    entity: <T>(type: EntityType, id: string | null | undefined) => (id ? live<T>(found.get(itemId(entityKey(medspaId, type, id)))) : null),
    buckets,
    busy: (resource, resourceId) => busyFromBuckets(buckets(resource, resourceId).map((bucket) => bucket.entries)),
  };
}
