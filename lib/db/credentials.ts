import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Role } from '../auth/roles';
import { AppError } from '../errors';
import { ddb, tableName } from './client';
import { fromItem, getEntity, listEntities, putNewEntity } from './entities';
import type { PageRequest } from './cursor';
import { credentialLookupIndexKey, entityKey } from './keys';

export interface CredentialRecord {
  id: string;
  client_id: string;
  medspa_id: string;
  name: string;
  role: Role;
  secret_hash: string;
  revoked_at?: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** The public view: never the hash. */
export const publicCredential = (credential: CredentialRecord) => ({
  client_id: credential.client_id,
  medspa_id: credential.medspa_id,
  name: credential.name,
  role: credential.role,
  created_at: credential.created_at,
  revoked_at: credential.revoked_at ?? null,
});

export const putNewCredential = (credential: CredentialRecord) =>
  putNewEntity(credential.medspa_id, 'CRED', credential, credentialLookupIndexKey(credential.client_id));

export const getCredential = (medspaId: string, clientId: string) => getEntity<CredentialRecord>(medspaId, 'CRED', clientId);

export const listCredentials = (medspaId: string, page: PageRequest) =>
  listEntities<CredentialRecord>(medspaId, 'CRED', page);

/** For client_ids that do not name their practice (e.g. a configured demo id): the sparse gsi2 lookup. */
export async function findCredentialPractice(clientId: string): Promise<string | null> {
  const { gsi2pk } = credentialLookupIndexKey(clientId);
  const { Items } = await ddb().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi2pk },
      Limit: 1,
    }),
  );
  return (Items?.[0]?.medspa_id as string | undefined) ?? null;
}

export async function revokeCredential(medspaId: string, clientId: string, now: string): Promise<CredentialRecord> {
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, 'CRED', clientId),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now), updated_at = :now, version = version + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem<CredentialRecord>(Attributes)!;
  } catch (error) {
    // Revoking twice is harmless (idempotent); only an unknown id fails.
    if (error instanceof ConditionalCheckFailedException) throw new AppError('CREDENTIAL_NOT_FOUND');
    throw error;
  }
}

/** Sets a new secret hash and lifts any revocation (the local demo credential, configured by env). */
export async function resetCredentialSecret(medspaId: string, clientId: string, secretHash: string, now: string): Promise<void> {
  await ddb().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: entityKey(medspaId, 'CRED', clientId),
      UpdateExpression: 'SET secret_hash = :hash, updated_at = :now, version = version + :one REMOVE revoked_at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':hash': secretHash, ':now': now, ':one': 1 },
    }),
  );
}
