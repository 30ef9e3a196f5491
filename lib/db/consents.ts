import type { PageRequest } from '../crypto/cursor';
import type { ConsentRecord } from '../domain/records';
import { tableName } from './client';
import { consentCodec } from './codecs';
import { DataFailure } from './failure';
import { consentsPk, entityKey } from './keys';
import { queryOnce, queryPage, type Page } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction } from './transact';

/**
 * Signed consent forms: one partition per client (keys.ts `consentKey`), sorted by signing time.
 * `entity: 'CONSENT'` tells the table stream a consent from other items (contract event `consent.signed`).
 */

/** Stores the consent if its client is still live, in one transaction (a racing client deletion wins: `client` failed). */
export async function putConsent(
  consent: ConsentRecord,
  writes?: RequestWrites,
): Promise<{ ok: true } | { ok: false; failed: 'client' }> {
  const { medspa_id: medspaId, client_id: clientId } = consent;
  const outcome = await transact<NamedAction<'consent' | 'client'>>(
    [
      {
        name: 'consent',
        action: {
          Put: {
            TableName: tableName(),
            Item: consentCodec.toItem(consent),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      {
        name: 'client',
        action: {
          ConditionCheck: {
            TableName: tableName(),
            Key: entityKey(medspaId, 'CLIENT', clientId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
          },
        },
      },
    ],
    writes,
  );
  if (outcome.ok) return outcome;
  if (firstFailed(outcome.failed, ['client'])) return { ok: false, failed: 'client' };
  throw new DataFailure('collision', `consent ${consent.id} already exists`);
}

/** A page of the client's consents, newest signed first, with `total`. */
export const listConsentsOf = (medspaId: string, clientId: string, page: PageRequest): Promise<Page<ConsentRecord>> =>
  queryPage(consentCodec, {
    partition: consentsPk(medspaId, clientId),
    ...page,
    descending: true,
  });

/** The client's latest `max` consents, newest signed first: one Query. */
export async function latestConsentsOf(medspaId: string, clientId: string, max: number): Promise<ConsentRecord[]> {
  return queryOnce(consentCodec, {
    partition: consentsPk(medspaId, clientId),
    descending: true,
    limit: max,
    consistent: true,
  });
}
