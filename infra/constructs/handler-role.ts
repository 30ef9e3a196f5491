import { Construct } from 'constructs';
import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { auditPk } from '../../lib/db/keys';

/** Item-level actions only: no table admin, no Scan, no stream. Transactions are authorized by these. */
export const READ_ITEM_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'] as const;
export const WRITE_ITEM_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
] as const;

/**
 * `readWrite`: every item action on the table, Query on its indexes.
 * `readOnly` (groups whose routes are all GET): reads, plus PutItem limited to the audit partitions,
 * since lib/http/handler.ts records denied (401/403) calls of every route in the audit log.
 */
export type TableAccess = 'readWrite' | 'readOnly';

export interface HandlerRoleProps {
  description: string;
  table: ITable;
  signingKey: IKey;
  tableAccess: TableAccess;
  /** kms:Sign on the signing key: only for operations that issue tokens. Everyone gets kms:GetPublicKey. */
  canSign: boolean;
  /** The functions' log groups are named `<logGroupPrefix>/<operation>`: the role may write there only. */
  logGroupPrefix: string;
}

/**
 * One execution role shared by the Lambdas of a route group, its permissions inline (a single
 * CloudFormation resource, and its size does not grow with the number of functions).
 */
export class HandlerRole extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: HandlerRoleProps) {
    super(scope, id);
    const { table, signingKey } = props;
    const tableArn = table.tableArn;
    const indexArn = `${table.tableArn}/index/*`;

    const statements = [
      new PolicyStatement({
        sid: props.tableAccess === 'readWrite' ? 'TableItemsReadWrite' : 'TableItemsRead',
        effect: Effect.ALLOW,
        actions: props.tableAccess === 'readWrite' ? [...READ_ITEM_ACTIONS, ...WRITE_ITEM_ACTIONS] : [...READ_ITEM_ACTIONS],
        resources: [tableArn],
      }),
      new PolicyStatement({ sid: 'IndexQuery', effect: Effect.ALLOW, actions: ['dynamodb:Query'], resources: [indexArn] }),
      new PolicyStatement({
        sid: props.canSign ? 'TokenSigning' : 'TokenVerification',
        effect: Effect.ALLOW,
        actions: props.canSign ? ['kms:GetPublicKey', 'kms:Sign'] : ['kms:GetPublicKey'],
        resources: [signingKey.keyArn],
      }),
    ];
    statements.push(
      new PolicyStatement({
        sid: 'WriteOwnLogs',
        effect: Effect.ALLOW,
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [
          Stack.of(this).formatArn({
            service: 'logs',
            resource: 'log-group',
            resourceName: `${props.logGroupPrefix}/*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    if (props.tableAccess === 'readOnly') {
      statements.push(
        new PolicyStatement({
          sid: 'AuditWrite',
          effect: Effect.ALLOW,
          actions: ['dynamodb:PutItem'],
          resources: [tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [auditPk('*')] } },
        }),
      );
    }

    this.role = new Role(this, 'Role', {
      description: props.description,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: { Data: new PolicyDocument({ statements }) },
    });
  }
}
