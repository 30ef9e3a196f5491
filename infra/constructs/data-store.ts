import { Construct } from 'constructs';
import { ArnFormat, Aws, Duration, Stack } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { SecretName } from '../../lib/crypto/named-secret';
import { PENDING_UPLOAD_EXPIRY_DAYS, PENDING_UPLOAD_TAG, PHOTO_OBJECT_PREFIX } from '../../lib/domain/photos';
import { TABLE_SHAPE } from '../../lib/db/table';
import { acknowledge, bothPacks } from './nag';
import type { StageSettings } from '../stacks/stage-settings';

/** Every log group of a stage lives under this prefix (the logs key is usable for these only). */
export const logGroupPrefix = (stage: string) => `/medspa-api/${stage}`;

/** CloudWatch Logs (of the key's region) may encrypt with `key` for the log groups named by `namePattern` only. */
export function allowLogGroupEncryption(key: Key, namePattern: string): void {
  const stack = Stack.of(key);
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'StageLogGroups',
      effect: Effect.ALLOW,
      principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
      actions: [
        'kms:Encrypt',
        'kms:Decrypt',
        'kms:ReEncryptFrom',
        'kms:ReEncryptTo',
        'kms:GenerateDataKey',
        'kms:DescribeKey',
      ],
      resources: ['*'],
      conditions: {
        ArnLike: {
          'kms:EncryptionContext:aws:logs:arn': stack.formatArn({
            service: 'logs',
            resource: 'log-group',
            resourceName: namePattern,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        },
      },
    }),
  );
}

/**
 * The stateful part of a stage: the one DynamoDB table (shape from lib/db/table.ts), the KMS keys,
 * the event bus and the service secrets. Keep these construct ids stable: renaming one replaces
 * the resource, and for the table and keys that means the data.
 */
export class DataStore extends Construct {
  readonly table: Table;
  /** Encrypts the table (and its stream), the bus, the secrets and the event queues (workers-stack.ts). */
  readonly dataKey: Key;
  /** Encrypts the stage's log groups, alarm notifications and, with the edge on, its origin-verify secret. */
  readonly opsKey: Key;
  readonly signingKey: Key;
  readonly bus: EventBus;
  readonly secrets: Record<SecretName, Secret>;
  /** Clinical photos (section 13): PHI, under the data key, never public. */
  readonly photos: Bucket;

  constructor(scope: Construct, id: string, settings: StageSettings) {
    super(scope, id);
    const stack = Stack.of(this);

    this.dataKey = new Key(this, 'DataKey', {
      description: `medspa-api ${settings.stage}: table, event bus, event queues and service secrets`,
      enableKeyRotation: true,
      alias: `alias/medspa-api-${settings.stage}-data`,
      removalPolicy: settings.removalPolicy,
      pendingWindow: settings.keyPendingWindow,
    });

    // EventBridge sends the bus's events to the `events` queue (and failed ones to its dead-letter
    // queue), both under this key: SQS uses the key with EventBridge's own rights, which only the
    // key's policy can give a service. This account's rules only. (The functions that send to and
    // receive from those queues are granted the key through SQS in their roles: app-function.ts.)
    this.dataKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'EventBridgeToEncryptedQueues',
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('events.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );

    this.opsKey = new Key(this, 'OpsKey', {
      description: `medspa-api ${settings.stage}: log groups and alarm notifications`,
      enableKeyRotation: true,
      alias: `alias/medspa-api-${settings.stage}-ops`,
      removalPolicy: settings.removalPolicy,
      pendingWindow: settings.keyPendingWindow,
    });
    allowLogGroupEncryption(this.opsKey, `${logGroupPrefix(settings.stage)}/*`);
    // CloudWatch alarms publish to the KMS-encrypted alarm topic.
    this.opsKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AlarmNotifications',
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SHAPE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SHAPE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SHAPE.ttlAttribute,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.dataKey,
      deletionProtection: settings.production,
      removalPolicy: settings.removalPolicy,
    });
    for (const index of TABLE_SHAPE.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        ...('include' in index
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] }
          : { projectionType: ProjectionType.ALL }),
      });
    }
    acknowledge(
      this.table,
      bothPacks(
        'DDB4',
        'DynamoDBInBackupPlan',
        'Point-in-time recovery (35 days, restorable to any second) is the backup; an AWS Backup plan for longer retention is an account-level decision left to the operator.',
      ),
    );

    // Asymmetric keys cannot rotate automatically; a new key means a new `kid` in the JWKS.
    this.signingKey = new Key(this, 'TokenSigningKey', {
      description: `medspa-api ${settings.stage}: signs access tokens (ES256)`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      alias: `alias/medspa-api-${settings.stage}-token-signing`,
      removalPolicy: settings.removalPolicy,
      pendingWindow: settings.keyPendingWindow,
    });

    // Events carry the changed items (PHI): encrypted with our key; EventBridge gets key access for this bus only.
    this.bus = new EventBus(this, 'Bus', {
      eventBusName: `medspa-api-${settings.stage}`,
      description: `medspa-api ${settings.stage}: domain events from the table stream`,
      kmsKey: this.dataKey,
    });

    const secret = (name: SecretName, id: string) => {
      const value = new Secret(this, id, {
        // No fixed name: a destroyed dev secret keeps its name for its recovery window.
        description: `medspa-api ${settings.stage}: ${name.toUpperCase()}_SECRET (lib/crypto/named-secret.ts); "new,old" while rotating`,
        encryptionKey: this.dataKey,
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        removalPolicy: settings.removalPolicy,
      });
      acknowledge(
        value,
        bothPacks(
          'SMG4',
          'SecretsManagerRotationEnabled',
          'Rotated by an operator, not a rotation Lambda: set the value to "new,old" (lib/crypto/named-secret.ts accepts both); functions read it at first use and keep it at most 5 minutes, so no deploy is needed; drop "old" once its cursors and ciphertexts have aged out.',
        ),
      );
      return value;
    };
    this.secrets = { cursor: secret('cursor', 'CursorSecret'), webhook: secret('webhook', 'WebhookSecret') };

    this.photos = photoBucket(this, settings, this.dataKey);
  }
}

