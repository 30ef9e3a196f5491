import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizeStandIn, runAsFunction } from '../../lib/aws/local-runtime';
import { tokenPublicJwk } from '../../lib/auth/token-key';
import { accessOf } from '../../lib/auth/access';
import { verifyToken } from '../../lib/auth/tokens';
import { config } from '../../lib/config';
import { loadSecretKeys, secretKeys } from '../../lib/crypto/named-secret';
import { ddb, tableName } from '../../lib/db/client';
import { keyNamesOf } from '../../lib/db/table';
import {
  appointmentTimeIndexPk,
  clientAppointmentsIndexPk,
  collectionPk,
  entityKey,
  practiceKey,
  rateLimitKey,
} from '../../lib/db/keys';
import { workers } from '../../lib/workers';
import { route } from '../../lib/http/route';
import { routes } from '../../lib/routes';
import { localIamEnabled } from '../../infra/local/aws/runtime';
import { dispatch } from '../../infra/local/router';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { booked, BOOKING_DAY, makeScene, nyTime } from '../fixtures/scheduling';

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

  it("a read outside the role's partition families fails as AWS fails it; inside them it passes", async () => {
    const get = (functionName: string, key: { pk: string; sk: string }) =>
      runAsFunction(functionName, () => ddb().send(new GetCommand({ TableName: tableName(), Key: key }))).catch(
        (caught: unknown) => caught as Error,
      );
    const credential = entityKey(practice.medspaId, 'CRED', practice.clientId);
    // The webhook worker POSTs to customer URLs: it reads subscriptions and their delivery log, nothing else.
    expect(workers.deliverWebhook.binds.reads).not.toContain('clients');
    const denied = await get('deliverWebhook', entityKey(practice.medspaId, 'CLIENT', crypto.randomUUID()));
    expect(denied).toMatchObject({ name: 'AccessDeniedException', $fault: 'client' });
    expect((denied as Error).message).toMatch(DENIED('dynamodb:GetItem'));
    expect(await get('deliverWebhook', entityKey(practice.medspaId, 'WEBHOOK', crypto.randomUUID()))).toMatchObject({
      $metadata: { httpStatusCode: 200 },
    });
    // A public booking route reads its key and practice, never a staff credential.
    expect(((await get('getPublicPractice', credential)) as Error).message).toMatch(DENIED('dynamodb:GetItem'));
    expect(await get('getPublicPractice', practiceKey(practice.medspaId))).toMatchObject({
      $metadata: { httpStatusCode: 200 },
    });
    // A batch is authorized once with every leading key: one key outside denies it all.
    const batch = await runAsFunction('getClient', () =>
      ddb().send(
        new BatchGetCommand({
          RequestItems: {
            [tableName()]: { Keys: [practiceKey(practice.medspaId), credential, rateLimitKey(practice.medspaId, 'x')] },
          },
        }),
      ),
    ).catch((caught: unknown) => caught as Error);
    expect((batch as Error).message).toMatch(DENIED('dynamodb:BatchGetItem'));
  });

  it("a Query on an index is authorized on the index, by the index's partition key (as AWS evaluates dynamodb:LeadingKeys there)", async () => {
    const query = (functionName: string, index: string, partition: string) =>
      runAsFunction(functionName, () =>
        ddb().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: index,
            KeyConditionExpression: `${keyNamesOf(index).pk} = :p`,
            ExpressionAttributeValues: { ':p': partition },
          }),
        ),
      ).catch((caught: unknown) => caught as Error);
    const month = appointmentTimeIndexPk(practice.medspaId, '2030-01');
    const client = clientAppointmentsIndexPk(practice.medspaId, crypto.randomUUID());
    // The list reads gsi1n (gsi1's keys, narrow entries), not gsi1's whole items.
    expect(await query('getAppointments', 'gsi1n', month)).toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(await query('getClientHistory', 'gsi2', client)).toMatchObject({ $metadata: { httpStatusCode: 200 } });
    // The other's index partition, or its own on another index: no statement allows it.
    expect(((await query('getClientHistory', 'gsi1', month)) as Error).message).toMatch(DENIED('dynamodb:Query'));
    expect(((await query('getAppointments', 'gsi1', month)) as Error).message).toMatch(DENIED('dynamodb:Query'));
    expect(((await query('getAppointments', 'gsi2', client)) as Error).message).toMatch(DENIED('dynamodb:Query'));
    expect(((await query('getAppointments', 'gsi1n', client)) as Error).message).toMatch(DENIED('dynamodb:Query'));
  });

  it("a function's cached reads are its own: what one function read does not answer another without its role's check", async () => {
    const token = await practice.tokenForRole('admin');
    const caller = await runAsFunction('getPractice', () => verifyToken(token));
    // getPractice reads and caches the caller's credential and practice ...
    expect(await runAsFunction('getPractice', () => accessOf(caller))).toMatchObject({ credentialLive: true });
    // ... which a function whose role may not read credentials cannot take from that cache.
    await expect(runAsFunction('deliverWebhook', () => accessOf(caller))).rejects.toThrow(
      DENIED('dynamodb:BatchGetItem'),
    );
  });

  it("each declared read is one the code makes: the booking page reads its key's origins, a move reads the room and equipment it keeps", async () => {
    const admin = await practice.tokenForRole('admin');
    const key = (
      await call('POST', '/v1/publishable-keys', {
        token: admin,
        body: { name: 'Page', allowed_origins: ['https://page.example'] },
      })
    ).body.data.key;
    const page = await dispatch({ method: 'GET', url: `/book?key=${encodeURIComponent(key)}` });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain('frame-ancestors https://page.example');
    const scene = await makeScene();
    const appointment = await booked(scene, { room_id: scene.room.id, equipment_id: scene.equipment.id });
    const moved = await call('PATCH', `/v1/appointments/${appointment.id}`, {
      token: scene.practice.adminToken,
      body: { scheduled_at: nyTime(BOOKING_DAY, '13:00') },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(JSON.stringify(moved.body.data)).toContain(scene.equipment.id);
  });

  it('a route row that reads the table must say what it reads (so synth fails without it)', () => {
    const row = { method: 'GET', path: '/v1/probe', group: 'probe', summary: 'Probe', auth: ['admin'] } as const;
    expect(() => route('probeWithoutReads', () => row)).toThrow(
      'probeWithoutReads: declare the partitions it reads (reads, lib/db/keys.ts), or touches.table false',
    );
    expect(route('probeWithReads', () => ({ ...row, reads: [] })).reads).toEqual([]);
    expect(route('probeTableless', () => ({ ...row, touches: { table: false } }))).not.toHaveProperty('reads');
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
