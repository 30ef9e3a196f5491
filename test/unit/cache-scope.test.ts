import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { installLocalRuntime, runAsFunction, type LocalRuntime } from '../../lib/aws/local-runtime';
import { BoundedCache } from '../../lib/cache';

/** A runtime that only names the function running (infra/local/aws/runtime.ts does the rest). */
function namingRuntime(): LocalRuntime {
  const current = new AsyncLocalStorage<{ name: string }>();
  return {
    instrument: () => undefined,
    authorize: async () => undefined,
    requireEnvironment: () => undefined,
    runAs: (name, work) => current.run({ name }, work),
    invocation: () => current.getStore(),
    functionName: () => current.getStore()?.name,
  };
}

afterEach(() => installLocalRuntime(undefined));

describe('the per-container cache, per function locally', () => {
  it('on AWS (no local runtime) one scope for all', () => {
    const cache = new BoundedCache<string, number>({ max: 10 });
    cache.set('k', 1);
    expect(runAsFunction('getClient', () => cache.get('k'))).toBe(1);
  });

  it("locally a function sees only its own entries, as it would its own containers'; a forget reaches every function", () => {
    installLocalRuntime(namingRuntime());
    const cache = new BoundedCache<string, number>({ max: 2 });
    runAsFunction('getPractice', () => cache.set('k', 1));
    expect(runAsFunction('getPractice', () => cache.get('k'))).toBe(1);
    expect(runAsFunction('deliverWebhook', () => cache.get('k'))).toBeUndefined();
    expect(cache.get('k')).toBeUndefined();
    // Bounded per scope: another function's entries push none out.
    runAsFunction('getClient', () => {
      cache.set('a', 2);
      cache.set('b', 3);
      cache.set('c', 4);
      expect(cache.has('a')).toBe(false);
    });
    expect(runAsFunction('getPractice', () => cache.peek('k'))).toBe(1);
    cache.deleteWhere((key) => key === 'k');
    expect(runAsFunction('getPractice', () => cache.get('k'))).toBeUndefined();
    runAsFunction('getPractice', () => cache.set('k', 5));
    cache.clear();
    expect(runAsFunction('getPractice', () => cache.get('k'))).toBeUndefined();
  });
});
