import { join } from 'node:path';
import { Construct } from 'constructs';
import { ArnFormat, Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  type ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { secretArnEnv, type SecretName } from '../../lib/crypto/named-secret';
import { INDEX_PARTITIONS, type IndexPartitionName, PARTITIONS, type PartitionName } from '../../lib/db/keys';
import {
  DYNAMODB_READ_ACTIONS,
  DYNAMODB_WRITE_ACTION,
  mergeReads,
  type TableReads,
  type TableWrites,
  type WriteAction,
} from '../../lib/db/table-writes';
import type { FilesBeside, PhotoAccess } from '../../lib/http/route';
import { PHOTO_OBJECT_PREFIX } from '../../lib/domain/photos';
import { TOKEN_PUBLIC_KEY_ENV } from '../../lib/auth/token-key';
import { EVENT_BUS_ENV, queueUrlEnv } from '../../lib/workers';
import { lambdaBundling, sourceMapEnvironment } from './bundling';
import { FunctionRole } from './function-role';
import { acknowledge, bothPacks, wildcardResourceFinding } from './nag';

/**
 * The declared reads as statements: the table's partition families (GetItem, BatchGetItem, Query
 * on the table), then per index its families (Query on `table/<name>/index/<index>`, where
 * `dynamodb:LeadingKeys` is the index's partition key value). Indexes nobody reads get nothing.
 */
export function readStatements(
  reads: TableReads,
): Array<{ index?: string; actions: readonly string[]; patterns: string[] }> {
  const families = mergeReads(reads);
  const table = families.filter((family): family is PartitionName => family in PARTITIONS);
  const statements: Array<{ index?: string; actions: readonly string[]; patterns: string[] }> = [];
  if (table.length > 0)
    statements.push({ actions: DYNAMODB_READ_ACTIONS, patterns: table.map((name) => PARTITIONS[name]) });
  const byIndex = new Map<string, string[]>();
  for (const family of families) {
    if (!(family in INDEX_PARTITIONS)) continue;
    const { index, pattern } = INDEX_PARTITIONS[family as IndexPartitionName];
    byIndex.set(index, [...(byIndex.get(index) ?? []), pattern]);
  }
  for (const [index, patterns] of [...byIndex].sort(([a], [b]) => (a < b ? -1 : 1)))
    statements.push({ index, actions: ['dynamodb:Query'], patterns });
  return statements;
}

/** The declared writes grouped by their set of IAM actions: one statement each, listing its partitions. */
export function writeStatements(writes: TableWrites): Array<[string[], PartitionName[]]> {
  const groups = new Map<string, PartitionName[]>();
  for (const [partition, actions] of Object.entries(writes) as Array<[PartitionName, readonly WriteAction[]]>) {
    const key = [...actions]
      .sort()
      .map((action) => DYNAMODB_WRITE_ACTION[action])
      .join(',');
    groups.set(key, [...(groups.get(key) ?? []), partition]);
  }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, partitions]) => [key.split(','), partitions.sort()]);
}

