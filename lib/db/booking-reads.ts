import type { Busy } from '../domain/availability';
import { bucketIdsForRange, busyFromBuckets } from '../domain/claims';
import type { PracticeRecord, ProviderRecord, ServiceRecord } from '../domain/records';
import { claimBucketKey, toClaimBucket, type ClaimBucket } from './appointments';
import { entitiesOf, type CollectionType, type RecordOf } from './batch';
import { practiceCodec } from './codecs';
import { itemId, readItems } from './key-reads';
import { entityKey, onlineLedgerKey, practiceKey, type ClaimedResource, type Key } from './keys';
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
}

/** Everything one booking decision reads, fetched in one batched read (BatchGetItem per 100 keys). */
export interface BookingReads extends EntityReads, ClaimReads {
  practice: PracticeRecord | null;
  /** The client an email read with them (`online.emails`) books as, or null. */
  emailOwner(email: string): string | null;
  /** A client's ledger read with them (`online.ledgersOf`); one never written is empty. */
  ledger(clientId: string): OnlineLedger;
}

type Found = Map<string, Record<string, unknown>>;

const entityKeys = (medspaId: string, entities: EntityRef[]): Key[] =>
  entities
    .filter((ref): ref is { type: CollectionType; id: string } => Boolean(ref.id))
    .map((ref) => entityKey(medspaId, ref.type, ref.id));

type PlannedBucket = Pick<ClaimBucket, 'resource' | 'resourceId' | 'hour'> & { key: Key };

/** Every bucket the plans name, with its key made once: the read asks for it, the answer is found by it. */
const plannedBuckets = (medspaId: string, plans: BucketPlan[]): PlannedBucket[] =>
  plans.flatMap(({ resource, resourceId, hours }) =>
    hours.map((hour) => ({
      resource,
      resourceId,
      hour,
      key: claimBucketKey(medspaId, { resource, resourceId, hour }),
    })),
  );

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

function claimReads(planned: PlannedBucket[], found: Found): ClaimReads {
  const bucketsOf = new Map<string, Map<string, ClaimBucket>>();
  for (const { resource, resourceId, hour, key } of planned) {
    const id = `${resource}#${resourceId}`;
    let byHour = bucketsOf.get(id);
    if (!byHour) bucketsOf.set(id, (byHour = new Map<string, ClaimBucket>()));
    if (!byHour.has(hour)) byHour.set(hour, toClaimBucket(resource, resourceId, hour, found.get(itemId(key))));
  }
  const buckets = (resource: ClaimedResource, resourceId: string) => [
    ...(bucketsOf.get(`${resource}#${resourceId}`)?.values() ?? []),
  ];
  return {
    buckets,
    busy: (resource, resourceId) => busyFromBuckets(buckets(resource, resourceId).map((bucket) => bucket.entries)),
  };
}

export async function readForBooking(
  medspaId: string,
  entities: EntityRef[],
  ranges: ClaimRange[],
  online: OnlineReads = {},
): Promise<BookingReads> {
  const planned = plannedBuckets(
    medspaId,
    ranges.map((range) => ({ ...range, hours: bucketIdsForRange(range.start, range.end) })),
  );
  const onlineKeys = [
    ...(online.emails ?? []).map((email) => onlineEmailKeyOf(medspaId, email)),
    ...(online.ledgersOf ?? []).map((id) => onlineLedgerKey(medspaId, id)),
  ];
  const found = await readItems([
    practiceKey(medspaId),
    ...entityKeys(medspaId, entities),
    ...planned.map((bucket) => bucket.key),
    ...onlineKeys,
  ]);
  return {
    practice: practiceCodec.fromItem(found.get(itemId(practiceKey(medspaId)))),
    emailOwner: (email) => emailOwnerOf(found.get(itemId(onlineEmailKeyOf(medspaId, email)))),
    ledger: (clientId) => ledgerOf(found.get(itemId(onlineLedgerKey(medspaId, clientId)))),
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
