import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { plainItem } from './conditions';
import type { Codec, CollectionCodec } from './codecs';
import { readItem } from './key-reads';
import { entityKey, type EntityType, type Key } from './keys';

/**
 * Versioned updates: every change moves `version` and `updated_at` and is conditioned on the item
 * existing and, with If-Match, on its version. A failed condition is a value: the item is
 * `absent` (or hidden: soft-deleted) or of another `version`; callers give those their codes.
 */
export type VersionedFailure = 'absent' | 'version';

export type UpdateOutcome<T> = { ok: true; item: T } | { ok: false; failed: VersionedFailure };

export interface UpdateOptions {
  expectedVersion?: number;
  now: string;
  /** Attributes to remove (e.g. a cleared optional field). */
  remove?: string[];
  /** Index keys to refresh with the change. */
  indexKeys?: Record<string, string>;
  /** Extra condition on the current item (e.g. `attribute_not_exists(deleted_at)`). */
  condition?: string;
  /**
   * Write only if some field would change (a PATCH of equal values is no change: same version,
   * same updated_at). The condition then also fails on an item that already holds every value.
   */
  onlyIfChanged?: boolean;
}

/**
 * Whether `changes` (undefined values ignored) leave `current` as it is, by DynamoDB's equality:
 * maps compare without regard to key order, lists in order, and an absent attribute is not null.
 */
export function changesNothing(changes: Record<string, unknown>, current: object): boolean {
  const record = current as Record<string, unknown>;
  return Object.entries(changes).every(
    ([name, value]) => value === undefined || (name in record && sameValue(value, record[name])),
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameValue(item, b[index]))
    );
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const left = Object.entries(a).filter(([, value]) => value !== undefined);
  const right = Object.entries(b).filter(([, value]) => value !== undefined);
  return (
    left.length === right.length &&
    left.every(([name, value]) => name in b && sameValue(value, (b as Record<string, unknown>)[name]))
  );
}

/** The fields a PATCH gives (undefined ones are not written). */
export const definedFields = (changes: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));

/** The item as a committed versionedUpdate of `changes` (less `remove`) at `at` leaves it. */
export function afterUpdate<T extends { version: number }>(
  current: T,
  changes: object,
  at: string,
  remove: readonly string[] = [],
): T {
  const next: Record<string, unknown> = {
    ...current,
    ...definedFields(changes),
    version: current.version + 1,
    updated_at: at,
  };
  for (const name of remove) delete next[name];
  return next as T;
}

/** Builds `SET a = :a, ...` plus version and updated_at, conditioned on existence and If-Match. */
export function versionedUpdate(changes: Record<string, unknown>, options: UpdateOptions) {
  const names: Record<string, string> = { '#version': 'version', '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':one': 1, ':now': options.now };
  const sets = ['#version = #version + :one', '#updated_at = :now'];
  const same: string[] = [];
  Object.entries({ ...changes, ...options.indexKeys }).forEach(([name, value], index) => {
    if (value === undefined) return;
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
    same.push(`#f${index} = :f${index}`);
  });
  const removes = (options.remove ?? []).map((name, index) => {
    names[`#r${index}`] = name;
    same.push(`attribute_not_exists(#r${index})`);
    return `#r${index}`;
  });
  const conditions = ['attribute_exists(pk)'];
  if (options.expectedVersion !== undefined) {
    values[':expected'] = options.expectedVersion;
    conditions.push('#version = :expected');
  }
  if (options.condition) conditions.push(options.condition);
  if (options.onlyIfChanged && same.length > 0) conditions.push(`NOT (${same.join(' AND ')})`);
  return {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Soft-deleted items (`deleted_at`) are hidden: absent to every versioned write. */
export const isHidden = (item: Record<string, unknown>) => Boolean(item.deleted_at);

/** Why a versioned write's condition failed, from the item as it was: gone (or hidden), or of another version. */
export const versionedFailure = (
  old: Record<string, unknown> | null | undefined,
  hidden?: (item: Record<string, unknown>) => boolean,
): VersionedFailure => (!old || hidden?.(old) ? 'absent' : 'version');

/**
 * A PATCH of one item, in one round trip: a versioned update conditioned on existence, If-Match,
 * `condition`, and on some value actually changing. When the condition fails on an item that is
 * there, visible and of the expected version, the values were already those: the item is
 * answered as stored (same version, same updated_at). A PATCH of no fields is a consistent read.
 */
export async function updateItem<T>(
  codec: Pick<Codec<T>, 'fromItem'>,
  key: Key,
  changes: Record<string, unknown>,
  options: UpdateOptions,
): Promise<UpdateOutcome<T>> {
  const fields = Object.values(changes).filter((value) => value !== undefined).length + (options.remove?.length ?? 0);
  if (fields === 0) {
    const item = await readItem(key);
    if (!item || isHidden(item) || (options.expectedVersion !== undefined && item.version !== options.expectedVersion))
      return { ok: false, failed: versionedFailure(item, isHidden) };
    return { ok: true, item: codec.fromItem(item)! };
  }
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        ...versionedUpdate(changes, { ...options, onlyIfChanged: true }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true, item: codec.fromItem(Attributes)! };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const old = plainItem(error.Item);
    const versionHolds = options.expectedVersion === undefined || old?.version === options.expectedVersion;
    // Only the "nothing changes" clause can have failed (the extra condition is a visibility check).
    if (old && !isHidden(old) && versionHolds && changesNothing(changes, old))
      return { ok: true, item: codec.fromItem(old)! };
    return { ok: false, failed: versionedFailure(old, isHidden) };
  }
}

export const updateEntity = <T, E extends EntityType>(
  codec: CollectionCodec<T, E>,
  medspaId: string,
  id: string,
  changes: Record<string, unknown>,
  options: UpdateOptions,
): Promise<UpdateOutcome<T>> => updateItem(codec, entityKey(medspaId, codec.entity, id), changes, options);

/** Deletes an entity that exists (and is of `expectedVersion`, when given). */
export async function deleteEntity(
  medspaId: string,
  type: EntityType,
  id: string,
  expectedVersion?: number,
): Promise<{ ok: true } | { ok: false; failed: VersionedFailure }> {
  try {
    await ddb().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, type, id),
        ConditionExpression:
          expectedVersion === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #version = :expected',
        ...(expectedVersion === undefined
          ? {}
          : {
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':expected': expectedVersion },
            }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { ok: false, failed: versionedFailure(plainItem(error.Item)) };
  }
}
