import { BoundedCache } from '../cache';
import { config } from '../config';
import { readCallerAccess, type CallerAccess } from '../db/credentials';
import { AppError } from '../errors';
import type { Caller } from './tokens';

/**
 * The credential's revocation and the practice's access gate, cached per container for
 * AUTH_CACHE_TTL_MS (API reference, authentication: a revoked credential's tokens stop within 60 s).
 */
const cache = new BoundedCache<string, CallerAccess>({ max: 10_000 });

export async function assertAccess(caller: Caller, options: { allowWaitlisted: boolean }): Promise<void> {
  // The role is part of the key: the state says whether this credential has THIS role.
  const key = `${caller.medspaId}|${caller.clientId}|${caller.role}`;
  let state = cache.get(key);
  if (!state) {
    state = await readCallerAccess(caller.medspaId, caller.clientId, caller.role);
    cache.set(key, state, config().AUTH_CACHE_TTL_MS);
  }
  if (!state.credentialLive) throw new AppError('UNAUTHORIZED');
  if (!state.apiAccessEnabled && !options.allowWaitlisted) throw new AppError('API_ACCESS_NOT_ENABLED');
}

/** Called by revocation and practice changes so this container sees them at once. */
export function forgetAccess(medspaId: string): void {
  cache.deleteWhere((key) => key.startsWith(`${medspaId}|`));
}
