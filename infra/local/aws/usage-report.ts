import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DYNAMODB_READ_ACTIONS } from '../../../lib/db/table-writes';
import { partitionGrant, partitionNamed, partitionReadGrant, statementName } from './iam';
import { localAwsModel, type LocalAwsModel } from './model';

/**
 * Least privilege in practice: per role, the grants (statement and action) that no call of the
 * run used. Left out, for their reason, are the grants no local call can show:
 * - the Lambda service's own (logs, X-Ray, and the statements CDK adds without a Sid for event
 *   source mappings and failure destinations: the service polls and forwards, not our code);
 * - what DynamoDB does with the table key on the caller's behalf beyond kms:Decrypt.
 * Reads count by partition family, whichever read action used it (GetItem or BatchGetItem is the
 * number of keys a tick asks for, lib/db/key-reads.ts): each function's caches are its own locally
 * (lib/cache.ts), so its reads are its own calls, as on AWS.
 */

const RUNTIME_ACTIONS = /^(logs|xray):/;

export interface RoleGrants {
  role: string;
  functions: string[];
  unused: string[];
}

/**
 * The request chain's partitions (lib/http/route.ts tableWritesOf): the same middleware code
 * writes them for every route, so a use on any route shows the grant is needed on all.
 */
const CHAIN_PARTITIONS = new Set(['audit', 'rateLimit', 'keyIpRateLimit', 'ipRateLimit', 'idempotency']);
/**
 * The request chain's reads that only some calls make: the Idempotency-Key record is read back
 * only when a key is used again (lib/http/idempotency.ts). Its credential, practice and key checks
 * are read by every function's first call, so those count per role.
 */
const CHAIN_READS = new Set(['idempotency']);

export function unusedGrants(model: LocalAwsModel, used: Record<string, Set<string>>): RoleGrants[] {
  const usedAnywhere = new Set(Object.values(used).flatMap((grants) => [...grants]));
  const byRole = new Map<string, RoleGrants>();
  for (const fn of Object.values(model.functions)) {
    const known = byRole.get(fn.roleName);
    if (known) {
      known.functions.push(fn.name);
      continue;
    }
    const entry: RoleGrants = { role: fn.roleName, functions: [fn.name], unused: [] };
    byRole.set(fn.roleName, entry);
    const wasUsed = (grant: string) => used[fn.roleName]?.has(grant) ?? false;
    for (const policy of fn.policies) {
      [policy.document.Statement].flat().forEach((statement: any, index: number) => {
        if (statement.Effect !== 'Allow') return;
        const name = statementName(policy.name, statement, index);
        const leadingKeys = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as
          | string[]
          | undefined;
        for (const action of [statement.Action].flat() as string[]) {
          if (leadingKeys && (DYNAMODB_READ_ACTIONS as readonly string[]).includes(action)) {
            // A read family once per statement (by any of its actions), not per action.
            if (action !== [statement.Action].flat()[0]) continue;
            for (const partition of leadingKeys.map((pattern) => partitionNamed(pattern) ?? pattern)) {
              const grant = partitionReadGrant(partition);
              if (!(wasUsed(grant) || (CHAIN_READS.has(partition) && usedAnywhere.has(grant))))
                entry.unused.push(`read ${partition}`);
            }
            continue;
          }
          if (leadingKeys) {
            for (const partition of leadingKeys.map((pattern) => partitionNamed(pattern) ?? pattern)) {
              const grant = partitionGrant(partition, action);
              if (!(wasUsed(grant) || (CHAIN_PARTITIONS.has(partition) && usedAnywhere.has(grant))))
                entry.unused.push(`${action.replace('dynamodb:', '')} ${partition}`);
            }
            continue;
          }
          const viaService = JSON.stringify(statement.Condition ?? {}).includes('kms:ViaService');
          const notObservable = RUNTIME_ACTIONS.test(action) || viaService || !statement.Sid;
          if (!notObservable && !wasUsed(`${name}|${action}`)) entry.unused.push(`${statement.Sid} ${action}`);
        }
      });
    }
  }
  return [...byRole.values()];
}

/** Merges the usage files of a run and prints the roles with grants no call used. */
export async function printUnusedGrants(
  usageDir: string,
  print: (line: string) => void = console.log,
): Promise<RoleGrants[]> {
  const used: Record<string, Set<string>> = {};
  const files = readdirSync(usageDir).filter((file) => file.endsWith('.json'));
  if (files.length === 0) return [];
  for (const file of files) {
    for (const [role, grants] of Object.entries(
      JSON.parse(readFileSync(join(usageDir, file), 'utf8')) as Record<string, string[]>,
    )) {
      used[role] ??= new Set();
      for (const grant of grants) used[role].add(grant);
    }
  }
  const report = unusedGrants(await localAwsModel(), used).filter((role) => role.unused.length > 0);
  if (report.length === 0) {
    print('IAM: every grant of every role was used by a call in this run.');
  } else {
    print(`IAM: grants no call used in this run (${files.length} test files), by role:`);
    for (const role of report) print(`  ${role.functions.join(', ')}: ${role.unused.join('; ')}`);
  }
  return report;
}
