import { createHash, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_PARTITIONS, type IndexPartitionName, PARTITIONS, type PartitionName } from '../../../lib/db/keys';
import { DYNAMODB_READ_ACTIONS } from '../../../lib/db/table-writes';
import type { IamRequest } from './dynamodb-requests';
import type { FunctionModel } from './model';

/**
 * IAM evaluation of a function's role, by a maintained policy simulator (@cloud-copilot/iam-simulate,
 * AGPL: a dev and test dependency of the local runtime, never in a Lambda bundle). Only the identity
 * policies decide: the stage grants through roles, and key, queue and bus policies are AWS's
 * defaults (the account may use what its roles allow).
 */

export interface Verdict {
  allowed: boolean;
  /** The statements that allowed it: `<policy>#<Sid or index>`. */
  grants: string[];
}

const verdicts = new Map<string, Promise<Verdict>>();
const MAX_CACHED = 50_000;

/** A statement's name in usage reports: its policy and Sid (or 1-based index). */
export const statementName = (policy: string, statement: { Sid?: string }, index: number) =>
  `${policy}#${statement.Sid ?? index + 1}`;

export async function simulate(fn: FunctionModel, request: IamRequest, account: string): Promise<Verdict> {
  // Imported on the first decision no cache holds: loading it and its action data takes about 1.5 s.
  const { runSimulation } = await import('@cloud-copilot/iam-simulate');
  const result = await runSimulation(
    {
      request: {
        principal: fn.roleArn,
        action: request.action,
        resource: { resource: request.resource, accountId: account },
        contextVariables: request.context,
      },
      identityPolicies: fn.policies.map(({ name, document }) => ({ name, policy: document })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
    },
    {},
  );
  if (result.resultType === 'error')
    throw new Error(`IAM simulation of ${request.action} failed: ${result.errors.message}`);
  const analyses = result.resultType === 'single' ? [result.result] : result.results;
  const identity = analyses.map((entry) => entry.analysis.identityAnalysis);
  const allowed = identity.length > 0 && identity.every((analysis) => analysis?.result === 'Allowed');
  const grants = identity.flatMap((analysis) =>
    (analysis?.allowStatements ?? [])
      .filter((statement) => statement.conditionMatch === 'Match' || statement.conditionMatch === undefined)
      .map((statement) =>
        statementName(statement.policyId, { Sid: statement.statement.sid() }, statement.statement.index() - 1),
      ),
  );
  return { allowed, grants };
}

// ---------------------------------------------------------------------------------------------
// Decisions by key pattern, kept on disk

/**
 * What a role's decision can depend on: its policies (and ARN), and, for `dynamodb:LeadingKeys`,
 * only which of the patterns its policies name each key matches. The roles' only conditions on
 * it are StringLike/StringEquals over literal patterns, so two keys that match the same patterns
 * get the same verdict and the same allowing statements: a decision made for one practice's
 * `P#<id>#CLIENT` holds for every practice's. Any other operator, or a policy variable, and the
 * keys stay in the cache key as they are.
 */
interface RoleShape {
  digest: string;
  /** Per LeadingKeys condition value: how a key is tested against it; undefined: keep keys as they are. */
  tests?: Array<(key: string) => boolean>;
}

const shapes = new WeakMap<FunctionModel, RoleShape>();

function shapeOf(fn: FunctionModel): RoleShape {
  let shape = shapes.get(fn);
  if (shape) return shape;
  const tests: Array<(key: string) => boolean> = [];
  let exact = true;
  for (const { document } of fn.policies) {
    for (const statement of [document.Statement].flat() as Array<{
      Condition?: Record<string, Record<string, unknown>>;
    }>) {
      for (const [operator, keys] of Object.entries(statement.Condition ?? {})) {
        const values = keys['dynamodb:LeadingKeys'];
        if (values === undefined) continue;
        const base = operator.replace(/^For(All|Any)Values:/, '');
        for (const value of [values].flat()) {
          if (typeof value !== 'string' || value.includes('${') || !(base === 'StringLike' || base === 'StringEquals'))
            exact = false;
          else if (base === 'StringLike') {
            const pattern = likePattern(value);
            tests.push((key) => pattern.test(key));
          } else tests.push((key) => key === value);
        }
      }
    }
  }
  const digest = createHash('sha256')
    .update(fn.roleArn)
    .update('\0')
    .update(JSON.stringify(fn.policies))
    .digest('hex')
    .slice(0, 16);
  shape = { digest, tests: exact ? tests : undefined };
  shapes.set(fn, shape);
  return shape;
}

/** The cache key of a decision: role shape, action, resource, and the context by pattern. */
export function decisionKey(fn: FunctionModel, request: IamRequest): string {
  const { digest, tests } = shapeOf(fn);
  const context = Object.entries(request.context)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => {
      if (name !== 'dynamodb:LeadingKeys' || !tests) return [name, value];
      // Each key as the patterns it matches; a set, as ForAllValues/ForAnyValue read the keys.
      const classes = [
        ...new Set([value].flat().map((key) => tests.map((test) => (test(key) ? '1' : '0')).join(''))),
      ].sort();
      return [name, { matches: classes }];
    });
  return `${digest}\n${request.action}\n${request.resource}\n${JSON.stringify(context)}`;
}

