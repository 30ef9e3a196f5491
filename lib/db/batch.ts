import {
  clientCodec,
  equipmentCodec,
  lotCodec,
  paymentCodec,
  planCodec,
  productCodec,
  providerCodec,
  roomCodec,
  serviceCodec,
  type CollectionCodec,
} from './codecs';
import type {
  ClientRecord,
  FacilityRecord,
  LotRecord,
  PaymentRecord,
  PlanRecord,
  ProductRecord,
  ProviderRecord,
  ServiceRecord,
} from '../domain/records';
import { itemId, readItem, readItems, type ReadOptions } from './key-reads';
import { entityKey, type EntityType } from './keys';

/** The record of each collection read by type. */
interface CollectionRecords {
  PROVIDER: ProviderRecord;
  ROOM: FacilityRecord;
  EQUIPMENT: FacilityRecord;
  SERVICE: ServiceRecord;
  CLIENT: ClientRecord;
  PRODUCT: ProductRecord;
  PAYMENT: PaymentRecord;
  PLAN: PlanRecord;
  LOT: LotRecord;
}
export type CollectionType = keyof CollectionRecords;
/** The record type of a collection. */
export type RecordOf<K extends CollectionType> = CollectionRecords[K];

/**
 * The collections read by type (setup resources, clients, products, payments): each through its
 * codec. Typed as a map over the types, so `COLLECTIONS[type]` of a generic `type` is the codec
 * of `RecordOf<type>` and what it decodes flows to the caller without a cast.
 */
export const COLLECTIONS: { readonly [K in CollectionType]: CollectionCodec<RecordOf<K>, K> } = {
  PROVIDER: providerCodec,
  ROOM: roomCodec,
  EQUIPMENT: equipmentCodec,
  SERVICE: serviceCodec,
  CLIENT: clientCodec,
  PRODUCT: productCodec,
  PAYMENT: paymentCodec,
  PLAN: planCodec,
  LOT: lotCodec,
};

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
  const decoded: { [K in CollectionType]?: Map<string, RecordOf<K> | null> } = {};
  return {
    get: <K extends CollectionType>(type: K, id: string): RecordOf<K> | null => {
      const ofType: Map<string, RecordOf<K> | null> = (decoded[type] ??= new Map());
      const at = itemId(entityKey(medspaId, type, id));
      let record = ofType.get(at);
      if (record === undefined) ofType.set(at, (record = COLLECTIONS[type].fromItem(found.get(at))));
      return record;
    },
  };
}

/** The keys of these entities (for a read that takes more keys with them). */
export const entityKeys = (medspaId: string, refs: readonly { type: CollectionType; id: string }[]) =>
  refs.map((ref) => entityKey(medspaId, ref.type, ref.id));

/** Reads several entities of one practice in one round trip (strongly consistent unless asked otherwise). */
export const batchGetEntities = async (
  medspaId: string,
  refs: { type: CollectionType; id: string }[],
  options: ReadOptions = {},
): Promise<Entities> => entitiesOf(medspaId, await readItems(entityKeys(medspaId, refs), options));
