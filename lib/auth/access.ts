import { BoundedCache } from '../cache';
import { config, defaultKeyRateLimits } from '../config';
import { readCallerAccess, type CallerAccess } from '../db/credentials';
import { readPublicAccess } from '../db/publishable-keys';
import type { KeyRateLimits } from '../domain/rate-limit';
import type { PracticeRecord, PublishableKeyRecord } from '../domain/records';
import { AppError } from '../errors';
import type { Caller } from './tokens';

/**
 * The credential's revocation and the practice's access gate, cached per container for
 * AUTH_CACHE_TTL_MS (API reference, authentication: a revoked credential's tokens stop within 60 s).
 */
const cache = new BoundedCache<string, CallerAccess>({ max: 10_000 });

/** The caller's standing (cached): the verdict is `assertAccess`'s, the allowed origins CORS's. */
export async function accessOf(caller: Caller): Promise<CallerAccess> {
  // The role is part of the key: the state says whether this credential has THIS role.
  const key = `${caller.medspaId}|${caller.clientId}|${caller.role}`;
  let state = cache.get(key);
  if (!state) {
    state = await readCallerAccess(caller.medspaId, caller.clientId, caller.role);
    cache.set(key, state, config().AUTH_CACHE_TTL_MS);
  }
  return state;
}

export function assertAccess(state: CallerAccess, options: { allowWaitlisted: boolean }): void {
  if (!state.credentialLive) throw new AppError('UNAUTHORIZED');
  if (!state.apiAccessEnabled && !options.allowWaitlisted) throw new AppError('API_ACCESS_NOT_ENABLED');
}

/** A publishable key's standing: its allowed origins, its rate limits and its practice (null when either is gone). */
export interface PublicAccess {
  allowedOrigins: readonly string[];
  rateLimits: KeyRateLimits;
  practice: PracticeRecord | null;
  keyLive: boolean;
}

/** A key's rate limits: its own, or the configured defaults for a key made before keys had them. */
export const rateLimitsOf = (key: Pick<PublishableKeyRecord, 'rate_limits'>): KeyRateLimits =>
  key.rate_limits ?? defaultKeyRateLimits();

/**
 * Keys and practices as this container last read them, for at most AUTH_CACHE_TTL_MS: a deleted
 * key stops, and a changed one's origins and rate limits apply, within 60 s.
 */
const publicCache = new BoundedCache<string, PublicAccess>({ max: 10_000 });

export async function publicAccessOf(medspaId: string, keyId: string): Promise<PublicAccess> {
  const key = `${medspaId}|${keyId}|public`;
  let state = publicCache.get(key);
  if (!state) {
    const found = await readPublicAccess(medspaId, keyId);
    state = {
      keyLive: found.key !== null,
      allowedOrigins: found.key?.allowed_origins ?? [],
      rateLimits: rateLimitsOf(found.key ?? {}),
      practice: found.practice,
    };
    publicCache.set(key, state, config().AUTH_CACHE_TTL_MS);
  }
  return state;
}

/** Called by revocation, key changes and deletion and practice changes so this container sees them at once. */
export function forgetAccess(medspaId: string): void {
  cache.deleteWhere((key) => key.startsWith(`${medspaId}|`));
  publicCache.deleteWhere((key) => key.startsWith(`${medspaId}|`));
}
