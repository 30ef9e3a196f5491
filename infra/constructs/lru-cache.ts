/**
 * Stands in for `mnemonist/lru-cache` in function bundles (the esbuild alias in ./bundling.ts).
 * The DynamoDB client builds an endpoint-discovery cache with it (`@aws-sdk/endpoint-cache`),
 * which DynamoDB never uses unless endpoint discovery is switched on, and mnemonist's LRU with
 * its helpers is about 5 KB of every bundle. The same LRU on a Map (insertion order = recency),
 * with the methods that cache calls: get, set, has, peek, clear, size.
 */
export default class LRUCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value without making it the most recent. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
