import { Construct } from 'constructs';
import {
  type AddToPrincipalPolicyResult,
  ManagedPolicy,
  type PolicyStatement,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { mergeReads, mergeWrites, type TableReads, type TableWrites } from '../../lib/db/table-writes';
import { acknowledge } from './nag';

export interface FunctionRoleProps {
  description: string;
}

/**
 * A Lambda execution role whose every permission, ours and the ones CDK adds (X-Ray, event source
 * mappings), lands in ONE customer-managed policy attached to it: no inline policies (HIPAA
 * IAMNoInlinePolicy), no AWS managed policies, a single place to read what a function may do.
 */
class ManagedPolicyRole extends Role {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, description: string) {
    super(scope, id, { description, assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.policy = new ManagedPolicy(this, 'Policy', { description, roles: [this] });
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.policy.addStatements(statement);
    return { statementAdded: true, policyDependable: this.policy };
  }
}

/**
 * The role one or more functions run with. Shared roles (a route group's readers, its writers)
 * keep stacks small; `grantOnce` makes a statement idempotent across the functions sharing it, and
 * `claimTableAccess` refuses to let functions with different declared reads or writes share one role.
 */
export class FunctionRole extends Construct {
  readonly role: Role;
  private readonly granted = new Set<string>();
  private readonly tableWrites = new Map<string, string>();

  constructor(scope: Construct, id: string, props: FunctionRoleProps) {
    super(scope, id);
    this.role = new ManagedPolicyRole(this, 'Role', props.description);
    acknowledge(this, {
      'AwsSolutions-IAM5[Resource::*]':
        'Only actions without resource-level permissions get Resource "*": xray:PutTraceSegments and xray:PutTelemetryRecords (every function may send traces: active, or passing through a caller trace) and, for the stream consumer, dynamodb:ListStreams (test/infra asserts no other action has it).',
    });
  }

  /** Adds the statement the first time `key` is seen on this role. */
  grantOnce(key: string, statement: () => PolicyStatement): void {
    if (this.granted.has(key)) return;
    this.granted.add(key);
    this.role.addToPrincipalPolicy(statement());
  }

  /** Every function on a role declares the same reads and writes, or the role would hold the union. */
  claimTableAccess(tableKey: string, writes: TableWrites, reads: TableReads): void {
    const declared = tableAccessSignature(writes, reads);
    const existing = this.tableWrites.get(tableKey);
    if (existing !== undefined && existing !== declared) {
      throw new Error(
        `${this.node.path}: functions reading and writing ${existing} and ${declared} cannot share a role`,
      );
    }
    this.tableWrites.set(tableKey, declared);
  }
}

/** A canonical text of a function's table declarations (merging sorts and dedupes): equal declarations, equal text (role sharing keys on it). */
export const tableAccessSignature = (writes: TableWrites, reads: TableReads) =>
  JSON.stringify({ reads: mergeReads(reads), writes: mergeWrites(writes) });
