import type { PutEventsCommand, PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import type { DynamoDBRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processStreamRecords } from '../../lib/use-cases/stream-to-bus';
import { eventBridgePublisher, type Publish } from '../../lib/events/publish';
import type { StreamRecord } from '../../lib/db/stream';
import { EVENT_SOURCE, type ContractEvent } from '../../lib/events/types';
import { call, makePractice, type TestPractice } from '../fixtures/api';
import { makeClient } from '../fixtures/builders';
import { streamReader } from '../fixtures/stream';
import { useTableStream } from '../fixtures/table-stream';

useTableStream();
// The subscriptions below name a receiver on 127.0.0.1 (never called: nothing delivers here).
process.env.ALLOW_LOCAL_WEBHOOKS = 'true';

// The stream worker's path (functions/workers/streamToBus.ts): real stream records of this
// file's table, as Lambda delivers them, through processStreamRecords into a publisher. The
// publisher is injected: EventBridge is stood in for at its PutEvents call, DynamoDB is real.

/** A GetRecords record in the shape Lambda's event has (change time in epoch seconds). */
const asLambdaRecord = (record: StreamRecord): DynamoDBRecord => {
  const at = record.dynamodb?.ApproximateCreationDateTime;
  return {
    ...record,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: at instanceof Date ? at.getTime() / 1000 : (at as number),
    },
  } as DynamoDBRecord;
};

/** A subscription of the practice (events an enabled one takes are the only ones published). */
async function subscribe(practice: TestPractice, events: string[], enabled = true) {
  const created = await call('POST', '/v1/webhooks', {
    token: practice.adminToken,
    body: { url: 'http://127.0.0.1:9/hook', events },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (enabled) return;
  const path = `/v1/webhooks/${created.body.data.id}`;
  expect((await call('PATCH', path, { token: practice.adminToken, body: { enabled: false } })).status).toBe(200);
}

async function recordsOfNewClients(count: number, events: string[] | null = ['*']) {
  const reader = streamReader();
  await reader.readNew();
  const practice = await makePractice();
  if (events) await subscribe(practice, events);
  const clients = [];
  for (let i = 0; i < count; i += 1) clients.push(await makeClient(practice));
  const records = (await reader.readNew()).map(asLambdaRecord);
  return { practice, clients, records };
}

const sequenceOf = (record: DynamoDBRecord) => record.dynamodb!.SequenceNumber!;

describe('stream worker: records -> events -> PutEvents', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("publishes each record's events to the bus and reports no failures", async () => {
    const { practice, clients, records } = await recordsOfNewClients(3);
    const sent: { Source?: string; DetailType?: string; Detail?: string; EventBusName?: string }[] = [];
    const client = {
      async send(command: PutEventsCommand): Promise<PutEventsCommandOutput> {
        sent.push(...(command.input.Entries ?? []));
        return {
          FailedEntryCount: 0,
          Entries: (command.input.Entries ?? []).map(() => ({ EventId: 'x' })),
          $metadata: {},
        };
      },
    };
    const result = await processStreamRecords(records, {
      publish: eventBridgePublisher({ client, eventBusName: 'medspa-test-bus' }),
    });
    expect(result).toEqual({ batchItemFailures: [] });
    const mine = sent
      .map((entry) => JSON.parse(entry.Detail!) as ContractEvent)
      .filter((event) => event.medspa_id === practice.medspaId);
    expect(mine.map((event) => [event.type, event.data.object.id])).toEqual(
      clients.map((c) => ['client.created', c.id]),
    );
    expect(
      sent.every(
        (entry) =>
          entry.Source === EVENT_SOURCE &&
          entry.EventBusName === 'medspa-test-bus' &&
          entry.DetailType === JSON.parse(entry.Detail!).type,
      ),
    ).toBe(true);
  });

  it('publishes only what an enabled subscription of the practice takes: nothing for a practice without one', async () => {
    const published: ContractEvent[] = [];
    const publish: Publish = async (events) => {
      published.push(...events);
    };
    const none = await recordsOfNewClients(2, null);
    const disabledOnly = await recordsOfNewClients(2, null);
    await subscribe(disabledOnly.practice, ['*'], false);
    const otherTypes = await recordsOfNewClients(2, ['client.updated', 'appointment.created']);
    const clientsToo = await recordsOfNewClients(2, ['client.updated', 'client.created']);
    for (const batch of [none, disabledOnly, otherTypes, clientsToo]) {
      expect(await processStreamRecords(batch.records, { publish })).toEqual({ batchItemFailures: [] });
    }
    // The disabled practice's records were written before its subscription, read after: still none.
    expect(published.map((event) => [event.medspa_id, event.data.object.id])).toEqual(
      clientsToo.clients.map((client) => [clientsToo.practice.medspaId, client.id]),
    );
  });

  it('a record whose events are not accepted is reported by sequence number; the others are not', async () => {
    const { clients, records } = await recordsOfNewClients(3);
    const refused = clients[1].id;
    const publish: Publish = async (events) => {
      if (events.some((event) => event.data.object.id === refused)) throw new Error('ThrottlingException');
    };
    const result = await processStreamRecords(records, { publish });
    const failing = records.filter(
      (record) =>
        JSON.stringify(record.dynamodb?.NewImage ?? {}).includes(refused) && record.dynamodb?.Keys?.sk?.S === refused,
    );
    expect(failing).toHaveLength(1);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: sequenceOf(failing[0]) }]);
  });

  it('records are handed to publish one by one, in stream order', async () => {
    const { practice, clients, records } = await recordsOfNewClients(4);
    const order: string[] = [];
    await processStreamRecords(records, {
      publish: async (events) => {
        // Uneven publish times would reorder records handled in parallel.
        await new Promise((resolve) => setTimeout(resolve, 10 * Math.random()));
        order.push(
          ...events
            .filter((event) => event.medspa_id === practice.medspaId)
            .map((event) => String(event.data.object.id)),
        );
      },
    });
    const inStream = records
      .filter((record) => record.eventName === 'INSERT' && record.dynamodb?.NewImage?.entity?.S === 'CLIENT')
      .map((record) => record.dynamodb!.NewImage!.id.S);
    expect(inStream).toEqual(clients.map((c) => c.id));
    expect(order).toEqual(inStream);
  });

  it('the Lambda module fails fast without EVENT_BUS_NAME, and exports the handler with it', async () => {
    vi.stubEnv('EVENT_BUS_NAME', '');
    await expect(import('../../functions/workers/streamToBus')).rejects.toThrow(/EVENT_BUS_NAME/);
    vi.resetModules();
    vi.stubEnv('EVENT_BUS_NAME', 'medspa-test-bus');
    const module = await import('../../functions/workers/streamToBus');
    expect(typeof module.handler).toBe('function');
  });
});
