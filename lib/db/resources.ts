import { AppError, type ErrorCode } from '../errors';
import { isEntityId } from '../domain/ids';
import type { ServiceRecord } from '../domain/records';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { clientCodec, equipmentCodec, providerCodec, roomCodec, serviceCodec, type Codec } from './codecs';
import type { PageRequest } from './cursor';
import { batchGetEntities, CERTIFICATION_SEQ, getEntity, listEntities, pick, queryAll, updateEntity, versionedUpdate, type Page, type QueryPageInput, type UpdateOptions } from './entities';
import { collectionPk, entityKey, type EntityType } from './keys';
import { putNew } from './put-new';
import type { RequestWrites } from './request-writes';
import { transact, type NamedAction, type TransactItem } from './transact';

/**
 * Soft-deletable entities (providers, rooms, equipment, clients; services are never deleted).
 * A deleted item keeps its key (appointments still refer to it) with `deleted_at` set, and is
 * hidden everywhere: reads answer null, updates the resource's 404 code, lists skip it.
 */

/** Ids that cannot exist are not looked up. */
export { isEntityId };

const NOT_DELETED = 'attribute_not_exists(deleted_at)';

type MaybeDeleted = { deleted_at?: string | null };
const isLive = <T>(item: T | null): item is T => item !== null && !(item as MaybeDeleted).deleted_at;

/** The entity unless absent, deleted or not a well-formed id. */
export async function getLiveEntity<T>(medspaId: string, type: EntityType, id: string): Promise<T | null> {
  if (!isEntityId(id)) return null;
  const item = await getEntity<T>(medspaId, type, id);
  return isLive(item) ? item : null;
}

/** Several live entities of one type in one round trip, by id (missing, deleted and malformed ids are absent). */
export async function getLiveEntities<T>(medspaId: string, type: EntityType, ids: readonly string[]): Promise<Map<string, T>> {
  const wanted = [...new Set(ids)].filter(isEntityId);
  const found = await batchGetEntities(medspaId, wanted.map((id) => ({ type, id })));
  const live = new Map<string, T>();
  for (const id of wanted) {
    const item = pick<T>(found, medspaId, type, id);
    if (isLive(item)) live.set(id, item);
  }
  return live;
}

/** A versioned update of a live entity: absent or deleted is the resource's 404, a stale If-Match a VERSION_CONFLICT. */
export async function updateLiveEntity<T>(
  medspaId: string,
  type: EntityType,
  id: string,
  changes: Record<string, unknown>,
  options: Omit<UpdateOptions, 'condition'>,
): Promise<T> {
  if (!isEntityId(id)) throw new AppError(options.notFound);
  return updateEntity<T>(medspaId, type, id, changes, { ...options, condition: NOT_DELETED });
}

/** A page of live entities (Query on the collection, never a Scan); `filter` narrows further. */
export function listLiveEntities<T>(
  medspaId: string,
  type: EntityType,
  page: PageRequest,
  filter?: QueryPageInput['filter'],
): Promise<Page<T>> {
  const expression = filter ? `${NOT_DELETED} AND (${filter.expression})` : NOT_DELETED;
  return listEntities<T>(medspaId, type, page, {
    expression,
    names: filter?.names ?? {},
    values: filter?.values ?? {},
  });
}

/** The codec of each soft-deletable (or, for services, deactivatable) resource type. */
const RESOURCE_CODECS = { PROVIDER: providerCodec, ROOM: roomCodec, EQUIPMENT: equipmentCodec, SERVICE: serviceCodec, CLIENT: clientCodec } as const;
export type ResourceType = keyof typeof RESOURCE_CODECS;

/** A new resource (a taken id fails). */
export const putNewResource = <T extends { id: string; medspa_id: string }>(type: ResourceType, record: T): Promise<T> =>
  putNew(RESOURCE_CODECS[type] as unknown as Codec<T>, record);

/** The 404 code for an entity type's ids. */
export const NOT_FOUND_CODE = {
  PROVIDER: 'PROVIDER_NOT_FOUND',
  ROOM: 'ROOM_NOT_FOUND',
  EQUIPMENT: 'EQUIPMENT_NOT_FOUND',
  SERVICE: 'SERVICE_NOT_FOUND',
  CLIENT: 'CLIENT_NOT_FOUND',
} as const satisfies Partial<Record<EntityType, ErrorCode>>;

// ---------------------------------------------------------------------------------------------
// Certifications: a service's `provider_ids` never names a deleted provider

/**
 * Certifying a provider touches the provider: only while it is live, and counting the
 * certification, so a deletion that read the count before looking for the provider's services
 * fails if one came in since (and looks again). A ConditionCheck alone would not show up there.
 */
const certifyProvider = (medspaId: string, providerId: string): NamedAction => ({
  name: `provider:${providerId}`,
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
export async function readProviderForDeletion(medspaId: string, providerId: string): Promise<{ version: number; certificationSeq: number } | null> {
  if (!isEntityId(providerId)) return null;
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: entityKey(medspaId, 'PROVIDER', providerId), ConsistentRead: true }));
  if (!isLive(Item ?? null)) return null;
  return { version: Item!.version as number, certificationSeq: (Item![CERTIFICATION_SEQ] as number | undefined) ?? 0 };
}

