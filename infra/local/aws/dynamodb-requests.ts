import { TABLE_SHAPE } from '../../../lib/db/table';

/**
 * The IAM requests AWS authorizes for one DynamoDB (or DynamoDB Streams) command, as its service
 * authorization reference and "Using IAM with DynamoDB transactions" describe: each action of a
 * transaction by its own item action, a batch once per table with every leading key, and the
 * partition key values as `dynamodb:LeadingKeys` (a Query's from its key condition).
 */

export interface IamRequest {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

type AttributeValue = { S?: string; N?: string; B?: unknown };
type Item = Record<string, AttributeValue>;
type Json = any;

const keyText = (value: AttributeValue | undefined) => value?.S ?? value?.N ?? '';
const partitionKeyOf = (item: Item | undefined) => keyText(item?.[TABLE_SHAPE.partitionKey]);
const indexPartitionKey = (indexName: string | undefined): string =>
  indexName
    ? (TABLE_SHAPE.globalIndexes.find((index) => index.name === indexName)?.partitionKey ?? '')
    : TABLE_SHAPE.partitionKey;

/** The value a Query's key condition gives the partition key (`pk = :v`, `#n = :v`, either order). */
function queriedPartitionKey(input: Json): string {
  const attribute = indexPartitionKey(input.IndexName);
  const names: Record<string, string> = input.ExpressionAttributeNames ?? {};
  const values: Record<string, AttributeValue> = input.ExpressionAttributeValues ?? {};
  const expression = String(input.KeyConditionExpression ?? '');
  const nameOf = (token: string) => names[token] ?? token;
  for (const match of expression.matchAll(/([#:]?[\w]+)\s*=\s*([#:]?[\w]+)/g)) {
    const [left, right] = [match[1], match[2]];
    if (nameOf(left) === attribute && right.startsWith(':')) return keyText(values[right]);
    if (nameOf(right) === attribute && left.startsWith(':')) return keyText(values[left]);
  }
  const legacy = input.KeyConditions?.[attribute]?.AttributeValueList?.[0];
  return keyText(legacy);
}

const leading = (keys: string[]) => ({ 'dynamodb:LeadingKeys': [...new Set(keys)] });

export interface DynamoResources {
  tableArn: string;
  streamArn: string;
}

/** Requests for a DynamoDB command (marshalled input, as the base client sees it). */
export function dynamoDbRequests(command: string, input: Json, { tableArn }: DynamoResources): IamRequest[] {
  const action = command.replace(/Command$/, '');
  const item = (name: string, item: Item | undefined): IamRequest => ({
    action: `dynamodb:${name}`,
    resource: tableArn,
    context: leading([partitionKeyOf(item)]),
  });
  switch (action) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [item(action, input.Key)];
    case 'PutItem':
      return [item(action, input.Item)];
    case 'Query':
    case 'Scan': {
      const resource = input.IndexName ? `${tableArn}/index/${input.IndexName}` : tableArn;
      return [
        {
          action: `dynamodb:${action}`,
          resource,
          context: action === 'Query' ? leading([queriedPartitionKey(input)]) : {},
        },
      ];
    }
    case 'BatchGetItem':
      return Object.values<Json>(input.RequestItems ?? {}).map((request) => ({
        action: 'dynamodb:BatchGetItem',
        resource: tableArn,
        context: leading((request.Keys ?? []).map(partitionKeyOf)),
      }));
    case 'BatchWriteItem':
      return Object.values<Json[]>(input.RequestItems ?? {}).map((writes) => ({
        action: 'dynamodb:BatchWriteItem',
        resource: tableArn,
        context: leading(writes.map((write) => partitionKeyOf(write.PutRequest?.Item ?? write.DeleteRequest?.Key))),
      }));
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((entry: Json) => {
        if (entry.Put) return item('PutItem', entry.Put.Item);
        if (entry.Update) return item('UpdateItem', entry.Update.Key);
        if (entry.Delete) return item('DeleteItem', entry.Delete.Key);
        return item('ConditionCheckItem', entry.ConditionCheck?.Key);
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((entry: Json) => item('GetItem', entry.Get?.Key));
    default:
      // Control plane (DescribeTable, CreateTable, ...): on the table, no condition keys.
      return [{ action: `dynamodb:${action}`, resource: tableArn, context: {} }];
  }
}

/** Requests for a DynamoDB Streams command (an event source mapping reads with its function's role). */
export function dynamoDbStreamsRequests(command: string, _input: Json, { streamArn }: DynamoResources): IamRequest[] {
  const action = command.replace(/Command$/, '');
  return [{ action: `dynamodb:${action}`, resource: action === 'ListStreams' ? '*' : streamArn, context: {} }];
}
