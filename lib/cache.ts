import { currentFunction } from './aws/local-runtime';

/**
 * THE per-container cache: bounded (least recently used out first) and, when given a time to
 * live, expiring. On a Map, whose insertion order is the recency order. A maintained package
 * (lru-cache) would add about 19 KB to every function bundle for the same few calls; this is
 * also the LRU the DynamoDB client's endpoint cache gets in bundles (infra/constructs/lru-cache.ts).
 *
 * Per function: on AWS a container is one function (one scope); locally every function shares the
 * process, so each function (`runAsFunction`, lib/aws/local-runtime.ts) gets its own entries, as
 * it would its own containers. A read one function made never answers another's without that
 * function's role being checked (the credential and practice checks, a key's standing, a
 * practice's zone): the local IAM enforcement proves each role's reads. `delete`, `deleteWhere`
 * and `clear` reach every scope (a revocation seen at once by every function locally; on AWS only
 * the container that made it forgets, the others within their entries' time to live): that costs
 * reads, each checked, never a read unchecked.
 */
export interface CacheOptions {
  /** Entries kept at most. */
  max: number;
  /** Each entry's time to live, unless `set` gives one; none: entries never expire. */
  ttlMs?: number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class BoundedCache<K, V> {
  /** By function (undefined: on AWS, and outside any function locally). */
  private readonly scopes = new Map<string | undefined, Map<K, Entry<V>>>();

  constructor(private readonly options: CacheOptions) {}

  /** The current function's entries. */
  private get entries(): Map<K, Entry<V>> {
    const scope = currentFunction();
    let entries = this.scopes.get(scope);
    if (!entries) this.scopes.set(scope, (entries = new Map()));
    return entries;
  }

  /** The current function's entries, live or not. */
  get size(): number {
    return this.entries.size;
  }

  /** The live entry, without making it the most recent (an expired one leaves). */
  private live(entries: Map<K, Entry<V>>, key: K): Entry<V> | undefined {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  has(key: K): boolean {
    return this.live(this.entries, key) !== undefined;
  }

  /** The value without making it the most recent. */
  peek(key: K): V | undefined {
    return this.live(this.entries, key)?.value;
  }

  get(key: K): V | undefined {
    const entries = this.entries;
    const entry = this.live(entries, key);
    if (!entry) return undefined;
    entries.delete(key);
    entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, ttlMs = this.options.ttlMs): this {
    const entries = this.entries;
    entries.delete(key);
    entries.set(key, { value, expiresAt: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
    if (entries.size > this.options.max) entries.delete(entries.keys().next().value!);
    return this;
  }

  /** Forgets the key, in every function's scope. */
  delete(key: K): boolean {
    let deleted = false;
    for (const entries of this.scopes.values()) deleted = entries.delete(key) || deleted;
    return deleted;
  }

  /** Forgets every entry whose key passes `test`, in every function's scope. */
  deleteWhere(test: (key: K) => boolean): void {
    for (const entries of this.scopes.values())
      for (const key of [...entries.keys()]) if (test(key)) entries.delete(key);
  }

  clear(): void {
    this.scopes.clear();
  }
}
