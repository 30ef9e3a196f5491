import type { PageRequest } from '../crypto/cursor';
import { isEntityId } from '../domain/ids';
import type { ServiceRecord } from '../domain/records';
import { batchGetEntities, COLLECTIONS, getEntity, type CollectionType, type RecordOf } from './batch';
import { tableName } from './client';
import { providerDeletionStateCodec, serviceCertificationsCodec, serviceCodec } from './codecs';
import { DataFailure } from './failure';
import { readItem } from './key-reads';
import { collectionPk, entityKey } from './keys';
import { putNew } from './put-new';
import { absent, allOf, contains, listEntities, queryAll, where, type Filter, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction, type TransactItem } from './transact';
import {
  updateEntity,
  versionedFailure,
  versionedUpdate,
  type UpdateOptions,
  type UpdateOutcome,
  type VersionedFailure,
} from './update';

/**
 * Soft-deletable entities (providers, rooms, equipment, clients; services are never deleted).
 * A deleted item keeps its key (appointments still refer to it) with `deleted_at` set, and is
 * hidden everywhere: reads answer null, updates fail as `absent`, lists skip it.
 */

/** Ids that cannot exist are not looked up. */
export { isEntityId };

const NOT_DELETED = 'attribute_not_exists(deleted_at)';

/** A provider's count of certifications written: a deletion commits only if none came in since it looked (lib/db/stored.ts `storedProviderDeletionState`). */
const CERTIFICATION_SEQ = 'certification_seq';

type MaybeDeleted = { deleted_at?: string | null };
const isLive = <T extends object>(record: T | null): record is T =>
  record !== null && !('deleted_at' in record && record.deleted_at);

/** The entity unless absent, deleted or not a well-formed id. */
export async function getLiveEntity<K extends CollectionType>(
  medspaId: string,
  type: K,
  id: string,
): Promise<RecordOf<K> | null> {
  if (!isEntityId(id)) return null;
  const item = await getEntity(COLLECTIONS[type], medspaId, id);
  return isLive(item) ? item : null;
}

/** Several live entities of one type in one round trip, by id (missing, deleted and malformed ids are absent). */
export async function getLiveEntities<K extends CollectionType>(
  medspaId: string,
  type: K,
  ids: readonly string[],
): Promise<Map<string, RecordOf<K>>> {
  const wanted = [...new Set(ids)].filter(isEntityId);
  const found = await batchGetEntities(
    medspaId,
    wanted.map((id) => ({ type, id })),
  );
  const live = new Map<string, RecordOf<K>>();
  for (const id of wanted) {
    const item = found.get(type, id);
    if (isLive(item)) live.set(id, item);
  }
  return live;
}

/** A versioned update of a live entity: absent, deleted or malformed is `absent`, a stale If-Match `version`. */
export async function updateLiveEntity<K extends CollectionType>(
  medspaId: string,
  type: K,
  id: string,
  changes: Record<string, unknown>,
  options: Omit<UpdateOptions, 'condition'>,
): Promise<UpdateOutcome<RecordOf<K>>> {
  if (!isEntityId(id)) return { ok: false, failed: 'absent' };
  return updateEntity(COLLECTIONS[type], medspaId, id, changes, {
    ...options,
    condition: NOT_DELETED,
  });
}

/** A page of live entities (Query on the collection, never a Scan); `filter` narrows further. */
export const listLiveEntities = <K extends CollectionType>(
  medspaId: string,
  type: K,
  page: PageRequest,
  filter?: Filter,
): Promise<Page<RecordOf<K>>> =>
  listEntities(COLLECTIONS[type], medspaId, page, allOf(where<MaybeDeleted>({ deleted_at: absent() }), filter));

/** The soft-deletable (or, for services, deactivatable) resource types. */
export type ResourceType = Extract<CollectionType, 'PROVIDER' | 'ROOM' | 'EQUIPMENT' | 'SERVICE' | 'CLIENT'>;

/** A new resource (its id must be new, else a DataFailure `collision`), with the request's writes. */
export const putNewResource = <K extends ResourceType>(
  type: K,
  record: RecordOf<K>,
  writes?: RequestWrites,
): Promise<RecordOf<K>> => putNew(COLLECTIONS[type], record, writes);

// ---------------------------------------------------------------------------------------------
// Certifications: a service's `provider_ids` never names a deleted provider

/** A provider a service write newly certifies, by id. */
type CertifyAction = NamedAction<'provider'> & { providerId: string };

/**
 * Certifying a provider touches the provider: only while it is live, and counting the
 * certification, so a deletion that read the count before looking for the provider's services
 * fails if one came in since (and looks again). A ConditionCheck alone would not show up there.
 */
const certifyProvider = (medspaId: string, providerId: string): CertifyAction => ({
  name: 'provider',
  providerId,
  action: {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'PROVIDER', providerId),
      UpdateExpression: 'SET #cs = if_not_exists(#cs, :zero) + :one',
      ConditionExpression: `attribute_exists(pk) AND ${NOT_DELETED}`,
      ExpressionAttributeNames: { '#cs': CERTIFICATION_SEQ },
      ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
    },
  },
});

/** A live provider's version and certification count (0 before the first), or null when absent, deleted or malformed. */
export async function readProviderForDeletion(
  medspaId: string,
  providerId: string,
): Promise<{ version: number; certificationSeq: number } | null> {
  if (!isEntityId(providerId)) return null;
  const provider = providerDeletionStateCodec.fromItem(await readItem(entityKey(medspaId, 'PROVIDER', providerId)));
  if (!isLive(provider)) return null;
  return { version: provider.version, certificationSeq: provider.certification_seq ?? 0 };
}

/** How many providers a service write can check in its one transaction (100 actions: the service, the audit entry). */
export const MAX_PROVIDER_CHECKS = 98;

