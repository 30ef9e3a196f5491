import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, tableName } from './client';
import { idempotencyRecordCodec } from './codecs';
import { ignoreFailedCondition, plainItem } from './conditions';
import { idempotencyKey } from './keys';
import type { TransactItem } from './transact-types';

/**
 * A stored response to replay: status, the headers that matter, the body as sent; `body` is null
 * when the answer was too large to keep (see completeIdempotencyKey).
 */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** How a response sits in the item: the body as text, gzip-compressed (Binary), or left out. */
type ResponseAttribute = {
  status: number;
  headers: Record<string, string>;
  body?: string;
  body_gzip?: Uint8Array;
  body_omitted?: true;
};

/**
 * DynamoDB refuses an item over 400 KB (names and values, UTF-8). The record's keys and other
 * attributes take under 2 KB; the rest of this margin is for the headers kept.
 */
export const MAX_STORED_BODY_BYTES = 400 * 1024 - 16 * 1024;
/**
 * From this size a body is stored gzip-compressed: JSON shrinks several fold. DynamoDB bills a
 * write per KB of the whole item, so a created resource's answer (about 1 KB, with the record's
 * other attributes over it) compressed keeps the record's write at one unit, not two (docs/cost.md).
 */
export const COMPRESS_BODY_FROM_BYTES = 512;

/**
 * The stored form of a response. A body the item could not hold even compressed (no route
 * answers one today: a request body is at most 256 KiB and an answer to a POST is the one
 * resource it made) is left out, and a replay then says so (lib/http/idempotency.ts) rather than
 * fail the request that already committed with a 500.
 */
export function responseAttribute(response: StoredResponse): ResponseAttribute {
  const { status, headers, body } = response;
  if (body === null) return { status, headers, body_omitted: true };
  if (Buffer.byteLength(body, 'utf8') < COMPRESS_BODY_FROM_BYTES) return { status, headers, body };
  const compressed = gzipSync(body);
  return compressed.length <= MAX_STORED_BODY_BYTES
    ? { status, headers, body_gzip: compressed }
    : { status, headers, body_omitted: true };
}

const fromAttribute = (stored: ResponseAttribute): StoredResponse => ({
  status: stored.status,
  headers: stored.headers,
  body: stored.body ?? (stored.body_gzip ? gunzipSync(stored.body_gzip).toString('utf8') : null),
});

const recordOf = (item: Record<string, unknown> | undefined): IdempotencyRecord | null => {
  const stored = idempotencyRecordCodec.fromItem(item);
  if (!stored) return null;
  const { response, ...rest } = stored;
  return { ...rest, ...(response ? { response: fromAttribute(response) } : {}) };
};

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
export async function claimIdempotencyKey(
  claim: Claim,
): Promise<{ claimed: true } | { claimed: false; record: IdempotencyRecord | null }> {
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
        ExpressionAttributeValues: {
          ':nowSeconds': Math.floor(claim.now / 1000),
          ':now': claim.now,
          ':inProgress': 'in_progress',
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return { claimed: false, record: recordOf(plainItem(error.Item)) };
  }
}

export async function readIdempotencyRecord(
  medspaId: string,
  clientId: string,
  key: string,
): Promise<IdempotencyRecord | null> {
  const { Item } = await ddb().send(
    new GetCommand({ TableName: tableName(), Key: idempotencyKey(medspaId, clientId, key), ConsistentRead: true }),
  );
  return recordOf(Item);
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

/** Stores the answer for replays (only while this request still holds the claim), in its stored form (responseAttribute). */
export async function completeIdempotencyKey(
  medspaId: string,
  clientId: string,
  key: string,
  lockId: string,
  response: StoredResponse,
): Promise<void> {
  await ddb()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: idempotencyKey(medspaId, clientId, key),
        UpdateExpression: 'SET #status = :completed, #response = :response',
        ConditionExpression: 'lock_id = :lock',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':response': responseAttribute(response),
          ':lock': lockId,
        },
      }),
    )
    .catch(ignoreFailedCondition);
}

/** Gives the key back after a 5xx that committed nothing, so a retry runs the operation. */
export async function releaseIdempotencyKey(
  medspaId: string,
  clientId: string,
  key: string,
  lockId: string,
): Promise<void> {
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
