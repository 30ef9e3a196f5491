import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../errors';
import type { ConsentRecord } from '../domain/records';
import { ddb, tableName } from './client';
import { consentCodec } from './codecs';
import { queryPage, type Page } from './entities';
import type { PageRequest } from './cursor';
import { consentsPk, entityKey } from './keys';
import type { RequestWrites } from './request-writes';
import { transact } from './transact';

/**
 * Signed consent forms: one partition per client (keys.ts `consentKey`), sorted by signing time.
 * `entity: 'CONSENT'` tells the table stream a consent from other items (contract event `consent.signed`).
 */

/** Stores the consent if its client is still live, in one transaction (a racing client deletion wins: CLIENT_NOT_FOUND). */
export async function putConsent(consent: ConsentRecord, writes?: RequestWrites): Promise<void> {
  const { medspa_id: medspaId, client_id: clientId } = consent;
  const outcome = await transact([
    { name: 'consent', action: {
      Put: {
        TableName: tableName(),
        Item: consentCodec.toItem(consent),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    } },
    { name: 'client', action: {
      ConditionCheck: {
        TableName: tableName(),
        Key: entityKey(medspaId, 'CLIENT', clientId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleted_at)',
      },
    } },
  ], writes);
  if (outcome.ok) return;
  if (outcome.failed.has('client')) throw new AppError('CLIENT_NOT_FOUND');
  throw new Error('consent write: consent id collision');
}

/** A page of the client's consents, newest signed first, with `total`. */
export const listConsentsOf = (medspaId: string, clientId: string, page: PageRequest): Promise<Page<ConsentRecord>> =>
  queryPage<ConsentRecord>({ keyCondition: { name: 'pk', value: consentsPk(medspaId, clientId) }, ...page, descending: true });

/** The client's latest `max` consents, newest signed first: one Query. */
export async function latestConsentsOf(medspaId: string, clientId: string, max: number): Promise<ConsentRecord[]> {
  const { Items = [] } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': consentsPk(medspaId, clientId) },
      ScanIndexForward: false,
      Limit: max,
      ConsistentRead: true,
    }),
  );
  return Items.map((item) => consentCodec.fromItem(item)!);
}
