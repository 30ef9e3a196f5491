import {
  clientCodec,
  equipmentCodec,
  paymentCodec,
  productCodec,
  providerCodec,
  roomCodec,
  serviceCodec,
  type CollectionCodec,
} from './codecs';
import { itemId, readItem, readItems } from './key-reads';
import { entityKey, type EntityType } from './keys';

/** The collections read by type (setup resources, clients, products, payments): each through its codec. */
export const COLLECTIONS = {
  PROVIDER: providerCodec,
  ROOM: roomCodec,
  EQUIPMENT: equipmentCodec,
  SERVICE: serviceCodec,
  CLIENT: clientCodec,
  PRODUCT: productCodec,
  PAYMENT: paymentCodec,
} as const;
export type CollectionType = keyof typeof COLLECTIONS;
/** The record type of a collection. */
export type RecordOf<K extends CollectionType> = (typeof COLLECTIONS)[K] extends CollectionCodec<infer T> ? T : never;

/** One entity of a collection by id, decoded by its codec (null when absent). */
export const getEntity = async <T, E extends EntityType>(
  codec: CollectionCodec<T, E>,
  medspaId: string,
  id: string,
): Promise<T | null> => codec.fromItem(await readItem(entityKey(medspaId, codec.entity, id)));

/** Entities of one practice read together, each decoded once, when first asked for. */
export interface Entities {
  get<K extends CollectionType>(type: K, id: string): RecordOf<K> | null;
}

/** Entities of one practice found by a batched read (`readItems`), decoded on demand. */
export function entitiesOf(medspaId: string, found: Map<string, Record<string, unknown>>): Entities {
  const decoded = new Map<string, unknown>();
  return {
    get: <K extends CollectionType>(type: K, id: string) => {
      const at = itemId(entityKey(medspaId, type, id));
      if (!decoded.has(at)) decoded.set(at, COLLECTIONS[type].fromItem(found.get(at)));
      return decoded.get(at) as RecordOf<K> | null;
    },
  };
}

/** The keys of these entities (for a read that takes more keys with them). */
export const entityKeys = (medspaId: string, refs: readonly { type: CollectionType; id: string }[]) =>
  refs.map((ref) => entityKey(medspaId, ref.type, ref.id));

/** Reads several entities of one practice in one round trip. */
export const batchGetEntities = async (
  medspaId: string,
  refs: { type: CollectionType; id: string }[],
): Promise<Entities> => entitiesOf(medspaId, await readItems(entityKeys(medspaId, refs)));
