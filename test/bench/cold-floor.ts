/**
 * The cold-start floor: a function that only makes one DynamoDB GetItem with the SDK's document
 * client, built with the construct's esbuild settings like every function. Nothing deployed can
 * start faster than the SDK it needs; `npm run bench` prints ours against it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const ddb = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION }),
);

export const handler = async (event: { pk: string; sk: string }) => {
  const { Item } = await ddb.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.pk, sk: event.sk } }),
  );
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? {}) };
};
