import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** For writes whose failed condition means "nothing to do" (already done, moved on, or gone). */
export const ignoreFailedCondition = (error: unknown): void => {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
};

/**
 * The item a failed condition gives back (ALL_OLD, or a transaction's CancellationReasons), as a
 * plain object: it comes in DynamoDB's wire format (the document client leaves errors alone).
 */
export function plainItem(item: object | undefined): Record<string, unknown> | undefined {
  if (!item) return undefined;
  const { pk } = item as Record<string, unknown>;
  return typeof pk === 'object' && pk !== null
    ? unmarshall(item as Parameters<typeof unmarshall>[0])
    : (item as Record<string, unknown>);
}
