import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** For writes whose failed condition means "nothing to do" (already done, moved on, or gone). */
export const ignoreFailedCondition = (error: unknown): void => {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
};
