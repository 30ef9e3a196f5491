import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One action of a TransactWriteItems (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
