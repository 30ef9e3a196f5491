import { BoundedCache } from '../../lib/cache';

/**
 * Stands in for `mnemonist/lru-cache` in function bundles (the esbuild alias in ./bundling.ts).
 * The DynamoDB client builds an endpoint-discovery cache with it (`@aws-sdk/endpoint-cache`),
 * which DynamoDB never uses unless endpoint discovery is switched on, and mnemonist's LRU with
 * its helpers is about 5 KB of every bundle. Our own LRU (lib/cache.ts) takes its place, with
 * mnemonist's constructor and the methods that cache calls: get, set, has, peek, clear, size.
 */
export default class LRUCache<K, V> extends BoundedCache<K, V> {
  constructor(capacity: number) {
    super({ max: capacity });
  }
}