export type ServiceWriteResult =
  | { ok: true }
  /** The service is gone, or not of the version read. */
  | { ok: false; failed: VersionedFailure }
  /** A provider it newly certifies was deleted meanwhile (or never existed). */
  | { ok: false; failed: 'provider'; providerId: string };

/**
 * A service write that certifies `newProviderIds`, committed only while each of them is live: a
 * ConditionCheck per provider in the same transaction, so it cannot interleave with a provider
 * deletion (which withdraws the provider from every service in its own transaction). Beyond
 * MAX_PROVIDER_CHECKS new providers in one write they rely on the read just before instead.
 */
async function commitServiceWrite(
  medspaId: string,
  service: TransactItem,
  newProviderIds: readonly string[],
  writes?: RequestWrites,
): Promise<ServiceWriteResult> {
  const checks =
    newProviderIds.length <= MAX_PROVIDER_CHECKS ? newProviderIds.map((id) => certifyProvider(medspaId, id)) : [];
  const outcome = await transact<NamedAction<'service'> | CertifyAction>(
    [{ name: 'service', action: service }, ...checks],
    writes,
  );
  if (outcome.ok) return outcome;
  const failed = firstFailed(outcome.failed, ['service', 'provider'])!;
  return failed.name === 'service'
    ? { ok: false, failed: versionedFailure(failed.old) }
    : { ok: false, failed: 'provider', providerId: failed.providerId };
}

/** A new service (every provider it lists checked live); its id is new (else a DataFailure `collision`). */
export async function commitNewService(service: ServiceRecord, writes?: RequestWrites) {
  const result = await commitServiceWrite(
    service.medspa_id,
    {
      Put: {
        TableName: tableName(),
        Item: serviceCodec.toItem(service),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    service.provider_ids,
    writes,
  );
  if (!result.ok && result.failed !== 'provider')
    throw new DataFailure('collision', `service ${service.id} already exists`);
  return result as Exclude<ServiceWriteResult, { failed: VersionedFailure }>;
}

/** A versioned change of a service read at `expectedVersion` (the providers it newly lists checked live). */
export const commitServiceChange = (
  medspaId: string,
  serviceId: string,
  changes: Record<string, unknown>,
  options: { expectedVersion: number; now: string; newProviderIds: readonly string[]; writes?: RequestWrites },
) =>
  commitServiceWrite(
    medspaId,
    {
      Update: {
        TableName: tableName(),
        Key: entityKey(medspaId, 'SERVICE', serviceId),
        ...versionedUpdate(changes, { expectedVersion: options.expectedVersion, now: options.now }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    options.newProviderIds,
    options.writes,
  );

/** The services of a practice that certify `providerId` (id, version, provider_ids): a strongly consistent Query of the service collection, bounded by it. */
export async function servicesCertifying(
  medspaId: string,
  providerId: string,
): Promise<{ id: string; version: number; provider_ids: string[] }[]> {
  return queryAll(serviceCertificationsCodec, {
    partition: collectionPk(medspaId, 'SERVICE'),
    projection: ['id', 'version', 'provider_ids'],
    consistent: true,
    filter: where<{ provider_ids: string[] }>({ provider_ids: contains(providerId) }),
  });
}

export type ProviderDeletionResult =
  | { ok: true }
  /**
   * The provider is gone or deleted (`absent`), not of the If-Match version (`version`), or a
   * certification came in since it was read (`certified`); or a service changed since it was
   * read (`service`): read them again.
   */
  | { ok: false; failed: VersionedFailure | 'certified' | 'service' };

/**
 * Soft-deletes a provider and withdraws it from `services` (each conditioned on the version
 * read) in ONE transaction: a deleted provider is certified for nothing, at any instant.
 */
export async function commitProviderDeletion(
  medspaId: string,
  providerId: string,
  services: { id: string; version: number; provider_ids: string[] }[],
  options: { expectedVersion?: number; certificationSeq: number; now: string; writes?: RequestWrites },
): Promise<ProviderDeletionResult> {
  const update = versionedUpdate(
    { deleted_at: options.now },
    { expectedVersion: options.expectedVersion, now: options.now, condition: NOT_DELETED },
  );
  // No certification since the services were looked up (else one could be missing from `services`).
  const unchanged = options.certificationSeq === 0 ? '(attribute_not_exists(#cs) OR #cs = :cs)' : '#cs = :cs';
  const provider: NamedAction<'provider'> = {
    name: 'provider',
    action: {
      Update: {
        TableName: tableName(),
        Key: entityKey(medspaId, 'PROVIDER', providerId),
        ...update,
        ConditionExpression: `${update.ConditionExpression} AND ${unchanged}`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#cs': CERTIFICATION_SEQ },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':cs': options.certificationSeq },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
  };
  const withdrawals = services.map(
    (service): NamedAction<'service'> => ({
      name: 'service',
      action: {
        Update: {
          TableName: tableName(),
          Key: entityKey(medspaId, 'SERVICE', service.id),
          ...versionedUpdate(
            { provider_ids: service.provider_ids.filter((id) => id !== providerId) },
            { expectedVersion: service.version, now: options.now },
          ),
        },
      },
    }),
  );
  const outcome = await transact([provider, ...withdrawals], options.writes);
  if (outcome.ok) return outcome;
  const failed = firstFailed(outcome.failed, ['provider', 'service'])!;
  if (failed.name === 'service') return { ok: false, failed: 'service' };
  const old = failed.old;
  if (!old || old.deleted_at) return { ok: false, failed: 'absent' };
  if (options.expectedVersion !== undefined && old.version !== options.expectedVersion)
    return { ok: false, failed: 'version' };
  return { ok: false, failed: 'certified' };
}
