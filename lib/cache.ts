/**
 * THE per-container cache: bounded (least recently used out first) and, when given a time to
 * live, expiring. On a Map, whose insertion order is the recency order. A maintained package
 * (lru-cache) would add about 19 KB to every function bundle for the same few calls; this is
 * also the LRU the DynamoDB client's endpoint cache gets in bundles (infra/constructs/lru-cache.ts).
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
  private readonly entries = new Map<K, Entry<V>>();

  constructor(private readonly options: CacheOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The live entry, without making it the most recent (an expired one leaves). */
  private live(key: K): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  has(key: K): boolean {
    return this.live(key) !== undefined;
  }

  /** The value without making it the most recent. */
  peek(key: K): V | undefined {
    return this.live(key)?.value;
  }

  get(key: K): V | undefined {
    const entry = this.live(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V, ttlMs = this.options.ttlMs): this {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttlMs });
    if (this.entries.size > this.options.max) this.entries.delete(this.entries.keys().next().value!);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Forgets every entry whose key passes `test`. */
  deleteWhere(test: (key: K) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