/** Log groups and their encryption: the same for every function of a stage. */
export interface FunctionLogs {
  key: IKey;
  retention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

export interface AppFunctionProps {
  /** Absolute path of the handler module (exports `handler`). */
  entry: string;
  projectRoot: string;
  description: string;
  logGroupName: string;
  logs: FunctionLogs;
  /**
   * A role shared with other functions (a route group's readers or writers). Its log statement
   * must cover `logGroupName` (see `allowLogGroupsUnder`). Omitted: the function gets its own role,
   * allowed to write to its own log group only.
   */
  role?: FunctionRole;
  environment?: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  reservedConcurrency?: number;
  /** For asynchronously invoked functions (schedules): failed invocations land here. */
  deadLetterQueue?: IQueue;
  /** Files deployed beside the bundle (the route row's `filesBeside`). */
  filesBeside?: FilesBeside;
  /**
   * X-Ray: `active` (Lambda samples the first request each second and 5% of the rest) or
   * `passThrough` (traced only when the caller's trace header says so: never, behind an HTTP API).
   * Default active; hot read routes pass through (docs/decisions/0023, `routeTracing`).
   */
  tracing?: FunctionTracing;
}

export type FunctionTracing = 'active' | 'passThrough';

/**
 * Lambda's advanced logging: JSON lines, the application's level from LOG_LEVEL (Powertools and
 * Lambda agree on it), and platform lines only from WARN up, so no START, END or REPORT line per
 * invocation (Duration and errors stay in the function's CloudWatch metrics).
 */
export const functionLogging = (logLevel: string | undefined) => ({
  loggingFormat: LoggingFormat.JSON,
  systemLogLevelV2: SystemLogLevel.WARN,
  applicationLogLevelV2: (logLevel ?? 'INFO') as ApplicationLogLevel,
});

/**
 * THE function construct: nodejs22.x on arm64, bundled with the local esbuild (./bundling.ts: ESM,
 * minified, the AWS SDK inside), X-Ray as `tracing` says, JSON logs without platform lines
 * (`functionLogging`), its own KMS-encrypted log group with a retention.
 * What it may touch is added with `bind*` calls, each setting the env var the code reads and the
 * IAM grant in one place, as Powertools' examples/app `bindTable` does.
 */
export class AppFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: FunctionRole;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: AppFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: props.logGroupName,
      retention: props.logs.retention,
      removalPolicy: props.logs.removalPolicy,
      encryptionKey: props.logs.key,
    });

    if (props.role) {
      this.role = props.role;
    } else {
      this.role = new FunctionRole(this, 'Role', { description: props.description });
      this.role.grantOnce('logs', () => logWriteStatement([this.logGroup.logGroupArn]));
    }

    this.fn = new NodejsFunction(this, 'Handler', {
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      reservedConcurrentExecutions: props.reservedConcurrency,
      deadLetterQueue: props.deadLetterQueue,
      tracing: props.tracing === 'passThrough' ? Tracing.PASS_THROUGH : Tracing.ACTIVE,
      role: this.role.role,
      logGroup: this.logGroup,
      ...functionLogging(props.environment?.LOG_LEVEL),
      environment: { ...sourceMapEnvironment(), ...props.environment },
      bundling: lambdaBundling(props.projectRoot, props.filesBeside),
    });

    acknowledge(this, {
      ...bothPacks(
        undefined,
        'LambdaInsideVPC',
        'No VPC by design: the functions reach DynamoDB, KMS, EventBridge and SQS on their public AWS endpoints (TLS + SigV4), and the webhook worker needs outbound internet, which in a VPC would need NAT gateways per AZ.',
      ),
      'AwsSolutions-L1':
        'nodejs22.x is the runtime the toolchain pins and the tests run against (docs: toolchain.md); moving to a newer runtime is a deliberate upgrade, not a silent one.',
    });
  }

  /** An env var the code reads under the same name locally and on AWS. */
  addEnvironment(name: string, value: string): this {
    this.fn.addEnvironment(name, value);
    return this;
  }

  /**
   * TABLE_NAME and exactly the declared reads and writes, each narrowed by `dynamodb:LeadingKeys`
   * to the declared partitions (lib/db/keys.ts PARTITIONS; INDEX_PARTITIONS for Queries on an
   * index): reads as `readStatements` says, writes one statement per set of item actions.
   * Transactions are authorized item by item by these. The table's customer-managed key is usable
   * only through DynamoDB (kms:ViaService).
   */
  bindTable(table: ITable, writes: TableWrites, reads: TableReads): this {
    const tableKey = table.node.path;
    this.role.claimTableAccess(tableKey, writes, reads);
    this.addEnvironment('TABLE_NAME', table.tableName);
    for (const { index, actions, patterns } of readStatements(reads)) {
      this.role.grantOnce(
        `reads:${tableKey}:${index ?? 'table'}`,
        () =>
          new PolicyStatement({
            sid: index ? `IndexQuery${index[0]!.toUpperCase()}${index.slice(1)}` : 'TableItemsRead',
            effect: Effect.ALLOW,
            actions: [...actions],
            resources: [index ? `${table.tableArn}/index/${index}` : table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } },
          }),
      );
    }
    for (const [actions, partitions] of writeStatements(writes)) {
      this.role.grantOnce(
        `writes:${tableKey}:${actions.join(',')}`,
        () =>
          new PolicyStatement({
            sid: `Write${actions.map((action) => action.replace('dynamodb:', '').replace('Item', '')).join('')}`,
            effect: Effect.ALLOW,
            actions,
            resources: [table.tableArn],
            conditions: {
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': partitions.map((name) => PARTITIONS[name]) },
            },
          }),
      );
    }
    const key = table.encryptionKey;
    if (key) {
      const writesAny = Object.keys(writes).length > 0;
      this.role.grantOnce(
        `tableKey:${tableKey}`,
        () =>
          new PolicyStatement({
            sid: 'TableKeyViaDynamoDB',
            effect: Effect.ALLOW,
            actions: writesAny
              ? ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey']
              : ['kms:Decrypt', 'kms:DescribeKey'],
            resources: [key.keyArn],
            conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${Stack.of(this).region}.amazonaws.com` } },
          }),
      );
    }
    return this;
  }

  /** EVENT_BUS_NAME and events:PutEvents on that bus only. */
  bindBus(bus: IEventBus): this {
    this.addEnvironment(EVENT_BUS_ENV, bus.eventBusName);
    this.role.grantOnce(
      `bus:${bus.node.path}`,
      () =>
        new PolicyStatement({
          sid: 'PutEvents',
          effect: Effect.ALLOW,
          actions: ['events:PutEvents'],
          resources: [bus.eventBusArn],
        }),
    );
    return this;
  }

  /**
   * `<NAME>_QUEUE_URL` and sqs:SendMessage on that queue; for a queue under a customer-managed key,
   * the key's use SQS makes on a sender's behalf (kms:GenerateDataKey, and kms:Decrypt, which SQS
   * asks for to reuse a data key), only through SQS (kms:ViaService).
   */
  bindQueue(name: string, queue: IQueue): this {
    this.addEnvironment(queueUrlEnv(name), queue.queueUrl);
    this.role.grantOnce(
      `queue:${queue.node.path}`,
      () =>
        new PolicyStatement({
          sid: `Send${name.replace(/[^A-Za-z0-9]/g, '')}`,
          effect: Effect.ALLOW,
          actions: ['sqs:SendMessage'],
          resources: [queue.queueArn],
        }),
    );
    if (queue.encryptionMasterKey)
      this.grantKeyViaSqs(queue.encryptionMasterKey, ['kms:Decrypt', 'kms:GenerateDataKey']);
    return this;
  }

  /**
   * What a queue's event source mapping needs of its queue's customer-managed key: kms:Decrypt,
   * only through SQS. (The mapping is given the queue without its key, so CDK adds no kms:Decrypt
   * of its own without that condition: workers-stack.ts.)
   */
  grantQueueKeyToConsume(queue: IQueue): this {
    if (queue.encryptionMasterKey) this.grantKeyViaSqs(queue.encryptionMasterKey, ['kms:Decrypt']);
    return this;
  }

  private grantKeyViaSqs(key: IKey, actions: string[]): void {
    this.role.grantOnce(
      `queueKey:${key.node.path}:${actions.join(',')}`,
      () =>
        new PolicyStatement({
          sid: `QueueKeyViaSqs${actions.map((action) => action.replace('kms:', '')).join('')}`,
          effect: Effect.ALLOW,
          actions,
          resources: [key.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `sqs.${Stack.of(this).region}.amazonaws.com` } },
        }),
    );
  }

  /**
   * `CURSOR_SECRET_ARN` / `WEBHOOK_SECRET_ARN`: the secret's ARN, never its value, and the grant to
   * read it: secretsmanager:GetSecretValue on that secret, and kms:Decrypt of its customer-managed
   * key only through Secrets Manager (kms:ViaService). The code reads the value at first use and
   * keeps it for a few minutes (lib/crypto/named-secret.ts, Powertools Parameters), so a new value
   * ("new,old" while rotating) reaches the functions without a deploy, and the value is nowhere in
   * the function's configuration.
   */
  bindSecret(name: SecretName, secret: ISecret): this {
    this.addEnvironment(secretArnEnv(name), secret.secretArn);
    this.role.grantOnce(
      `secret:${secret.node.path}`,
      () =>
        new PolicyStatement({
          sid: `Read${name[0].toUpperCase()}${name.slice(1)}Secret`,
          effect: Effect.ALLOW,
          actions: ['secretsmanager:GetSecretValue'],
          resources: [secret.secretArn],
        }),
    );
    const key = secret.encryptionKey;
    if (key) {
      this.role.grantOnce(
        `secretKey:${key.node.path}`,
        () =>
          new PolicyStatement({
            sid: 'SecretKeyViaSecretsManager',
            effect: Effect.ALLOW,
            actions: ['kms:Decrypt'],
            resources: [key.keyArn],
            conditions: {
              StringEquals: { 'kms:ViaService': `secretsmanager.${Stack.of(this).region}.amazonaws.com` },
            },
          }),
      );
    }
    return this;
  }

  /**
   * PHOTOS_BUCKET and what the function does with photo objects, on the photos prefix only: the
   * S3 actions a pre-signed URL it hands out, or its own call, needs (S3 authorizes a pre-signed
   * URL with its signer's permissions when it is used), and the bucket key's use S3 makes on its
   * behalf, only through S3 (kms:ViaService). `upload`: PutObject and PutObjectTagging (the URL
   * sets the pending tag), kms:GenerateDataKey. `read`: GetObject (HeadObject, downloads),
   * PutObjectTagging (confirming an arrival), ListBucket on the bucket (so a missing object is a
   * 404, not a 403: keys hold ids only), kms:Decrypt. `delete`: DeleteObject. `confirm`:
   * PutObjectTagging only (no read of the bytes, no key).
   */
  bindPhotos(bucket: IBucket, bucketName: string, access: readonly PhotoAccess[]): this {
    if (access.length === 0) return this;
    this.addEnvironment('PHOTOS_BUCKET', bucket.bucketName);
    // The ARNs from the bucket's fixed name, made in this stack (see data-store.ts `photosBucketName`).
    const bucketArn = Stack.of(this).formatArn({ service: 's3', region: '', account: '', resource: bucketName });
    const objects = `${bucketArn}/${PHOTO_OBJECT_PREFIX}*`;
    const s3Actions = [
      ...new Set(
        access.flatMap((what) =>
          what === 'upload'
            ? ['s3:PutObject', 's3:PutObjectTagging']
            : what === 'read'
              ? ['s3:GetObject', 's3:PutObjectTagging']
              : what === 'confirm'
                ? ['s3:PutObjectTagging']
                : ['s3:DeleteObject'],
        ),
      ),
    ].sort();
    this.role.grantOnce(
      `photos:${bucket.node.path}:${s3Actions.join(',')}`,
      () =>
        new PolicyStatement({
          sid: 'PhotoObjects',
          effect: Effect.ALLOW,
          actions: s3Actions,
          resources: [objects],
        }),
    );
    acknowledge(this.role, {
      [wildcardResourceFinding(this.role, objects)]:
        'Photo objects are created at run time under server-made ids: the wildcard is the photos prefix of the one bucket, with only the object actions this function needs.',
    });
    if (access.includes('read'))
      this.role.grantOnce(
        `photosList:${bucket.node.path}`,
        () =>
          new PolicyStatement({
            sid: 'PhotoBucketList',
            effect: Effect.ALLOW,
            actions: ['s3:ListBucket'],
            resources: [bucketArn],
          }),
      );
    const keyActions = [
      ...(access.includes('read') ? ['kms:Decrypt'] : []),
      ...(access.includes('upload') ? ['kms:GenerateDataKey'] : []),
    ];
    const key = bucket.encryptionKey;
    if (key && keyActions.length > 0)
      this.role.grantOnce(
        `photosKey:${key.node.path}:${keyActions.join(',')}`,
        () =>
          new PolicyStatement({
            sid: 'PhotoKeyViaS3',
            effect: Effect.ALLOW,
            actions: keyActions,
            resources: [key.keyArn],
            conditions: { StringEquals: { 'kms:ViaService': `s3.${Stack.of(this).region}.amazonaws.com` } },
          }),
      );
    return this;
  }

  /**
   * TOKEN_PUBLIC_KEY, the key's public half read at deploy (./token-public-key.ts), for everyone
   * who verifies or issues tokens: no KMS call or grant for that. SIGNING_KMS_KEY_ID and kms:Sign
   * only when asked.
   */
  bindSigningKey(key: IKey, publicKey: string, canSign: boolean): this {
    this.addEnvironment(TOKEN_PUBLIC_KEY_ENV, publicKey);
    if (!canSign) return this;
    this.addEnvironment('SIGNING_KMS_KEY_ID', key.keyArn);
    this.role.grantOnce(
      `signing:${key.node.path}`,
      () =>
        new PolicyStatement({
          sid: 'TokenSigning',
          effect: Effect.ALLOW,
          actions: ['kms:Sign'],
          resources: [key.keyArn],
        }),
    );
    return this;
  }
}

export const logWriteStatement = (resources: string[]) =>
  new PolicyStatement({
    sid: 'WriteOwnLogs',
    effect: Effect.ALLOW,
    actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    resources,
  });

/**
 * A role shared by several functions may write to the log groups under `prefix` (one wildcard,
 * so its policy does not grow with the number of functions), acknowledged for cdk-nag here.
 */
export function allowLogGroupsUnder(role: FunctionRole, prefix: string): void {
  const arn = Stack.of(role).formatArn({
    service: 'logs',
    resource: 'log-group',
    resourceName: `${prefix}/*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
  role.grantOnce('logs', () => logWriteStatement([arn]));
  acknowledge(role, {
    [wildcardResourceFinding(role, arn)]:
      `Log streams are created at run time; the wildcard is limited to the log groups of the functions sharing this role (${prefix}/...).`,
  });
}
