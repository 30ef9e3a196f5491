import { AppError, isAppError } from '../errors';
import { retry } from '../retry';

/** Tries of a change when, without If-Match, concurrent writers keep getting there first. */
const CHANGE_ATTEMPTS = 5;

/**
 * A change computed from the current state (merges, derived fields, set membership), written
 * only if nothing changed in between: `commit` writes it conditioned on `current.version`.
 * `build` returns null when there is nothing to write; a change `unchanged` calls no change (the
 * values already stored) is no write either: same version, same updated_at. Without If-Match a
 * concurrent writer (`commit` throws VERSION_CONFLICT) just means another try on fresh state;
 * with it, the caller's version rules.
 */
export function changeFromCurrent<T extends { version: number }, C>(steps: {
  read: () => Promise<T>;
  build: (current: T) => Promise<C | null> | C | null;
  unchanged: (changes: C, current: T) => boolean;
  commit: (changes: C, current: T) => Promise<T>;
  ifMatch?: number;
}): Promise<T> {
  return retry<T>(
    async () => {
      const current = await steps.read();
      if (steps.ifMatch !== undefined && steps.ifMatch !== current.version) throw new AppError('VERSION_CONFLICT');
      const changes = await steps.build(current);
      if (changes === null || steps.unchanged(changes, current)) return { done: current };
      return { done: await steps.commit(changes, current) };
    },
    {
      attempts: CHANGE_ATTEMPTS,
      retryable: (error) => steps.ifMatch === undefined && isAppError(error) && error.code === 'VERSION_CONFLICT',
      delayMs: () => 0,
      // Only errors retry, and the last one is thrown as it is.
      exhausted: () => {
        throw new AppError('VERSION_CONFLICT');
      },
    },
  );
}
