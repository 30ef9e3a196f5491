import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { instrumentClient } from '../aws/local-runtime';
import { config } from '../config';

/** Counts DynamoDB round trips per command; tests use it to hold operations to their budget. */
export const ddbCalls = {
  counts: new Map<string, number>(),
  total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  },
  reset(): void {
    this.counts.clear();
  },
  /** Tests: set to [] to record when each call is sent and answered (`GetItemCommand sent`...). */
  trace: undefined as string[] | undefined,
};

let documentClient: DynamoDBDocumentClient | undefined;

/** One client per process (module scope), built on first use from config. */
export function ddb(): DynamoDBDocumentClient {
  if (documentClient) return documentClient;
  const { DYNAMODB_ENDPOINT, AWS_REGION } = config();
  const base = new DynamoDBClient({
    region: AWS_REGION,
    ...(DYNAMODB_ENDPOINT
      ? { endpoint: DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
    maxAttempts: 4,
  });
  // The SDK's logger middleware builds a redacted copy of every command's input and output for
  // its logger even when that logger discards it (the default): a walk over every item read or
  // written, on every call. We log requests ourselves (lib/http/logging.ts), never SDK payloads.
  base.middlewareStack.remove('loggerMiddleware');
  instrumentClient(base, 'dynamodb');
  documentClient = DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  documentClient.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName ?? 'unknown');
      ddbCalls.counts.set(name, (ddbCalls.counts.get(name) ?? 0) + 1);
      const trace = ddbCalls.trace;
      if (!trace) return next(args);
      // A batch read says how many keys it carries: reads asked for together go out as one (lib/db/key-reads.ts).
      const keys = (args.input as { RequestItems?: Record<string, { Keys?: unknown[] }> }).RequestItems;
      const carried =
        name === 'BatchGetItemCommand' && keys
          ? ` (${Object.values(keys).reduce((n, table) => n + (table.Keys?.length ?? 0), 0)} keys)`
          : '';
      trace.push(`${name} sent${carried}`);
      try {
        return await next(args);
      } finally {
        trace.push(`${name} answered`);
      }
    },
    { step: 'initialize', name: 'countDynamoCalls' },
  );
  return documentClient;
}

export const tableName = (): string => config().TABLE_NAME;

/** Tests switch endpoints between runs. */
export function resetDdb(): void {
  documentClient = undefined;
}
