import { Construct } from 'constructs';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { TABLE_SHAPE } from '../../lib/db/table';
import type { StageSettings } from '../stacks/stage-settings';

/**
 * The stateful part: the one DynamoDB table (shape from lib/db/table.ts) and the KMS key that
 * signs access tokens (ES256). Keep these construct ids stable: renaming them replaces the data.
 */
export class DataStore extends Construct {
  readonly table: Table;
  readonly signingKey: Key;

  constructor(scope: Construct, id: string, settings: StageSettings) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_SHAPE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_SHAPE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_SHAPE.ttlAttribute,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: settings.production,
      removalPolicy: settings.removalPolicy,
    });
    for (const index of TABLE_SHAPE.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }

    // Asymmetric keys cannot rotate automatically; a new key means a new `kid` in the JWKS.
    this.signingKey = new Key(this, 'TokenSigningKey', {
      description: `medspa-api ${settings.stage}: signs access tokens (ES256)`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      alias: `alias/medspa-api-${settings.stage}-token-signing`,
      removalPolicy: settings.removalPolicy,
      pendingWindow: settings.keyPendingWindow,
    });
  }
}
