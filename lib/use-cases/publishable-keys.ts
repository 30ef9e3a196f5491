import { randomUUID } from 'node:crypto';
import { forgetAccess, publicAccessOf, rateLimitsOf } from '../auth/access';
import { parsePublishableKey, publishableKeyOf } from '../auth/publishable-keys';
import { defaultKeyRateLimits } from '../config';
import {
  deletePublishableKey,
  findPublishableKey,
  putNewPublishableKey,
  updatePublishableKey,
  type PublishableKeyRecord,
} from '../db/publishable-keys';
import type { RequestWrites } from '../db/request-writes';
import { changesNothing, definedFields } from '../db/update';
import {
  changedRateLimits,
  rateLimitProblems,
  type KeyRateLimits,
  type KeyRateLimitsChange,
} from '../domain/rate-limit';
import { AppError } from '../errors';
import { changeFromCurrent } from './change-from-current';
import { failureOf } from './failures';

/** The admin's view: never the practice id, which the key carries anyway. */
export const publicKeyView = (record: PublishableKeyRecord) => ({
  id: record.id,
  key: record.key,
  name: record.name,
  allowed_origins: record.allowed_origins,
  rate_limits: rateLimitsOf(record),
  version: record.version,
  created_at: record.created_at,
  updated_at: record.updated_at,
});

/** `change` over `base`, refused (400 VALIDATION_ERROR) when a client IP's budget would be above the key's overall one. */
function checkedRateLimits(base: KeyRateLimits, change: KeyRateLimitsChange | undefined): KeyRateLimits {
  const limits = changedRateLimits(base, change);
  const problems = rateLimitProblems(limits);
  if (problems.length > 0)
    throw new AppError('VALIDATION_ERROR', `rate_limits: a client IP's budget may not be above the key's overall one`, {
      details: problems,
    });
  return limits;
}

export async function createPublishableKey(
  medspaId: string,
  input: { name: string; allowed_origins: string[]; rate_limits?: KeyRateLimitsChange },
  now: Date,
  writes?: RequestWrites,
) {
  const id = randomUUID();
  const at = now.toISOString();
  const record: PublishableKeyRecord = {
    id,
    medspa_id: medspaId,
    key: publishableKeyOf(medspaId, id),
    name: input.name,
    allowed_origins: input.allowed_origins,
    // Stored whole, so a key keeps the limits it was answered with whatever the defaults become.
    rate_limits: checkedRateLimits(defaultKeyRateLimits(), input.rate_limits),
    version: 1,
    created_at: at,
    updated_at: at,
  };
  return publicKeyView(await putNewPublishableKey(record, writes));
}

/**
 * A PATCH of a key: `rate_limits` is merged field by field over the key's current limits (read
 * first, written on that version). Every container sees the change within AUTH_CACHE_TTL_MS,
 * this one at once.
 */
export async function changePublishableKey(
  medspaId: string,
  id: string,
  input: { name?: string; allowed_origins?: string[]; rate_limits?: KeyRateLimitsChange },
  options: { ifMatch?: number; now: Date },
) {
  const updated = await changeFromCurrent<PublishableKeyRecord, Record<string, unknown>>({
    read: async () => {
      const current = await findPublishableKey(medspaId, id);
      if (!current) throw new AppError('PUBLISHABLE_KEY_NOT_FOUND');
      return current;
    },
    build: (current) => ({
      ...definedFields({ name: input.name, allowed_origins: input.allowed_origins }),
      ...(input.rate_limits ? { rate_limits: checkedRateLimits(rateLimitsOf(current), input.rate_limits) } : {}),
    }),
    unchanged: changesNothing,
    commit: async (changes, current) => {
      const outcome = await updatePublishableKey(medspaId, id, changes, {
        expectedVersion: current.version,
        now: options.now.toISOString(),
      });
      if (!outcome.ok) throw failureOf({ absent: 'PUBLISHABLE_KEY_NOT_FOUND', version: 'VERSION_CONFLICT' }, outcome);
      return outcome.item;
    },
    ifMatch: options.ifMatch,
  });
  forgetAccess(medspaId);
  return publicKeyView(updated);
}

export async function publishableKey(medspaId: string, id: string) {
  const record = await findPublishableKey(medspaId, id);
  if (!record) throw new AppError('PUBLISHABLE_KEY_NOT_FOUND');
  return publicKeyView(record);
}

export async function removePublishableKey(medspaId: string, id: string) {
  const outcome = await deletePublishableKey(medspaId, id);
  if (!outcome.ok)
    throw failureOf({ absent: 'PUBLISHABLE_KEY_NOT_FOUND', version: 'PUBLISHABLE_KEY_NOT_FOUND' }, outcome);
  forgetAccess(medspaId);
  return { id, deleted: true as const };
}

/**
 * The origins that may frame a key's booking page (GET /book): the key's `allowed_origins`, none
 * for a malformed, unknown or deleted key (the page then says it is not set up). Read through the
 * public calls' cached lookup, so a page load costs no read within its 60 s.
 */
export async function framingOriginsOf(key: string): Promise<readonly string[]> {
  const parsed = parsePublishableKey(key);
  if (!parsed) return [];
  return (await publicAccessOf(parsed.medspaId, parsed.keyId)).allowedOrigins;
}
