import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BoundedCache } from '../cache';
import { take, type Bucket, type BucketPolicy, type Decision } from '../domain/rate-limit';
import { retry } from '../retry';
import { ddb, tableName } from './client';
import { plainItem } from './conditions';
import type { Key } from './keys';

/** A bucket as stored: `version` moves on every write, so racing containers never both win one state. */
type StoredBucket = Bucket & { version: number };

/**
 * Each container's last known state of each bucket: usually fresh, so a request costs one
 * conditional write. Bounded: a forgotten bucket costs one failed condition, never a wrong answer.
 */
const known = new BoundedCache<string, StoredBucket>({ max: 10_000 });

const bucketId = (key: Key) => `${key.pk}|${key.sk}`;

const TTL_SECONDS = 3600;
/** Parallel requests of one credential a take is sure to see through (each round, one of them wins). */
const MAX_RACING_REQUESTS = 64;

/**
 * Takes a token from a bucket (a credential's or a client IP's, lib/db/keys.ts) in the table, so the limit holds across Lambda
 * containers: one UpdateItem conditioned on the state this container last saw, or on the bucket
 * being full anyway (untouched for the time it takes to refill, or not there): then any stored
 * state decides alike, so a cold container's first request is one write, not a failed one and a
 * retry. If another container moved the bucket meanwhile, the condition fails, the item comes back
 * (ALL_OLD) and the decision is made again on it; refusals write nothing.
 */
export async function takeToken(key: Key, now: number, policy: BucketPolicy): Promise<Decision> {
  const id = bucketId(key);
  let current = known.get(id) ?? null;
  const fullSince = now - (policy.burst / policy.rps) * 1000;
  return retry<Decision>(
    async () => {
      const decision = take(current, now, policy);
      if (!decision.allowed) return { done: decision };
      // Without a seen state, the decision above is a full bucket's: right only if the bucket is full.
      const fresh = current ? '#version = :seen' : 'attribute_not_exists(pk)';
      try {
        const { Attributes } = await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: 'SET #tokens = :tokens, #at = :at, #version = if_not_exists(#version, :zero) + :one, #entity = :entity, #expires = :expires',
            ConditionExpression: `${fresh} OR #at <= :fullSince`,
            ExpressionAttributeNames: { '#tokens': 'tokens', '#at': 'at', '#version': 'version', '#entity': 'entity', '#expires': 'expires_at' },
            ExpressionAttributeValues: {
              ':tokens': decision.next.tokens,
              ':at': decision.next.at,
              ':zero': 0,
              ':one': 1,
              ':fullSince': fullSince,
              ':entity': 'RATE_LIMIT',
              ':expires': Math.floor(now / 1000) + TTL_SECONDS,
              ...(current ? { ':seen': current.version } : {}),
            },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        known.set(id, { ...decision.next, version: Number(Attributes?.version) });
        return { done: decision };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const stored = plainItem(error.Item);
        current = typeof stored?.version === 'number' ? { tokens: Number(stored.tokens ?? 0), at: Number(stored.at ?? now), version: stored.version } : null;
        // The state that won is in hand: decide again at once.
        return { retry: 'now' };
      }
    },
    {
      // Each failed condition means another request took a token: a burst of N parallel requests needs
      // up to N rounds for the last one, and refusing earlier would answer 429 with tokens left.
      attempts: Math.min(policy.burst, MAX_RACING_REQUESTS) + 1,
      // Racing containers kept moving it: refuse this one, as a full bucket would not.
      exhausted: () => take({ tokens: 0, at: now }, now, policy),
    },
  );
}

/**
 * Whether this container expects the bucket to give a token now, from the state it last saw (a
 * bucket it has not seen is expected full): no round trip. A request expected to be refused waits
 * for the verdict before it reads anything (lib/http/auth.ts).
 */
export function expectsToken(key: Key, now: number, policy: BucketPolicy): boolean {
  return take(known.get(bucketId(key)) ?? null, now, policy).allowed;
}

/** Tests: forget what this process has seen. */
export const forgetRateLimits = () => known.clear();
