/**
 * THE retry loop: every bounded retry in the service (lost races, TransactionConflict, keys
 * DynamoDB left unprocessed, a throttled KMS call, a duplicate request's answer) runs through
 * `retry`, each with its own bound, wait and retryable errors.
 */

/** What one try gives: a value, or another try, `now` (fresh state in hand) or `later` (after the wait). */
export type Attempt<T> = { done: T } | { retry: 'now' | 'later' };

export interface RetryOptions<T> {
  /** Tries in all, the first included. */
  attempts: number;
  /** The wait after failed try `n` (1-based) before the next; default `linearJitter(15)`. */
  delayMs?: (attempt: number) => number;
  /** Errors worth another try (after the wait); any other error ends it at once. Default: none. */
  retryable?: (error: unknown) => boolean;
  /** Give up when the next wait would end after this instant (epoch ms), whatever is left of `attempts`. */
  deadline?: number;
  /** The answer once the tries run out: a value, or it throws. A retryable error on the last try is thrown as it is. */
  exhausted: () => T;
}

/** A random wait up to `stepMs` x n: racers that lost spread out, and each wait stays short. */
export const linearJitter = (stepMs: number) => (attempt: number) => Math.random() * stepMs * attempt;

/** Exponential backoff with full jitter (AWS's advice): a random wait up to min(cap, base x 2^n). */
export const exponentialJitter =
  (baseMs: number, capMs = Number.POSITIVE_INFINITY) =>
  (attempt: number) =>
    Math.random() * Math.min(capMs, baseMs * 2 ** attempt);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait of a lost race before try n + 1 (for loops that are not yet `retry` calls). */
export const jitter = (attempt: number) => sleep(linearJitter(15)(attempt));

export async function retry<T>(attempt: (n: number) => Promise<Attempt<T>>, options: RetryOptions<T>): Promise<T> {
  const delayMs = options.delayMs ?? linearJitter(15);
  for (let n = 1; n <= options.attempts; n += 1) {
    let wait: boolean;
    try {
      const result = await attempt(n);
      if ('done' in result) return result.done;
      wait = result.retry === 'later';
    } catch (error) {
      if (!options.retryable?.(error) || n >= options.attempts) throw error;
      wait = true;
    }
    if (n >= options.attempts) break;
    if (!wait) continue;
    const ms = delayMs(n);
    if (options.deadline !== undefined && Date.now() + ms > options.deadline) break;
    if (ms > 0) await sleep(ms);
  }
  return options.exhausted();
}
