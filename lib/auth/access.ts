import { config } from '../config';
import { batchGetKeys, itemId } from '../db/entities';
import { entityKey, practiceKey } from '../db/keys';
import { AppError } from '../errors';
import type { Caller } from './tokens';

interface AccessState {
  credentialLive: boolean;
  apiAccessEnabled: boolean;
  expiresAt: number;
}

/**
 * The credential's revocation and the practice's access gate, cached per container for
 * AUTH_CACHE_TTL_MS (contract: a revoked credential's tokens stop within 60 s).
 */
const cache = new Map<string, AccessState>();

async function loadAccess(caller: Caller): Promise<AccessState> {
  const credentialKey = entityKey(caller.medspaId, 'CRED', caller.clientId);
  const key = practiceKey(caller.medspaId);
  // batchGetKeys asks again for keys DynamoDB leaves unprocessed: a throttled read of a live
  // credential must not pass for a revoked one (a 401, cached for AUTH_CACHE_TTL_MS).
  const found = await batchGetKeys([key, credentialKey]);
  const practice = found.get(itemId(key));
  const credential = found.get(itemId(credentialKey));
  return {
    credentialLive: Boolean(credential && !credential.revoked_at && credential.role === caller.role),
    apiAccessEnabled: practice?.api_access === 'enabled',
    expiresAt: Date.now() + config().AUTH_CACHE_TTL_MS,
  };
}

export async function assertAccess(caller: Caller, options: { allowWaitlisted: boolean }): Promise<void> {
  // The role is part of the key: the state says whether this credential has THIS role.
  const key = `${caller.medspaId}|${caller.clientId}|${caller.role}`;
  let state = cache.get(key);
  if (!state || state.expiresAt <= Date.now()) {
    state = await loadAccess(caller);
    cache.set(key, state);
  }
  if (!state.credentialLive) throw new AppError('UNAUTHORIZED');
  if (!state.apiAccessEnabled && !options.allowWaitlisted) throw new AppError('API_ACCESS_NOT_ENABLED');
}

/** Called by revocation and practice changes so this container sees them at once. */
export function forgetAccess(medspaId: string): void {
  for (const key of cache.keys()) if (key.startsWith(`${medspaId}|`)) cache.delete(key);
}

