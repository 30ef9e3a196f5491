import { AppError, type ErrorCode } from '../errors';
import { isEntityId } from '../domain/ids';
import { batchGetEntities, getEntity, listEntities, pick, updateEntity, type Page, type QueryPageInput, type UpdateOptions } from './entities';
import type { PageRequest } from './cursor';
import type { EntityType } from './keys';

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

/** The 404 code for an entity type's ids. */
export const NOT_FOUND_CODE = {
  PROVIDER: 'PROVIDER_NOT_FOUND',
  ROOM: 'ROOM_NOT_FOUND',
  EQUIPMENT: 'EQUIPMENT_NOT_FOUND',
  SERVICE: 'SERVICE_NOT_FOUND',
  CLIENT: 'CLIENT_NOT_FOUND',
} as const satisfies Partial<Record<EntityType, ErrorCode>>;
