import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { take, type Bucket, type BucketPolicy, type Decision } from '../domain/rate-limit';
import { ddb, tableName } from './client';
import { rateLimitKey } from './keys';

/** A bucket as stored: `version` moves on every write, so racing containers never both win one state. */
type StoredBucket = Bucket & { version: number };

/** Each container's last known state of each bucket: usually fresh, so a request costs one conditional write. */
const known = new Map<string, StoredBucket>();

const TTL_SECONDS = 3600;

/**
 * Takes a token from the credential's bucket in the table, so the limit holds across Lambda
 * containers: one UpdateItem conditioned on the state this container last saw (or on the item
 * not existing). If another container moved the bucket meanwhile, the condition fails, the item
 * comes back (ALL_OLD) and the decision is made again on it; refusals write nothing.
 */
export async function takeToken(medspaId: string, clientId: string, now: number, policy: BucketPolicy): Promise<Decision> {
  const key = rateLimitKey(medspaId, clientId);
  const id = `${medspaId}|${clientId}`;
  let current = known.get(id) ?? null;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const decision = take(current, now, policy);
    if (!decision.allowed) return decision;
    try {
      await ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET #tokens = :tokens, #at = :at, #version = :next, #entity = :entity, #expires = :expires',
          ConditionExpression: current ? '#version = :seen' : 'attribute_not_exists(pk)',
          ExpressionAttributeNames: { '#tokens': 'tokens', '#at': 'at', '#version': 'version', '#entity': 'entity', '#expires': 'expires_at' },
          ExpressionAttributeValues: {
            ':tokens': decision.next.tokens,
            ':at': decision.next.at,
            ':next': (current?.version ?? 0) + 1,
            ':entity': 'RATE_LIMIT',
            ':expires': Math.floor(now / 1000) + TTL_SECONDS,
            ...(current ? { ':seen': current.version } : {}),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      known.set(id, { ...decision.next, version: (current?.version ?? 0) + 1 });
      return decision;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const item = error.Item as Record<string, { N?: string }> | undefined;
      current = item?.version?.N ? { tokens: Number(item.tokens?.N ?? 0), at: Number(item.at?.N ?? now), version: Number(item.version.N) } : null;
    }
  }
  // Racing containers kept moving it: refuse this one, as a full bucket would not.
  return { ...take({ tokens: 0, at: now }, now, policy) };
}

/** Tests: forget what this process has seen. */
export const forgetRateLimits = () => known.clear();