/**
 * Decisions survive the process: a test file (its own process) or `npm start` reads those made
 * before, and the simulator loads only for one not seen yet. Kept per simulator version (its data
 * decides too) and per version of this file (it reads the simulator's answer).
 */
const STORE_ROOT = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.cache', 'medspa-api', 'iam-decisions');
let store: { dir: string; file: string } | undefined;
let stored: Map<string, Verdict> | undefined;

function storeDir(): string {
  const hash = createHash('sha256').update(readFileSync(import.meta.filename));
  for (const pkg of ['iam-simulate', 'iam-data', 'iam-policy']) {
    try {
      hash.update(
        readFileSync(
          join(import.meta.dirname, '..', '..', '..', 'node_modules', '@cloud-copilot', pkg, 'package.json'),
        ),
      );
    } catch {
      hash.update(`${pkg}: none`);
    }
  }
  return join(STORE_ROOT, hash.digest('hex').slice(0, 16));
}

function storedDecisions(): Map<string, Verdict> {
  if (stored) return stored;
  stored = new Map();
  if (process.env.LOCAL_IAM_DECISION_CACHE === 'off') return stored;
  const dir = storeDir();
  store = { dir, file: join(dir, `${process.pid}-${randomUUID().slice(0, 8)}.jsonl`) };
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
  } catch {
    return stored;
  }
  for (const file of files) {
    let text = '';
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch {
      continue; // merged away meanwhile (compactDecisions)
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const [key, verdict] = JSON.parse(line) as [string, Verdict];
        stored.set(key, verdict);
      } catch {
        // A line cut short by a process that died mid-write: the simulator decides it again.
      }
    }
  }
  return stored;
}

function remember(key: string, verdict: Verdict): void {
  if (!store) return;
  try {
    mkdirSync(store.dir, { recursive: true });
    appendFileSync(store.file, `${JSON.stringify([key, verdict])}\n`);
  } catch {
    // A cache: failing to keep a decision costs a later simulation, never a wrong answer.
  }
}

/** Merges the store's files into one (a run's teardown), so a later process reads a few files, not one per process. */
export function compactDecisions(): void {
  const dir = storeDir();
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.jsonl'));
  } catch {
    return;
  }
  if (files.length <= 1) return;
  const lines = new Map<string, string>();
  for (const file of files) {
    try {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        try {
          if (line) lines.set(JSON.parse(line)[0], line);
        } catch {
          // cut short: dropped
        }
      }
    } catch {
      // merged by another run meanwhile
    }
  }
  const merged = join(dir, `merged-${randomUUID().slice(0, 8)}.jsonl`);
  writeFileSync(`${merged}.tmp`, `${[...lines.values()].join('\n')}\n`);
  renameSync(`${merged}.tmp`, merged);
  for (const file of files) rmSync(join(dir, file), { force: true });
}

