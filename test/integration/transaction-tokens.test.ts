import { randomUUID } from 'node:crypto';
import {
  TransactionCanceledException,
  TransactionInProgressException,
  TransactWriteItemsCommand,
  type TransactWriteItemsCommandInput,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ddb } from '../../lib/db/client';
import { call } from '../fixtures/api';
import { book, booked, BOOKING_DAY, makeScene, nyTime, type Scene } from '../fixtures/scheduling';

/**
 * Every TransactWriteItems carries a ClientRequestToken (lib/db/transact.ts), and DynamoDB Local
 * honours it as DynamoDB does (docs/local-vs-aws.md, "A transaction resent after its answer was lost"). A client middleware at
 * the deserialize step sees each HTTP attempt the SDK makes, as sent, and can fault one: let it
 * commit and lose the answer (the SDK resends), or answer TransactionConflict or
 * TransactionInProgressException instead of sending it.
 */
type Fault = 'lose-answer' | 'conflict' | 'in-progress';

interface Sent {
  /** The token on the command's input: ours, not one the SDK's serializer made up. */
  inputToken: string | undefined;
  wire: TransactWriteItemsCommandInput;
  body: string;
}

const sent: Sent[] = [];
let fault: Fault | undefined;

const textOf = (body: unknown) => (typeof body === 'string' ? body : new TextDecoder().decode(body as Uint8Array));

beforeAll(() => {
  ddb().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const body = textOf((args as { request: { body: unknown } }).request.body);
      sent.push({
        inputToken: (args.input as { ClientRequestToken?: string }).ClientRequestToken,
        wire: JSON.parse(body),
        body,
      });
      const injected = fault;
      fault = undefined;
      if (injected === 'conflict') {
        const { TransactItems = [] } = JSON.parse(body) as TransactWriteItemsCommandInput;
        throw new TransactionCanceledException({
          message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: TransactItems.map((_, index) =>
            index === 0 ? { Code: 'TransactionConflict' } : { Code: 'None' },
          ),
        });
      }
      if (injected === 'in-progress') {
        throw new TransactionInProgressException({
          message: 'The transaction with the given request token is already in progress.',
          $metadata: { httpStatusCode: 400 },
        });
      }
      const answer = await next(args);
      // Committed; the answer is lost on the way back, as a reset connection loses it.
      if (injected === 'lose-answer')
        throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });
      return answer;
    },
    { step: 'deserialize', name: 'transactionFaults' },
  );
});

afterAll(() => {
  ddb().middlewareStack.remove('transactionFaults');
});

let scene: Scene;
beforeAll(async () => {
  scene = await makeScene();
});

beforeEach(() => {
  sent.length = 0;
  fault = undefined;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every send carried our token (at most 36 characters, the API's limit) on the wire. */
function expectOwnTokens() {
  for (const send of sent) {
    expect(send.wire.ClientRequestToken).toMatch(UUID);
    expect(send.inputToken).toBe(send.wire.ClientRequestToken);
  }
}

describe('ClientRequestToken on every TransactWriteItems', () => {
  it('a booking whose answer was lost is resent by the SDK under the same token: DynamoDB answers success, so it is a 201, not a 409', async () => {
    fault = 'lose-answer';
    const response = await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '09:00') });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expectOwnTokens();
    const id = response.body.data.id as string;
    expect((await call('GET', `/v1/appointments/${id}`, { token: scene.practice.adminToken })).body.data.status).toBe(
      'scheduled',
    );

    // The same transaction, replayed as sent: still a success. Under a new token it is judged
    // afresh, and its conditions fail: what the resend would have met without a token.
    const replay = sent[0].wire;
    await expect(ddb().send(new TransactWriteItemsCommand(replay))).resolves.toBeDefined();
    const fresh = await ddb()
      .send(new TransactWriteItemsCommand({ ...replay, ClientRequestToken: randomUUID() }))
      .catch((error: unknown) => error);
    expect(fresh).toBeInstanceOf(TransactionCanceledException);
    expect((fresh as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code)).toContain(
      'ConditionalCheckFailed',
    );
  });

  it('a status change whose answer was lost answers 200, not INVALID_STATUS_TRANSITION from deciding again on its own result', async () => {
    const { id } = (await booked(scene, { scheduled_at: nyTime(BOOKING_DAY, '11:00') })) as { id: string };
    sent.length = 0;
    fault = 'lose-answer';
    const response = await call('PATCH', `/v1/appointments/${id}/status`, {
      token: scene.practice.adminToken,
      body: { status: 'confirmed' },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data).toMatchObject({ status: 'confirmed', version: 2 });
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expectOwnTokens();
  });

  it('a new attempt after a TransactionConflict is a new transaction, under a new token', async () => {
    fault = 'conflict';
    const response = await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '13:00') });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(sent).toHaveLength(2);
    expect(sent[1].wire.ClientRequestToken).not.toBe(sent[0].wire.ClientRequestToken);
    expectOwnTokens();
  });

  it('TransactionInProgressException (a resend racing its first send) is resent by the SDK under the same token', async () => {
    fault = 'in-progress';
    const response = await book(scene, { scheduled_at: nyTime(BOOKING_DAY, '15:00') });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(sent).toHaveLength(2);
    expect(sent[1].body).toBe(sent[0].body);
    expectOwnTokens();
  });
});
