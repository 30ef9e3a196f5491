import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeStandIn, runAsFunction } from '../../lib/aws/local-runtime';
import { tokenPublicJwk } from '../../lib/auth/token-key';
import { verifyToken } from '../../lib/auth/tokens';
import { config } from '../../lib/config';
import { loadSecretKeys, secretKeys } from '../../lib/crypto/named-secret';
import { ddb, tableName } from '../../lib/db/client';
import { collectionPk, rateLimitKey } from '../../lib/db/keys';
import { routes } from '../../lib/routes';
import { localIamEnabled } from '../../infra/local/aws/runtime';
import { call, makePractice, type TestPractice } from '../fixtures/api';

/** AWS's words for a call no identity policy allows (role session = the function). */
const DENIED = (action: string) =>
  new RegExp(
    `^User: arn:aws:sts::\\d{12}:assumed-role/[\\w-]+/[\\w-]+ is not authorized to perform: ${action} on resource: arn:aws:[\\w-]+:[\\w-]*:\\d{12}:\\S+ because no identity-based policy allows the ${action} action$`,
  );

const clientItem = (medspaId: string) => ({
  pk: collectionPk(medspaId, 'CLIENT'),
  sk: crypto.randomUUID(),
  entity: 'PROBE',
});

let practice: TestPractice;
beforeAll(async () => {
  practice = await makePractice();
});

