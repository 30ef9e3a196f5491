import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Role } from '../auth/roles';
import type { PageRequest } from '../crypto/cursor';
import type { CredentialRecord } from '../domain/records';
import { itemId, readItems } from './key-reads';
import { ddb, tableName } from './client';
import { credentialClientIdCodec, credentialCodec, practiceCodec } from './codecs';
import { getEntity } from './batch';
import { collectionPk, credentialLookupIndexKey, entityKey, practiceKey } from './keys';
import { putNew } from './put-new';
import { absent, listEntities, not, queryFirst, queryOnce, where } from './query';
import type { RequestWrites } from './request-writes';
import { firstFailed, transact, type NamedAction } from './transact';
import { afterUpdate } from './update';

/** The public view: never the hash. */
export const publicCredential = (credential: CredentialRecord) => ({
  client_id: credential.client_id,
  medspa_id: credential.medspa_id,
  name: credential.name,
  role: credential.role,
  created_at: credential.created_at,
  revoked_at: credential.revoked_at ?? null,
});

export type { CredentialRecord };

export const putNewCredential = (credential: CredentialRecord, writes?: RequestWrites) =>
  putNew(credentialCodec, credential, writes);

export const getCredential = (medspaId: string, clientId: string) => getEntity(credentialCodec, medspaId, clientId);

export const listCredentials = (medspaId: string, page: PageRequest) => listEntities(credentialCodec, medspaId, page);

/** For client_ids that do not name their practice (e.g. a configured demo id): the sparse gsi2 lookup. */
export async function findCredentialPractice(clientId: string): Promise<string | null> {
  const { gsi2pk } = credentialLookupIndexKey(clientId);
  const [credential] = await queryOnce(credentialCodec, { partition: gsi2pk, index: 'gsi2', limit: 1 });
  return credential?.medspa_id ?? null;
}

/** What authorises a caller on every request: whether its credential is live with this role, and the practice's access gate. */
export interface CallerAccess {
  credentialLive: boolean;
  apiAccessEnabled: boolean;
  /** Web apps that may call the staff API (the practice's `allowed_origins`). */
  allowedOrigins: readonly string[];
}

/**
 * The credential and the practice in one strongly consistent read. readItems asks again for keys
 * DynamoDB leaves unprocessed: a throttled read of a live credential must not pass for a revoked one.
 */
export async function readCallerAccess(medspaId: string, clientId: string, role: Role): Promise<CallerAccess> {
  const credentialKey = entityKey(medspaId, 'CRED', clientId);
  const key = practiceKey(medspaId);
  const found = await readItems([key, credentialKey]);
  const practice = practiceCodec.fromItem(found.get(itemId(key)));
  const credential = credentialCodec.fromItem(found.get(itemId(credentialKey)));
  return {
    credentialLive: Boolean(credential && !credential.revoked_at && credential.role === role),
    apiAccessEnabled: practice?.api_access === 'enabled',
    allowedOrigins: practice?.allowed_origins ?? [],
  };
}

/** Revokes a credential (again: no change); null when there is no such credential. */
export async function revokeCredential(
  medspaId: string,
  clientId: string,
  now: string,
): Promise<CredentialRecord | null> {
  try {
    const { Attributes } = await ddb().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entityKey(medspaId, 'CRED', clientId),
        UpdateExpression:
          'SET revoked_at = if_not_exists(revoked_at, :now), updated_at = :now, version = version + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now, ':one': 1 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return credentialCodec.fromItem(Attributes)!;
  } catch (error) {
    // Revoking twice is harmless (idempotent); only an unknown id fails.
    if (error instanceof ConditionalCheckFailedException) return null;
    throw error;
  }
}

/**
 * Another live admin credential of the practice than `exceptClientId`, or null: a strongly
 * consistent Query of the practice's credential collection (a handful of items), paged until one
 * is found.
 */
export async function findOtherLiveAdmin(medspaId: string, exceptClientId: string): Promise<string | null> {
  const other = await queryFirst(credentialClientIdCodec, {
    partition: collectionPk(medspaId, 'CRED'),
    projection: ['client_id'],
    consistent: true,
    filter: where<CredentialRecord>({ role: 'admin', revoked_at: absent(), client_id: not(exceptClientId) }),
  });
  return other?.client_id ?? null;
}

export type AdminRevokeResult =
  | { ok: true; credential: CredentialRecord }
  /** The credential is gone, or was revoked meanwhile (the caller decides again from a fresh read). */
  | { ok: false; failed: 'credential' }
  /** The witness admin was revoked meanwhile: pick another (or refuse: it was the last). */
  | { ok: false; failed: 'witness' };

/**
 * Revokes a live admin credential only while `witnessClientId`, another admin of the practice,
 * is still live: the revocation and a ConditionCheck on the witness in ONE transaction. Two admins
 * revoking each other at once each need the other as witness; transactions are serializable, so
 * the second to commit finds its witness revoked and is refused, and a practice never loses its
 * last admin, whatever the concurrency. (New admins only make the check easier to pass.)
 */
export async function revokeAdminCredential(
  current: CredentialRecord,
  witnessClientId: string,
  now: string,
  writes?: RequestWrites,
): Promise<AdminRevokeResult> {
  const medspaId = current.medspa_id;
  const outcome = await transact<NamedAction<'credential' | 'witness'>>(
    [
      {
        name: 'credential',
        action: {
          Update: {
            TableName: tableName(),
            Key: entityKey(medspaId, 'CRED', current.client_id),
            UpdateExpression: 'SET revoked_at = :now, updated_at = :now, version = version + :one',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at) AND version = :version',
            ExpressionAttributeValues: { ':now': now, ':one': 1, ':version': current.version },
          },
        },
      },
      {
        name: 'witness',
        action: {
          ConditionCheck: {
            TableName: tableName(),
            Key: entityKey(medspaId, 'CRED', witnessClientId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at) AND #role = :admin',
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: { ':admin': 'admin' },
          },
        },
      },
    ],
    writes,
  );
  if (outcome.ok) return { ok: true, credential: afterUpdate(current, { revoked_at: now }, now) };
  return { ok: false, failed: firstFailed(outcome.failed, ['credential', 'witness'])!.name };
}

/** Sets a new secret hash and lifts any revocation (the local demo credential, configured by env). */
export async function resetCredentialSecret(
  medspaId: string,
  clientId: string,
  secretHash: string,
  now: string,
): Promise<void> {
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
