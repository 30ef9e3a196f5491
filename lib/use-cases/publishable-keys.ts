import { randomUUID } from 'node:crypto';
import { forgetAccess, publicAccessOf } from '../auth/access';
import { parsePublishableKey, publishableKeyOf } from '../auth/publishable-keys';
import { deletePublishableKey, putNewPublishableKey, type PublishableKeyRecord } from '../db/publishable-keys';
import type { RequestWrites } from '../db/request-writes';
import { failureOf } from './failures';

/** The admin's view: never the practice id, which the key carries anyway. */
export const publicKeyView = (record: PublishableKeyRecord) => ({
  id: record.id,
  key: record.key,
  name: record.name,
  allowed_origins: record.allowed_origins,
  created_at: record.created_at,
});

export async function createPublishableKey(medspaId: string, input: { name: string; allowed_origins: string[] }, now: Date, writes?: RequestWrites) {
  const id = randomUUID();
  const at = now.toISOString();
  const record: PublishableKeyRecord = {
    id,
    medspa_id: medspaId,
    key: publishableKeyOf(medspaId, id),
    name: input.name,
    allowed_origins: input.allowed_origins,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  return publicKeyView(await putNewPublishableKey(record, writes));
}

export async function removePublishableKey(medspaId: string, id: string) {
  const outcome = await deletePublishableKey(medspaId, id);
  if (!outcome.ok) throw failureOf({ absent: 'PUBLISHABLE_KEY_NOT_FOUND', version: 'PUBLISHABLE_KEY_NOT_FOUND' }, outcome);
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
