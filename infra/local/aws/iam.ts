import { runSimulation } from '@cloud-copilot/iam-simulate';
import { PARTITIONS, type PartitionName } from '../../../lib/db/keys';
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
export const statementName = (policy: string, statement: { Sid?: string }, index: number) => `${policy}#${statement.Sid ?? index + 1}`;

async function simulate(fn: FunctionModel, request: IamRequest, account: string): Promise<Verdict> {
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
  if (result.resultType === 'error') throw new Error(`IAM simulation of ${request.action} failed: ${result.errors.message}`);
  const analyses = result.resultType === 'single' ? [result.result] : result.results;
  const identity = analyses.map((entry) => entry.analysis.identityAnalysis);
  const allowed = identity.length > 0 && identity.every((analysis) => analysis?.result === 'Allowed');
  const grants = identity.flatMap((analysis) =>
    (analysis?.allowStatements ?? [])
      .filter((statement) => statement.conditionMatch === 'Match' || statement.conditionMatch === undefined)
      .map((statement) => statementName(statement.policyId, { Sid: statement.statement.sid() }, statement.statement.index() - 1)),
  );
  return { allowed, grants };
}

/** Whether the role allows the request (cached per role and request). */
export function evaluate(fn: FunctionModel, request: IamRequest, account: string): Promise<Verdict> {
  const key = `${fn.roleArn}\n${request.action}\n${request.resource}\n${JSON.stringify(request.context)}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    if (verdicts.size >= MAX_CACHED) verdicts.clear();
    verdict = simulate(fn, request, account);
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
const likePattern = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
const FAMILIES = (Object.entries(PARTITIONS) as Array<[PartitionName, string]>).map(([name, pattern]) => [name, likePattern(pattern)] as const);

/** The partition family (PARTITIONS name) a leading key belongs to. */
export const partitionOf = (key: string): PartitionName | undefined => FAMILIES.find(([, pattern]) => pattern.test(key))?.[0];

/** The family a LeadingKeys pattern of a policy names (the patterns are PARTITIONS' own). */
export const partitionNamed = (pattern: string): PartitionName | undefined => (Object.entries(PARTITIONS) as Array<[PartitionName, string]>).find(([, value]) => value === pattern)?.[0];

/** A write to a partition family, as usage counts it: `partition:<name>|<action>`. */
export const partitionGrant = (partition: string, action: string) => `partition:${partition}|${action}`;

/**
 * What a call used: a write by partition family and action (one statement covers several
 * families, and each must be seen used), anything else by the statement that allowed it.
 */
export function usedBy(request: IamRequest, statements: string[]): string[] {
  const keys = request.context['dynamodb:LeadingKeys'];
  if (keys && /^dynamodb:(Put|Update|Delete|ConditionCheck)Item$/.test(request.action)) {
    return [keys].flat().map((key) => partitionGrant(partitionOf(key) ?? key, request.action));
  }
  return statements.map((statement) => `${statement}|${request.action}`);
}
