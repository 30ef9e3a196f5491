/**
 * The same-calls floor of one function: its first invocation's DynamoDB calls (recorded by
 * ./ddb-recorder.ts) made with the bare SDK, the calls of a step in parallel, steps in order,
 * inputs already marshalled (no document client: cheaper than ours, so a strict floor). Writes
 * replayed on the items they already wrote may fail their condition: the same round trip,
 * answered with a cancellation (counted in the answer's body; the bench times the call, and a
 * handler error would show in the function's line as the floor's outcome).
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { RecordedCall } from './ddb-recorder';

const COMMANDS = {
  BatchGetItem: BatchGetItemCommand,
  BatchWriteItem: BatchWriteItemCommand,
  DeleteItem: DeleteItemCommand,
  GetItem: GetItemCommand,
  PutItem: PutItemCommand,
  Query: QueryCommand,
  TransactGetItems: TransactGetItemsCommand,
  TransactWriteItems: TransactWriteItemsCommand,
  UpdateItem: UpdateItemCommand,
} as const;

const ddb = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION });

export const handler = async (event: { calls: RecordedCall[] }) => {
  let refused = 0;
  const steps = [...new Set(event.calls.map((call) => call.step))];
  for (const step of steps) {
    await Promise.all(
      event.calls
        .filter((call) => call.step === step)
        .map(async ({ operation, input }) => {
          const Command = COMMANDS[operation as keyof typeof COMMANDS] as unknown as
            | (new (
                input: unknown,
              ) => GetItemCommand)
            | undefined;
          if (!Command) throw new Error(`no command for ${operation}`);
          await ddb.send(new Command(input)).catch(() => (refused += 1));
        }),
    );
  }
  return { statusCode: 200, body: JSON.stringify({ calls: event.calls.length, refused }) };
};
