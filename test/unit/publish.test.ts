import type { PutEventsCommand, PutEventsCommandOutput } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { chunkEntries, eventBridgePublisher, PublishError } from '../../lib/events/publish';
import { EVENT_SOURCE, type ContractEvent } from '../../lib/events/types';

// EventBridge is stood in for by a client whose `send` records each PutEvents call and answers
// with per-entry results, as the real service does (entries line up with the request).

const makeEvent = (n: number, bytes = 100): ContractEvent => ({
  id: `evt_${String(n).padStart(32, '0')}`,
  type: 'appointment.created',
  created_at: new Date().toISOString(),
  medspa_id: 'm',
  data: { object: { id: String(n), notes: 'x'.repeat(bytes) } },
});

function fakeBus(failures: (call: number, eventId: string) => string | null = () => null) {
  const calls: {
    Entries: { Source?: string; DetailType?: string; Detail?: string; EventBusName?: string; Time?: Date }[];
  }[] = [];
  const client = {
    async send(command: PutEventsCommand): Promise<PutEventsCommandOutput> {
      const entries = command.input.Entries ?? [];
      calls.push({ Entries: entries });
      const results = entries.map((entry) => {
        const code = failures(calls.length, JSON.parse(entry.Detail!).id);
        return code ? { ErrorCode: code, ErrorMessage: 'no' } : { EventId: 'eb-id' };
      });
      return { FailedEntryCount: results.filter((r) => 'ErrorCode' in r).length, Entries: results, $metadata: {} };
    },
  };
  return { client, calls };
}

const noWait = () => 0;

describe('eventBridgePublisher', () => {
  it('sends source, detail type = event type, detail = the envelope, to the bus, in chunks of 10 in order', async () => {
    const bus = fakeBus();
    const events = Array.from({ length: 23 }, (_, n) => makeEvent(n));
    await eventBridgePublisher({ client: bus.client, eventBusName: 'medspa-events', retryDelayMs: noWait })(events);
    expect(bus.calls.map((call) => call.Entries.length)).toEqual([10, 10, 3]);
    const sent = bus.calls.flatMap((call) => call.Entries);
    expect(sent.map((entry) => JSON.parse(entry.Detail!))).toEqual(events);
    expect(
      sent.every(
        (entry) =>
          entry.Source === EVENT_SOURCE &&
          entry.DetailType === 'appointment.created' &&
          entry.EventBusName === 'medspa-events',
      ),
    ).toBe(true);
    expect(sent[0].Time).toEqual(new Date(events[0].created_at));
  });

  it('retries only the entries EventBridge failed, then succeeds', async () => {
    const flaky = new Set([makeEvent(3).id, makeEvent(7).id]);
    const bus = fakeBus((call, id) => (call === 1 && flaky.has(id) ? 'ThrottlingException' : null));
    await eventBridgePublisher({ client: bus.client, eventBusName: 'b', retryDelayMs: noWait })(
      Array.from({ length: 10 }, (_, n) => makeEvent(n)),
    );
    expect(bus.calls.map((call) => call.Entries.map((entry) => JSON.parse(entry.Detail!).id))).toEqual([
      Array.from({ length: 10 }, (_, n) => makeEvent(n).id),
      [makeEvent(3).id, makeEvent(7).id],
    ]);
  });

  it('reports entries still failing after the bounded attempts, having published the rest', async () => {
    const bad = makeEvent(1).id;
    const bus = fakeBus((_call, id) => (id === bad ? 'InternalFailure' : null));
    const publish = eventBridgePublisher({
      client: bus.client,
      eventBusName: 'b',
      maxAttempts: 3,
      retryDelayMs: noWait,
    });
    const error = await publish([makeEvent(0), makeEvent(1), makeEvent(2)]).catch((caught) => caught);
    expect(error).toBeInstanceOf(PublishError);
    expect(error.failures).toEqual([{ eventId: bad, code: 'InternalFailure' }]);
    expect(bus.calls).toHaveLength(3);
    expect(bus.calls.slice(1).every((call) => call.Entries.length === 1)).toBe(true);
  });

  it('a call that throws rejects the publish', async () => {
    const client = {
      send: async () => {
        throw new Error('AccessDenied');
      },
    };
    await expect(eventBridgePublisher({ client, eventBusName: 'b' })([makeEvent(0)])).rejects.toThrow('AccessDenied');
  });

  it('nothing to publish sends nothing', async () => {
    const bus = fakeBus();
    await eventBridgePublisher({ client: bus.client, eventBusName: 'b' })([]);
    expect(bus.calls).toHaveLength(0);
  });
});

describe('chunkEntries', () => {
  it('keeps each request under 256 KB as well as 10 entries', () => {
    const sizes = [100_000, 100_000, 100_000, 10, 10];
    expect(chunkEntries(sizes, (size) => size)).toEqual([
      [100_000, 100_000],
      [100_000, 10, 10],
    ]);
    expect(
      chunkEntries(
        Array.from({ length: 12 }, () => 1),
        (size) => size,
      ).map((chunk) => chunk.length),
    ).toEqual([10, 2]);
  });
});
