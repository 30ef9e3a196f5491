import type { TransactItem } from './transact-types';

/**
 * Writes that belong to the request rather than to one operation (its audit entry, its
 * Idempotency-Key marker). The HTTP layer creates them and passes them down explicitly; the
 * request's first write given them commits them with the change (`transact`, or `writeOne` as a
 * transaction: atomic, no extra round trip), and the HTTP layer writes whatever was not committed afterwards.
 */
export class RequestWrites {
  private committed = false;
  private readonly writes: ((actions: readonly TransactItem[]) => TransactItem | null)[] = [];

  /** A Put to commit with the change (or null: nothing); it may look at the change's actions (e.g. a created id). */
  add(write: (actions: readonly TransactItem[]) => TransactItem | null): void {
    this.writes.push(write);
  }

  /** The items a transaction should carry: none once one transaction committed them. */
  itemsFor(actions: readonly TransactItem[]): TransactItem[] {
    return this.committed
      ? []
      : this.writes.map((write) => write(actions)).filter((item): item is TransactItem => item !== null);
  }

  markCommitted(): void {
    this.committed = true;
  }

  get isCommitted(): boolean {
    return this.committed;
  }
}
