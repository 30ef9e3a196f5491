import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { ignoreFailedCondition, plainItem } from './conditions';
import { idempotencyKey } from './keys';
import type { TransactItem } from './transact-types';

/** A stored response to replay: status, the headers that matter, the body as sent. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: 'in_progress' | 'completed';
  lock_id: string;
  /** Epoch ms after which an unfinished, uncommitted claim may be taken over (its request died). */
  locked_until: number;
  /** Set in the change's own transaction: the operation committed, so it must never run again. */
  committed_at?: string;
  response?: StoredResponse;
}

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface Claim {
  medspaId: string;
  clientId: string;
  key: string;
  fingerprint: string;
  lockId: string;
  now: number;
  lockMs: number;
}

/**
 * Claims the key for this request: a Put that succeeds when the key is new, expired, or held by
 * a request that died before committing. Otherwise the record as it is comes back.
 */
export async function claimIdempotencyKey(claim: Claim): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord | null }> {
  try {
    await ddb().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...idempotencyKey(claim.medspaId, claim.clientId, claim.key),
          entity: 'IDEMPOTENCY',
          fingerprint: claim.fingerprint,
          status: 'in_progress',
          lock_id: claim.lockId,
          locked_until: claim.now + claim.lockMs,
          expires_at: Math.floor(claim.now / 1000) + IDEMPOTENCY_TTL_SECONDS,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at < :nowSeconds OR (#status = :inProgress AND locked_until < :now AND attribute_not_exists(committed_at))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': Math.floor(claim.now / 1000), ':now': claim.now, ':inProgress': 'in_progress' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { claimed: false, record: (plainItem(error.Item) as IdempotencyRecord | undefined) ?? null };
  }
}

export async function readIdempotencyRecord(medspaId: string, clientId: string, key: string): Promise<IdempotencyRecord | null> {
  const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: idempotencyKey(medspaId, clientId, key), ConsistentRead: true }));
  return (Item as IdempotencyRecord | undefined) ?? null;
}

/** For the change's own transaction: marks the key's operation as committed, atomically with it. */
export const idempotencyCommitAction = (medspaId: string, clientId: string, key: string, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: idempotencyKey(medspaId, clientId, key),
    UpdateExpression: 'SET committed_at = :at',
    ExpressionAttributeValues: { ':at': at },
  },
});

/** Stores the answer for replays (only while this request still holds the claim). */
export async function completeIdempotencyKey(medspaId: string, clientId: string, key: string, lockId: string, response: StoredResponse): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: idempotencyKey(medspaId, clientId, key),
        UpdateExpression: 'SET #status = :completed, #response = :response',
        ConditionExpression: 'lock_id = :lock',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: { ':completed': 'completed', ':response': response, ':lock': lockId },
      }),
    )
    .catch(ignoreFailedCondition);
}

/** Gives the key back after a 5xx that committed nothing, so a retry runs the operation. */
export async function releaseIdempotencyKey(medspaId: string, clientId: string, key: string, lockId: string): Promise<void> {
  await ddb()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: idempotencyKey(medspaId, clientId, key),
        ConditionExpression: 'lock_id = :lock AND attribute_not_exists(committed_at)',
        ExpressionAttributeValues: { ':lock': lockId },
      }),
    )
    .catch(ignoreFailedCondition);
}
