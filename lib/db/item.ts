import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { entityKey, type EntityType, type Key } from './keys';

/** A provider's count of certifications written: a deletion commits only if none came in since it looked (lib/db/resources). */
export const CERTIFICATION_SEQ = 'certification_seq';

/** Attributes that exist for the table's sake, never part of a resource. */
const STORAGE_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'expires_at', 'entity', CERTIFICATION_SEQ];

/** The record an item holds: the item less its keys and storage attributes. */
export function fromItem<T>(item: Record<string, unknown> | undefined): T | null {
  if (!item) return null;
  const copy = { ...item };
  for (const name of STORAGE_ATTRIBUTES) delete copy[name];
  return copy as T;
}

export interface Versioned {
  id: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** One item, strongly consistent, as stored (keys included), or undefined. */
export async function getItem(key: Key): Promise<Record<string, unknown> | undefined> {
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return Item;
}

export const getEntity = async <T>(medspaId: string, type: EntityType, id: string): Promise<T | null> => fromItem<T>(await getItem(entityKey(medspaId, type, id)));