/** Whether the role allows the request (cached per role, action, resource and key pattern; `simulate` uncached). */
export function evaluate(fn: FunctionModel, request: IamRequest, account: string): Promise<Verdict> {
  const key = decisionKey(fn, request);
  let verdict = verdicts.get(key);
  if (!verdict) {
    if (verdicts.size >= MAX_CACHED) verdicts.clear();
    const known = storedDecisions().get(key);
    verdict = known
      ? Promise.resolve(known)
      : simulate(fn, request, account).then((decided) => {
          stored?.set(key, decided);
          remember(key, decided);
          return decided;
        });
    verdicts.set(key, verdict);
  }
  return verdict;
}

/** AWS's message for an action no identity policy allows. */
export function accessDeniedMessage(fn: FunctionModel, request: IamRequest): string {
  const sessionName = fn.functionArn.split(':function:')[1];
  return `User: arn:aws:sts::${fn.roleArn.split(':')[4]}:assumed-role/${fn.roleName}/${sessionName} is not authorized to perform: ${request.action} on resource: ${request.resource} because no identity-based policy allows the ${request.action} action`;
}

/** The error an AWS SDK client throws for AccessDeniedException, for stand-ins that have no client. */
export function accessDeniedError(message: string): Error {
  return Object.assign(new Error(message), {
    name: 'AccessDeniedException',
    $fault: 'client' as const,
    $metadata: { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 },
  });
}

/** An IAM StringLike pattern as a regular expression (`*` any run, `?` one character). */
const likePattern = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
const FAMILIES = (Object.entries(PARTITIONS) as Array<[PartitionName, string]>).map(
  ([name, pattern]) => [name, likePattern(pattern)] as const,
);

const INDEX_FAMILIES = (
  Object.entries(INDEX_PARTITIONS) as Array<[IndexPartitionName, { index: string; pattern: string }]>
).map(([name, { index, pattern }]) => [name, index, likePattern(pattern)] as const);

/** The partition family (PARTITIONS name) a leading key belongs to. */
export const partitionOf = (key: string): PartitionName | undefined =>
  FAMILIES.find(([, pattern]) => pattern.test(key))?.[0];

/** The index partition family (INDEX_PARTITIONS name) a leading key of that index belongs to. */
export const indexPartitionOf = (index: string, key: string): IndexPartitionName | undefined =>
  INDEX_FAMILIES.find(([, of, pattern]) => of === index && pattern.test(key))?.[0];

/** The family a LeadingKeys pattern of a policy names (the patterns are PARTITIONS' and INDEX_PARTITIONS' own). */
export const partitionNamed = (pattern: string): PartitionName | IndexPartitionName | undefined =>
  (Object.entries(PARTITIONS) as Array<[PartitionName, string]>).find(([, value]) => value === pattern)?.[0] ??
  (Object.entries(INDEX_PARTITIONS) as Array<[IndexPartitionName, { pattern: string }]>).find(
    ([, value]) => value.pattern === pattern,
  )?.[0];

/** A write to a partition family, as usage counts it: `partition:<name>|<action>`. */
export const partitionGrant = (partition: string, action: string) => `partition:${partition}|${action}`;

export const partitionReadGrant = (partition: string) => partitionGrant(partition, 'read');

/** The family a read's leading key belongs to: the index's own on `table/<name>/index/<index>`. */
export function readFamilyOf(resource: string, key: string): string {
  const index = /\/index\/([^/]+)$/.exec(resource)?.[1];
  return (index ? indexPartitionOf(index, key) : partitionOf(key)) ?? key;
}

/**
 * What a call used: a write by partition family and action, a read by partition family (one
 * statement covers several families, and each must be seen used), anything else by the statement
 * that allowed it.
 */
export function usedBy(request: IamRequest, statements: string[]): string[] {
  const keys = request.context['dynamodb:LeadingKeys'];
  if (keys && /^dynamodb:(Put|Update|Delete|ConditionCheck)Item$/.test(request.action)) {
    return [keys].flat().map((key) => partitionGrant(partitionOf(key) ?? key, request.action));
  }
  if (keys && (DYNAMODB_READ_ACTIONS as readonly string[]).includes(request.action)) {
    return [keys].flat().map((key) => partitionReadGrant(readFamilyOf(request.resource, key)));
  }
  return statements.map((statement) => `${statement}|${request.action}`);
}
