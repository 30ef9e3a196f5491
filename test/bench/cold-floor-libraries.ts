/**
 * The libraries floor: the one-GetItem floor (./cold-floor.ts) plus the first use of what every
 * API function must run whatever its own code: aws-jwt-verify checking the bench's token against
 * the token key's public JWK (given in the event: no key file read), a zod/mini parse, one
 * Powertools log line, in a middy handler. What it takes above the one-GetItem floor is what these
 * libraries cost a cold start by themselves; the bench adds it to each function's own calls made
 * raw to make that function's restated floor, the least any function making those calls with these
 * libraries could take (issue 36's cold goal: within 1.25x of it).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { Logger } from '@aws-lambda-powertools/logger';
import middy from '@middy/core';
import { JwtVerifier } from 'aws-jwt-verify/jwt-verifier';
import * as z from 'zod/mini';

const ddb = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: process.env.AWS_REGION }),
);
const logger = new Logger({ serviceName: 'libraries-floor' });
const Key = z.object({ pk: z.string(), sk: z.string() });

export interface LibrariesFloorEvent {
  key: { pk: string; sk: string };
  token: string;
  jwk: Record<string, unknown>;
  issuer: string;
  audience: string;
}

export const handler = middy(async (event: LibrariesFloorEvent) => {
  const verifier = JwtVerifier.create({
    issuer: event.issuer,
    audience: event.audience,
    jwksUri: 'https://jwks.invalid/never-fetched',
  });
  verifier.cacheJwks({ keys: [event.jwk as never] });
  verifier.verifySync(event.token);
  const { Item } = await ddb.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: Key.parse(event.key) }));
  logger.info('request', { status: Item ? 200 : 404 });
  return { statusCode: Item ? 200 : 404, body: JSON.stringify(Item ?? {}) };
});
