import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BoundedCache } from '../cache';
import {
  givesToken,
  intervalOf,
  newerTat,
  planTake,
  refused,
  taken,
  type BucketPolicy,
  type Decision,
} from '../domain/rate-limit';
import { retry } from '../retry';
import { ddb, tableName } from './client';
import { itemId } from './key-reads';
import { plainItem } from './conditions';
import { ipRateLimitKey, keyIpRateLimitKey, rateLimitKey, type Key } from './keys';

/** A token bucket, by its item's key (lib/db/keys.ts): callers name whose budget, never the key. */
export type Bucket = Key;
/** A credential's budget, or a publishable key's overall one. */
export const credentialBucket = (medspaId: string, clientId: string): Bucket => rateLimitKey(medspaId, clientId);
/** One client IP's budget on one publishable key. */
export const keyIpBucket = (medspaId: string, keyId: string, sourceIp: string): Bucket =>
  keyIpRateLimitKey(medspaId, keyId, sourceIp);
/** A client IP's budget before its caller is known. */
export const ipBucket = (sourceIp: string): Bucket => ipRateLimitKey(sourceIp);

/**
 * Each container's last known `tat` of each bucket (lib/domain/rate-limit.ts): it picks the write
 * that usually succeeds at once. Bounded: a forgotten bucket costs one failed condition, never a
 * wrong answer.
 */
const known = new BoundedCache<string, number>({ max: 10_000 });

/** Keeps the newer of what this container knew and what a write just told it (answers arrive in any order). */
function remember(id: string, tat: number, now: number, policy: BucketPolicy) {
  known.set(id, newerTat(known.get(id) ?? null, tat, now, policy));
}

const TTL_SECONDS = 3600;
/**
 * Tries of one take: `tat` only ever grows while clocks agree, so a try fails at most twice (a
 * busy write on a bucket gone idle, then an idle write on one made busy again meanwhile); the third
 * decides. One more for a `tat` from a clock far ahead, read as full (CLOCK_SKEW_MS).
 */
const TAKE_ATTEMPTS = 4;

/**
 * Takes a token from a bucket (a credential's or a client IP's, lib/db/keys.ts) in the table, so
 * the limit holds across Lambda containers: one UpdateItem. On a busy bucket it adds one interval
 * to the stored `tat` under the condition that it stays within the burst, an increment that any
 * number of parallel requests apply in turn, each judged on the sum before it: a burst of N
 * parallel requests gets exactly min(N, tokens left) tokens, and none is refused while a token
 * is left. On an idle bucket (or one never seen) it sets `tat` to one interval from now, under
 * the condition that it is still idle. A failed condition brings the stored `tat` back (ALL_OLD)
 * to decide again on; refusals write nothing.
 */
export async function takeToken(key: Bucket, now: number, policy: BucketPolicy): Promise<Decision> {
  const id = itemId(key);
  let seen = known.get(id) ?? null;
  return retry<Decision>(
    async () => {
      const plan = planTake(seen, now, policy);
      if (plan.kind === 'refuse') return { done: plan.decision };
      const interval = intervalOf(policy);
      try {
        const { Attributes } = await ddb().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: key,
            UpdateExpression: `SET #tat = ${plan.kind === 'idle' ? ':next' : '#tat + :interval'}, #entity = :entity, #expires = :expires`,
            ConditionExpression:
              plan.kind === 'idle'
                ? 'attribute_not_exists(#tat) OR #tat <= :now OR #tat > :horizon'
                : '#tat > :now AND #tat <= :latest',
            ExpressionAttributeNames: { '#tat': 'tat', '#entity': 'entity', '#expires': 'expires_at' },
            ExpressionAttributeValues: {
              ':now': now,
              ...(plan.kind === 'idle'
                ? { ':next': now + interval, ':horizon': plan.horizon }
                : { ':interval': interval, ':latest': plan.latest }),
              ':entity': 'RATE_LIMIT',
              ':expires': Math.floor(now / 1000) + TTL_SECONDS,
            },
            ReturnValues: 'UPDATED_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        );
        const tat = Number(Attributes?.tat);
        remember(id, tat, now, policy);
        return { done: taken(tat, now, policy) };
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const stored = plainItem(error.Item)?.tat;
        seen = typeof stored === 'number' ? stored : null;
        if (seen !== null) remember(id, seen, now, policy);
        // The state that won is in hand: decide again at once.
        return { retry: 'now' };
      }
    },
    {
      attempts: TAKE_ATTEMPTS,
      // Unreachable while clocks agree: refuse rather than answer without a decision.
      exhausted: () => refused(seen ?? now, now, policy),
    },
  );
}

/**
 * Whether this container expects the bucket to give a token now, from the state it last saw (a
 * bucket it has not seen is expected full): no round trip. A request expected to be refused waits
 * for the verdict before it reads anything (lib/http/auth.ts).
 */
export function expectsToken(key: Bucket, now: number, policy: BucketPolicy): boolean {
  return givesToken(known.get(itemId(key)) ?? null, now, policy);
}

/** Tests: forget what this process has seen. */
export const forgetRateLimits = () => known.clear();