describe('the synthesized IAM, enforced in every test and in npm start', () => {
  it('is on by default', () => {
    expect(process.env.LOCAL_IAM).toBeUndefined();
    expect(localIamEnabled()).toBe(true);
  });

  it('a call the role does not grant fails as AWS fails it, and writes nothing', async () => {
    const item = clientItem(practice.medspaId);
    const error = await runAsFunction('getPractice', () =>
      ddb().send(new PutCommand({ TableName: tableName(), Item: item })),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect((error as Error).message).toMatch(DENIED('dynamodb:PutItem'));
    const { Item } = await ddb().send(new GetCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
    expect(Item).toBeUndefined();
  });

  it("a write outside the route row's declaration fails; inside it passes", async () => {
    expect(routes.createRoom.writes).not.toHaveProperty('clients');
    const outside = await runAsFunction('createRoom', () =>
      ddb().send(new PutCommand({ TableName: tableName(), Item: clientItem(practice.medspaId) })),
    ).catch((caught: unknown) => caught);
    expect(outside).toMatchObject({ name: 'AccessDeniedException' });
    // The declaration names the action too: createClient puts clients, it does not update them.
    await runAsFunction('createClient', () =>
      ddb().send(new PutCommand({ TableName: tableName(), Item: clientItem(practice.medspaId) })),
    );
    const update = await runAsFunction('createClient', () =>
      ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: collectionPk(practice.medspaId, 'CLIENT'), sk: 'x' },
          UpdateExpression: 'SET a = :a',
          ExpressionAttributeValues: { ':a': 1 },
        }),
      ),
    ).catch((caught: unknown) => caught);
    expect((update as Error).message).toMatch(DENIED('dynamodb:UpdateItem'));
  });

  it('every authenticated GET may update its own rate-limit bucket (denied on AWS before roles came from declarations)', async () => {
    await runAsFunction('getAppointments', () =>
      ddb().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: rateLimitKey(practice.medspaId, 'probe-credential'),
          UpdateExpression: 'SET probe = :p',
          ExpressionAttributeValues: { ':p': 1 },
        }),
      ),
    );
  });

  it("calls outside any function (test set-up, the seed, the admin command) are the operator's and are not checked", async () => {
    await ddb().send(
      new PutCommand({ TableName: tableName(), Item: { ...clientItem(practice.medspaId), pk: 'ANYTHING' } }),
    );
  });

  it('stand-ins are checked too: only the token function may kms:Sign; only the stream relay may PutEvents; fan-out may send deliveries', async () => {
    await runAsFunction('createToken', () => authorizeStandIn({ action: 'kms:Sign', resource: 'signingKey' }));
    await expect(
      runAsFunction('getPractice', () => authorizeStandIn({ action: 'kms:Sign', resource: 'signingKey' })),
    ).rejects.toThrow(DENIED('kms:Sign'));
    await runAsFunction('streamToBus', () => authorizeStandIn({ action: 'events:PutEvents', resource: 'bus' }));
    await expect(
      runAsFunction('fanOut', () => authorizeStandIn({ action: 'events:PutEvents', resource: 'bus' })),
    ).rejects.toThrow(DENIED('events:PutEvents'));
    await runAsFunction('fanOut', () => authorizeStandIn({ action: 'sqs:SendMessage', resource: 'queue:deliveries' }));
    await expect(
      runAsFunction('aggregateReports', () =>
        authorizeStandIn({ action: 'sqs:SendMessage', resource: 'queue:deliveries' }),
      ),
    ).rejects.toThrow(DENIED('sqs:SendMessage'));
  });

  it("the token key's public half, which the stage gives at deploy, is stood in only for the functions it is given to", async () => {
    const token = await practice.tokenForRole('admin');
    expect(await runAsFunction('getPractice', () => verifyToken(token))).toMatchObject({ medspaId: practice.medspaId });
    expect(await runAsFunction('getJwks', () => tokenPublicJwk())).toMatchObject({ alg: 'ES256' });
    // The health check and the workers are not given it: on AWS they would have no key to verify with.
    await expect(runAsFunction('getHealth', () => verifyToken(token))).rejects.toThrow(
      'The deployed stage does not set TOKEN_PUBLIC_KEY for function "getHealth"',
    );
    expect(() => runAsFunction('streamToBus', () => tokenPublicJwk())).toThrow(/does not set TOKEN_PUBLIC_KEY/);
  });

  it('the service secrets are read as on AWS: only by a function whose role may GetSecretValue on that secret, and only once it has read it', async () => {
    expect(await runAsFunction('listClients', () => loadSecretKeys('cursor'))).toHaveLength(1);
    expect(runAsFunction('listClients', () => secretKeys('cursor'))).toHaveLength(1);
    expect(await runAsFunction('deliverWebhook', () => loadSecretKeys('webhook'))).toHaveLength(1);
    // A get reads no cursor; a list reads no subscription secret: their roles may not read them.
    await expect(runAsFunction('getClient', () => loadSecretKeys('cursor'))).rejects.toThrow(
      DENIED('secretsmanager:GetSecretValue'),
    );
    await expect(runAsFunction('listWebhooks', () => loadSecretKeys('webhook'))).rejects.toThrow(
      DENIED('secretsmanager:GetSecretValue'),
    );
    // What another function read is not this one's (on AWS each function has its own containers).
    expect(() => runAsFunction('getClient', () => secretKeys('cursor'))).toThrow(
      `The cursor secret was not read by function "getClient": loadSecretKeys('cursor') first, in a function the stage gives CURSOR_SECRET_ARN`,
    );
    // Outside any function (set-up, the seed, the admin command): the local value, unchecked.
    expect(secretKeys('cursor')).toHaveLength(1);
  });

  it('an unknown function name is a programming error, not a silent pass', () => {
    expect(() => runAsFunction('noSuchFunction', () => undefined)).toThrow(/no function "noSuchFunction"/);
  });
});

describe('an authenticated GET through the router with the rate limit on (as deployed, and in the whole suite)', () => {
  // A practice of its own: the probes above left items no route wrote.
  beforeAll(async () => {
    practice = await makePractice();
  });

  it('answers 200 with its RateLimit headers (the GET role updates the bucket)', async () => {
    expect(config().RATE_LIMIT_RPS).toBeGreaterThan(0);
    for (const path of ['/v1/practice', '/v1/providers', '/v1/clients', '/v1/audit-log']) {
      const answer = await call('GET', path, { token: practice.adminToken });
      expect(answer.status, path).toBe(200);
      expect(answer.headers['ratelimit-limit'], path).toBeDefined();
    }
  });

  it('30 parallel requests of one credential, within its burst, all answer 200 (each take is an increment the others need not see first)', async () => {
    const token = await practice.tokenForRole('analyst');
    const answers = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/v1/practice', { token })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  });
});
