import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PARTITIONS } from '../../lib/db/keys';
import { decisionKey, simulate, type Verdict } from '../../infra/local/aws/iam';
import { localAwsModel } from '../../infra/local/aws/model';
import type { FunctionModel } from '../../infra/local/aws/model';

/**
 * The IAM decision cache (infra/local/aws/iam.ts) answers a request with a decision made for
 * another practice's keys when the two share a cache key. Sound only if the simulator itself
 * answers every request of one cache key alike (verdict and allowing statements): checked here,
 * uncached, on the roles that name the most partition patterns, for a write and a read of keys
 * of every partition family, alone and paired with the next family's.
 */

/** A key of the family's pattern: every `?` a hex digit, every `*` a random piece. */
const keyOf = (pattern: string) =>
  pattern
    .replace(/\?/g, () => Math.floor(Math.random() * 16).toString(16))
    .replace(/\*/g, () => randomUUID().slice(0, 8));
const FAMILIES = Object.values(PARTITIONS);
const patternCount = (fn: FunctionModel) => JSON.stringify(fn.policies).split('dynamodb:LeadingKeys').length;

describe('IAM decisions cached by key pattern', () => {
  it('requests that share a cache key get the same answer from the simulator', async () => {
    const model = await localAwsModel();
    const roles = [...new Map(Object.values(model.functions).map((fn) => [fn.roleName, fn])).values()].sort(
      (a, b) => patternCount(b) - patternCount(a) || (a.roleName < b.roleName ? -1 : 1),
    );
    let shared = 0;
    for (const fn of roles.slice(0, 3)) {
      const answers = new Map<string, Verdict>();
      for (const action of ['dynamodb:PutItem', 'dynamodb:Query']) {
        for (const [index, pattern] of FAMILIES.entries()) {
          const next = FAMILIES[(index + 1) % FAMILIES.length];
          for (const keys of [
            [keyOf(pattern)],
            [keyOf(pattern)],
            [keyOf(pattern), keyOf(next)],
            [keyOf(next), keyOf(pattern)],
          ]) {
            const request = { action, resource: model.table.arn, context: { 'dynamodb:LeadingKeys': keys } };
            const key = decisionKey(fn, request);
            const verdict = await simulate(fn, request, model.account);
            if (answers.has(key)) {
              shared += 1;
              expect(verdict, `${fn.roleName} ${action} ${keys}`).toEqual(answers.get(key));
            } else answers.set(key, verdict);
          }
        }
      }
      // Both verdicts occur: the keys above reach allowed and denied writes alike.
      expect(new Set([...answers.values()].map((verdict) => verdict.allowed)), fn.roleName).toEqual(
        new Set([true, false]),
      );
    }
    expect(shared).toBeGreaterThan(3 * FAMILIES.length * 2);
  }, 240_000);
});