/**
 * The photos bucket's name, fixed so the functions' grants can name its objects' ARN in their own
 * stack (a reference to the bucket from the stateless stack is an import that cdk-nag cannot match
 * to an acknowledgement). Unique per account, region and stage; at most 63 characters for a stage
 * of 24 and any region.
 */
export const photosBucketName = (stage: string) => `medspa-${stage}-img-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

/** How long a deleted photo's image stays recoverable (as a noncurrent version) before it is gone. */
const DELETED_PHOTO_RECOVERY_DAYS = 7;

/**
 * The clinical photos' bucket: SSE-KMS under the data key (with a bucket key, so uploads do not
 * each call KMS), all public access blocked, TLS only, objects owned by the bucket (no ACLs),
 * versioned so a deleted image can be recovered for a week, then gone. Uploads and downloads go
 * straight to it through URLs the functions pre-sign (their roles: app-function.ts `bindPhotos`);
 * CORS lets a browser send those PUTs and GETs from any page, because the signature, not the
 * origin, is what authorizes them. It sends its events to the account's default EventBridge bus:
 * a rule of the workers stack hands each upload to the confirmPhotoUploads worker (lib/workers),
 * which confirms it on arrival (decision 0028). Lifecycle: an upload still tagged pending after
 * PENDING_UPLOAD_EXPIRY_DAYS was never confirmed (its photo was deleted, or its client erased,
 * while the URL was still valid, and the worker's deletion of it failed): it is an orphan and expires.
 */
function photoBucket(scope: Construct, settings: StageSettings, key: Key): Bucket {
  const accessLogs = new Bucket(scope, 'PhotoAccessLogs', {
    // Server access logs can only be delivered to a bucket under S3-managed keys.
    encryption: BucketEncryption.S3_MANAGED,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(365) }],
    removalPolicy: settings.removalPolicy,
  });
  acknowledge(accessLogs, {
    ...bothPacks(
      'S1',
      'S3BucketLoggingEnabled',
      'This is the access-log bucket of the photos bucket: logging it would log the logs.',
    ),
    ...bothPacks(
      undefined,
      'S3BucketVersioningEnabled',
      'Access logs are written once by S3 and expire after a year; versions would keep nothing more.',
    ),
    ...bothPacks(
      undefined,
      'S3BucketReplicationEnabled',
      'Cross-region replication of access logs is an account-level decision left to the operator.',
    ),
    ...bothPacks(
      undefined,
      'S3DefaultEncryptionKMS',
      'S3 server access logging delivers only to buckets under S3-managed keys (SSE-S3).',
    ),
  });

  const bucket = new Bucket(scope, 'Photos', {
    bucketName: photosBucketName(settings.stage),
    encryption: BucketEncryption.KMS,
    encryptionKey: key,
    bucketKeyEnabled: true,
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    versioned: true,
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: 'photos/',
    cors: [
      {
        allowedMethods: [HttpMethods.PUT, HttpMethods.GET],
        allowedOrigins: ['*'],
        allowedHeaders: ['content-type', 'x-amz-tagging'],
        maxAge: 3600,
      },
    ],
    lifecycleRules: [
      {
        id: 'OrphanedUploads',
        prefix: PHOTO_OBJECT_PREFIX,
        tagFilters: { [PENDING_UPLOAD_TAG.key]: PENDING_UPLOAD_TAG.pending },
        expiration: Duration.days(PENDING_UPLOAD_EXPIRY_DAYS),
      },
      {
        id: 'DeletedPhotos',
        prefix: PHOTO_OBJECT_PREFIX,
        noncurrentVersionExpiration: Duration.days(DELETED_PHOTO_RECOVERY_DAYS),
        abortIncompleteMultipartUploadAfter: Duration.days(1),
      },
      { id: 'DeleteMarkers', prefix: PHOTO_OBJECT_PREFIX, expiredObjectDeleteMarker: true },
    ],
    removalPolicy: settings.removalPolicy,
  });
  // CloudFormation's own setting, not CDK's `eventBridgeEnabled` (which adds a custom resource and its Lambda).
  (bucket.node.defaultChild as CfnBucket).notificationConfiguration = {
    eventBridgeConfiguration: { eventBridgeEnabled: true },
  };
  acknowledge(
    bucket,
    bothPacks(
      undefined,
      'S3BucketReplicationEnabled',
      'Cross-region replication of PHI is an account-level decision (a second region under its own key and agreements) left to the operator; versioning keeps deleted images recoverable for a week.',
    ),
  );
  return bucket;
}
