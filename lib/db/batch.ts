import { fromItem } from './item';
import { itemId, readItems } from './key-reads';
import { entityKey, type EntityType } from './keys';

/** Reads several entities of one practice in one round trip. */
export const batchGetEntities = (medspaId: string, refs: { type: EntityType; id: string }[]) =>
  readItems(refs.map((ref) => entityKey(medspaId, ref.type, ref.id)));

/** Looks an entity up in a batchGetEntities result. */
export const pick = <T>(found: Map<string, Record<string, unknown>>, medspaId: string, type: EntityType, id: string) =>
  fromItem<T>(found.get(itemId(entityKey(medspaId, type, id))));
