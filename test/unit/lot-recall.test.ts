import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { lotCodec, lotRecallNoticeCodec } from '../../lib/db/codecs';
import type { StreamRecord } from '../../lib/db/stream';
import { recallNotices } from '../../lib/domain/recall';
import type { ClientRecord, LotExposureRecord, LotRecord } from '../../lib/domain/records';
import { eventsFromRecord, recallToFanOut } from '../../lib/events/from-record';

// The recall's pure parts: notices grouped per client, and which stream records are its events.

const MID = randomUUID();
const AT = '2026-11-20T10:00:00.000Z';

const lot = (overrides: Partial<LotRecord> = {}): LotRecord => ({
  id: 'lot-1',
  medspa_id: MID,
  product_id: 'product-1',
  lot_number: 'C1234A5',
  expires_on: '2027-06-30',
  quantity_on_hand: 4,
  status: 'active',
  recalled_at: null,
  recall_reason: null,
  recall_reference: null,
  version: 3,
  created_at: AT,
  updated_at: AT,
  ...overrides,
});
const RECALLED = lot({
  status: 'recalled',
  recalled_at: '2026-11-21T09:00:00.000Z',
  recall_reason: 'notice',
  recall_reference: 'FSN-1',
  version: 4,
  updated_at: '2026-11-21T09:00:00.000Z',
});

const exposure = (client: string, appointment: string, treatedAt: string, quantity = 2): LotExposureRecord => ({
  medspa_id: MID,
  lot_id: 'lot-1',
  product_id: 'product-1',
  appointment_id: appointment,
  client_id: client,
  provider_id: 'provider-1',
  treated_at: treatedAt,
  quantity,
});

const image = (item?: Record<string, unknown>) => (item ? (marshall(item) as Record<string, unknown>) : undefined);
const streamRecord = (
  eventName: 'INSERT' | 'MODIFY',
  keys: Record<string, unknown>,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): StreamRecord => ({
  eventID: randomUUID(),
  eventName,
  dynamodb: { Keys: image(keys), OldImage: image(before), NewImage: image(after), SequenceNumber: '1' },
});
const keysOf = (item: Record<string, unknown>) => ({ pk: item.pk, sk: item.sk });
const lotChange = (before: LotRecord, after: LotRecord) =>
  streamRecord('MODIFY', keysOf(lotCodec.toItem(after)), lotCodec.toItem(before), lotCodec.toItem(after));

describe('recallNotices', () => {
  it('one notice per exposed client, with all its exposures oldest first, the client as stored or by id alone', () => {
    const ava = {
      id: 'client-a',
      first_name: 'Ava',
      last_name: 'M',
      email: 'a@example.com',
      phone: null,
    } as ClientRecord;
    const notices = recallNotices(
      RECALLED,
      [
        exposure('client-b', 'appt-3', '2026-10-03T15:00:00.000Z'),
        exposure('client-a', 'appt-2', '2026-10-02T15:00:00.000Z', 5),
        exposure('client-a', 'appt-1', '2026-10-01T15:00:00.000Z'),
      ],
      new Map([['client-a', ava]]),
    );
    expect(notices).toEqual([
      {
        medspa_id: MID,
        lot_id: 'lot-1',
        client_id: 'client-a',
        recalled_at: RECALLED.recalled_at,
        client: { id: 'client-a', first_name: 'Ava', last_name: 'M', email: 'a@example.com', phone: null },
        lot: { id: 'lot-1', product_id: 'product-1', lot_number: 'C1234A5' },
        exposures: [
          { appointment_id: 'appt-1', treated_at: '2026-10-01T15:00:00.000Z', quantity: 2 },
          { appointment_id: 'appt-2', treated_at: '2026-10-02T15:00:00.000Z', quantity: 5 },
        ],
      },
      expect.objectContaining({
        client_id: 'client-b',
        client: { id: 'client-b', first_name: '', last_name: '', email: null, phone: null },
      }),
    ]);
    expect(recallNotices(RECALLED, [], new Map())).toEqual([]);
  });
});

describe('recall events from the stream', () => {
  it("a lot's change from active to recalled is lot.recalled (and its fan-out); no other lot change is", () => {
    const events = eventsFromRecord(lotChange(lot(), RECALLED), { now: new Date() });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'lot.recalled',
      created_at: RECALLED.recalled_at,
      medspa_id: MID,
      data: { object: { id: 'lot-1', status: 'recalled', recall_reference: 'FSN-1', quantity_on_hand: 4 } },
    });
    expect(events[0].data.object).not.toHaveProperty('medspa_id');
    expect(recallToFanOut(lotChange(lot(), RECALLED))).toEqual(RECALLED);

    const moved = lot({ quantity_on_hand: 3, version: 4 });
    const afterRecall = { ...RECALLED, quantity_on_hand: 3, version: 5 };
    for (const [before, after] of [
      [lot(), moved],
      [RECALLED, afterRecall],
    ] as const) {
      expect(eventsFromRecord(lotChange(before, after), { now: new Date() })).toEqual([]);
      expect(recallToFanOut(lotChange(before, after))).toBeNull();
    }
  });

  it("a notice's insert is client.lot_exposure with the contract's object; a rewrite of it is nothing", () => {
    const [notice] = recallNotices(RECALLED, [exposure('client-a', 'appt-1', AT)], new Map());
    const item = lotRecallNoticeCodec.toItem(notice);
    const keys = keysOf(item);
    const events = eventsFromRecord(streamRecord('INSERT', keys, undefined, item), { now: new Date() });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'client.lot_exposure',
        created_at: RECALLED.recalled_at,
        medspa_id: MID,
        data: { object: { client: notice.client, lot: notice.lot, exposures: notice.exposures } },
      },
    ]);
    expect(eventsFromRecord(streamRecord('MODIFY', keys, item, item), { now: new Date() })).toEqual([]);
  });
});
