import { jitter } from '../db/transact';
import type { AppError } from '../errors';

/** One try of a conditional write: its result, or "lost a race": retry `now` (fresh state in hand) or `later` (with jitter). */
export type Attempt<T> = { done: T } | { retry: 'now' | 'later' };

/** Bounded retries of lost races; when they run out, `exhausted` says so. */
export async function untilDone<T>(attempt: (n: number) => Promise<Attempt<T>>, exhausted: () => AppError, maxAttempts = 10): Promise<T> {
  for (let n = 1; n <= maxAttempts; n += 1) {
    const result = await attempt(n);
    if ('done' in result) return result.done;
    if (result.retry === 'later') await jitter(n);
  }
  throw exhausted();
}
