import { EndpointCache } from '@aws-sdk/endpoint-cache';
import MnemonistLRU from 'mnemonist/lru-cache';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infra/constructs/bundling';
import LRUCache from '../../infra/constructs/lru-cache';

/** The function bundles' stand-in for mnemonist's LRU (infra/constructs/bundling.ts). */
describe('the LRU cache in function bundles', () => {
  it('replaces mnemonist/lru-cache when bundling', () => {
    expect(BUNDLE_ALIASES['mnemonist/lru-cache']).toBe('infra/constructs/lru-cache.ts');
  });

  it('answers as mnemonist does for a random sequence of the calls the endpoint cache makes', () => {
    const ours = new LRUCache<string, number>(5);
    const theirs = new MnemonistLRU<string, number>(5);
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let step = 0; step < 2000; step += 1) {
      const key = `k${next() % 9}`;
      const op = next() % 4;
      if (op === 0) {
        ours.set(key, step);
        theirs.set(key, step);
      } else if (op === 1) expect(ours.get(key)).toBe(theirs.get(key));
      else if (op === 2) expect(ours.peek(key)).toBe(theirs.peek(key));
      else expect(ours.has(key)).toBe(theirs.has(key));
      expect(ours.size).toBe(theirs.size);
    }
    ours.clear();
    expect(ours.size).toBe(0);
  });

  it("serves the SDK's endpoint cache (the only user in our bundles)", () => {
    const cache = new EndpointCache(2);
    // The SDK's class with our LRU inside, as the bundle has it.
    (cache as unknown as { cache: LRUCache<string, unknown> }).cache = new LRUCache(2);
    cache.set('a', [{ Address: 'a.example', CachePeriodInMinutes: 1 }]);
    expect(cache.getEndpoint('a')).toBe('a.example');
    cache.delete('a');
    expect(cache.has('a')).toBe(false);
  });
});
