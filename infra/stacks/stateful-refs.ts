import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { SecretName } from '../../lib/crypto/named-secret';

/** What the stateless stack and its nested stacks take from the stateful one. */
export interface StatefulRefs {
  table: ITable;
  /** The table's, bus's and secrets' customer-managed key; the event queues' too. */
  dataKey: IKey;
  bus: IEventBus;
  signingKey: IKey;
  opsKey: IKey;
  secrets: Record<SecretName, ISecret>;
  /** The clinical photos' bucket (under the data key). */
  photos: IBucket;
}
