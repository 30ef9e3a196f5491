import type { PartitionName, ReadFamily } from './keys';

/**
 * What a function writes, by partition family (lib/db/keys.ts PARTITIONS) and item action, and
 * what it reads, by partition family (PARTITIONS for GetItem, BatchGetItem and Query on the table,
 * INDEX_PARTITIONS for Query on an index): the declarations its IAM role is generated from. A read
 * or write outside them is AccessDenied on AWS and, with the local runtime's enforcement, in every
 * test and `npm start`.
 */
export type WriteAction = 'put' | 'update' | 'delete' | 'check';
export type TableWrites = Partial<Record<PartitionName, readonly WriteAction[]>>;

export const DYNAMODB_WRITE_ACTION: Record<WriteAction, string> = {
  put: 'dynamodb:PutItem',
  update: 'dynamodb:UpdateItem',
  delete: 'dynamodb:DeleteItem',
  check: 'dynamodb:ConditionCheckItem',
};

/** The item-level reads a declared read family grants (no table admin, no Scan, no stream): the synthesized policy and the local check both use this list. */
export const DYNAMODB_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;

/** The union of declarations, actions sorted and deduplicated. */
export function mergeWrites(...declarations: Array<TableWrites | undefined>): TableWrites {
  const merged: Partial<Record<PartitionName, Set<WriteAction>>> = {};
  for (const declaration of declarations) {
    for (const [partition, actions] of Object.entries(declaration ?? {}) as Array<
      [PartitionName, readonly WriteAction[]]
    >) {
      const set = (merged[partition] ??= new Set());
      for (const action of actions) set.add(action);
    }
  }
  return Object.fromEntries(
    Object.entries(merged)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([partition, actions]) => [partition, [...actions!].sort()]),
  ) as TableWrites;
}

/** The partition families a function reads (table and index partitions, by their names in lib/db/keys.ts). */
export type TableReads = readonly ReadFamily[];

/** The union of read declarations, sorted and deduplicated. */
export const mergeReads = (...declarations: Array<TableReads | undefined>): ReadFamily[] =>
  [...new Set(declarations.flatMap((declaration) => declaration ?? []))].sort();