/** How many providers a service write can check in its one transaction (100 actions: the service, the audit entry). */
export const MAX_PROVIDER_CHECKS = 98;

export type ServiceWriteResult =
  | { ok: true }
  /** The service's own condition failed: the item as it was (null when absent). */
  | { ok: false; failed: 'service'; old: Record<string, unknown> | null }
  /** A provider it newly certifies was deleted meanwhile (or never existed). */
  | { ok: false; failed: 'provider'; providerId: string };

/**
 * A service write that certifies `newProviderIds`, committed only while each of them is live: a
 * ConditionCheck per provider in the same transaction, so it cannot interleave with a provider
 * deletion (which withdraws the provider from every service in its own transaction). Beyond
 * MAX_PROVIDER_CHECKS new providers in one write they rely on the read just before instead.
 */
async function commitServiceWrite(medspaId: string, service: TransactItem, newProviderIds: readonly string[], writes?: RequestWrites): Promise<ServiceWriteResult> {
  const checks = newProviderIds.length <= MAX_PROVIDER_CHECKS ? newProviderIds.map((id) => certifyProvider(medspaId, id)) : [];
  const outcome = await transact([{ name: 'service', action: service }, ...checks], writes);
  if (outcome.ok) return outcome;
  if (outcome.failed.has('service')) return { ok: false, failed: 'service', old: outcome.failed.get('service') ?? null };
  const failed = [...outcome.failed.keys()].find((name) => name.startsWith('provider:'))!;
  return { ok: false, failed: 'provider', providerId: failed.slice('provider:'.length) };
}

/** A new service (every provider it lists checked live). */
export const commitNewService = (service: ServiceRecord, writes?: RequestWrites) =>
  commitServiceWrite(service.medspa_id, {
    Put: { TableName: tableName(), Item: serviceCodec.toItem(service), ConditionExpression: 'attribute_not_exists(pk)' },
  }, service.provider_ids, writes);

/** A versioned change of a service read at `expectedVersion` (the providers it newly lists checked live). */
export const commitServiceChange = (
  medspaId: string,
  serviceId: string,
  changes: Record<string, unknown>,
  options: { expectedVersion: number; now: string; newProviderIds: readonly string[]; writes?: RequestWrites },
) =>
  commitServiceWrite(medspaId, {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'SERVICE', serviceId),
      ...versionedUpdate(changes, { notFound: 'SERVICE_NOT_FOUND', expectedVersion: options.expectedVersion, now: options.now }),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  }, options.newProviderIds, options.writes);

/** The services of a practice that certify `providerId` (id, version, provider_ids): a strongly consistent Query of the service collection, bounded by it. */
export async function servicesCertifying(medspaId: string, providerId: string): Promise<{ id: string; version: number; provider_ids: string[] }[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'contains(provider_ids, :provider)',
    ProjectionExpression: 'id, version, provider_ids',
    ExpressionAttributeValues: { ':pk': collectionPk(medspaId, 'SERVICE'), ':provider': providerId },
    ConsistentRead: true,
  });
  return items as { id: string; version: number; provider_ids: string[] }[];
}

export type ProviderDeletionResult =
  | { ok: true }
  /** The provider's condition failed (absent, deleted, a stale If-Match, or a certification came in): the item as it was. */
  | { ok: false; failed: 'provider'; old: Record<string, unknown> | null }
  /** A service changed since it was read: read the services again. */
  | { ok: false; failed: 'service' };

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
  const update = versionedUpdate({ deleted_at: options.now }, { notFound: 'PROVIDER_NOT_FOUND', expectedVersion: options.expectedVersion, now: options.now, condition: NOT_DELETED });
  // No certification since the services were looked up (else one could be missing from `services`).
  const unchanged = options.certificationSeq === 0 ? '(attribute_not_exists(#cs) OR #cs = :cs)' : '#cs = :cs';
  const provider: NamedAction = { name: 'provider', action: {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'PROVIDER', providerId),
      ...update,
      ConditionExpression: `${update.ConditionExpression} AND ${unchanged}`,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#cs': CERTIFICATION_SEQ },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':cs': options.certificationSeq },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  } };
  const withdrawals: NamedAction[] = services.map((service) => ({ name: `service:${service.id}`, action: {
    Update: {
      TableName: tableName(),
      Key: entityKey(medspaId, 'SERVICE', service.id),
      ...versionedUpdate({ provider_ids: service.provider_ids.filter((id) => id !== providerId) }, { notFound: 'SERVICE_NOT_FOUND', expectedVersion: service.version, now: options.now }),
    },
  } }));
  const outcome = await transact([provider, ...withdrawals], options.writes);
  if (outcome.ok) return outcome;
  if (outcome.failed.has('provider')) return { ok: false, failed: 'provider', old: outcome.failed.get('provider') ?? null };
  return { ok: false, failed: 'service' };
}
