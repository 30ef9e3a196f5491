import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { treatmentRevisionCodec } from '../../lib/db/codecs';
import type { StreamRecord } from '../../lib/db/stream';
import type { TreatmentRevisionRecord } from '../../lib/domain/records';
import { exposureChanges, stockDifference, stockTakes } from '../../lib/domain/treatment-records';
import { eventsFromRecord } from '../../lib/events/from-record';
import { TreatmentRecordBody } from '../../lib/schemas/treatment-records';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const LA = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const LB = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

describe('stock a treatment record takes', () => {
  it('sums per product and lot, and free-text items take nothing', () => {
    expect(
      stockTakes([
        { product_id: P1, lot_id: LA, quantity: 2 },
        { product_id: P1, lot_id: LA, quantity: 1 },
        { product_id: P1, lot_id: LB, quantity: 1 },
        { product_id: P2, quantity: 4 },
        {},
      ]),
    ).toEqual([
      { product_id: P1, lot_id: LA, quantity: 3 },
      { product_id: P1, lot_id: LB, quantity: 1 },
      { product_id: P2, lot_id: null, quantity: 4 },
    ]);
  });

  it('a replace moves each product and lot by the difference, one move per product, nothing for what nets to zero', () => {
    const before = stockTakes([
      { product_id: P1, lot_id: LA, quantity: 3 },
      { product_id: P2, quantity: 4 },
    ]);
    const after = stockTakes([
      { product_id: P1, lot_id: LA, quantity: 1 },
      { product_id: P1, lot_id: LB, quantity: 2 },
      { product_id: P2, quantity: 4 },
    ]);
    expect(stockDifference(before, after)).toEqual([
      {
        product_id: P1,
        lines: [
          { lot_id: LA, delta: 2 },
          { lot_id: LB, delta: -2 },
        ],
      },
    ]);
    expect(stockDifference([], before)).toEqual([
      { product_id: P1, lines: [{ lot_id: LA, delta: -3 }] },
      { product_id: P2, lines: [{ lot_id: null, delta: -4 }] },
    ]);
    expect(stockDifference(before, before)).toEqual([]);
  });

  it('exposures: one per lot taken from with its total, a deletion (0) for a lot no longer taken from, unchanged lots untouched', () => {
    const before = stockTakes([
      { product_id: P1, lot_id: LA, quantity: 3 },
      { product_id: P1, lot_id: LB, quantity: 1 },
    ]);
    const after = stockTakes([
      { product_id: P1, lot_id: LB, quantity: 1 },
      { product_id: P2, quantity: 5 },
    ]);
    expect(exposureChanges(before, after)).toEqual([{ lot_id: LA, product_id: P1, quantity: 0 }]);
    expect(exposureChanges([], before)).toEqual([
      { lot_id: LA, product_id: P1, quantity: 3 },
      { lot_id: LB, product_id: P1, quantity: 1 },
    ]);
  });
});

describe('the PUT body', () => {
  const problems = (body: unknown) => {
    const parsed = TreatmentRecordBody.safeParse(body);
    return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('keeps free-text items as before and takes catalog items with a whole quantity and published sites', () => {
    expect(problems({ products_used: [{ name: 'Botox', quantity: 20.5, unit: 'units', lot_number: 'C1' }] })).toEqual(
      [],
    );
    expect(
      problems({
        products_used: [
          { product_id: P1, lot_id: LA, quantity: 1, injection_points: [{ site: 'glabella', units: 20, depth: 'im' }] },
        ],
      }),
    ).toEqual([]);
    expect(problems({ products_used: [{ quantity: 1 }] })).toEqual([
      'products_used.0.name: is required without product_id',
    ]);
    expect(problems({ products_used: [{ product_id: P1, quantity: 1.5 }] })[0]).toMatch(
      /^products_used\.0\.quantity: /,
    );
    expect(problems({ products_used: [{ name: 'x', lot_id: LA }] })[0]).toMatch(/^products_used\.0\.lot_id: /);
    expect(
      problems({
        products_used: [{ product_id: P1, quantity: 1, injection_points: [{ site: 'elbow', units: 1 }] }],
      })[0],
    ).toMatch(/^products_used\.0\.injection_points\.0\.site: /);
  });
});

describe('treatment_record events', () => {
  const MID = randomUUID();
  const revision = (n: number): TreatmentRevisionRecord => ({
    medspa_id: MID,
    appointment_id: randomUUID(),
    client_id: randomUUID(),
    provider_id: randomUUID(),
    recorded_by: 'ms_x',
    summary: 'Botox',
    products_used: [{ name: 'Botox', product_id: P1, lot_id: LA, quantity: 1 }],
    status: 'signed',
    signed_at: '2026-11-23T14:05:09.412Z',
    signed_by: 'ms_x',
    revision: n,
    amendment_reason: n === 1 ? null : 'corrected',
    version: n + 1,
    created_at: '2026-11-23T14:00:00.000Z',
    updated_at: '2026-11-23T14:05:09.412Z',
  });
  const streamRecord = (eventName: 'INSERT' | 'MODIFY' | 'REMOVE', item: Record<string, unknown>): StreamRecord => ({
    eventID: randomUUID(),
    eventName,
    dynamodb: {
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      ...(eventName === 'REMOVE' ? {} : { NewImage: marshall(item, { removeUndefinedValues: true }) }),
      ...(eventName === 'INSERT' ? {} : { OldImage: marshall(item, { removeUndefinedValues: true }) }),
      SequenceNumber: '1',
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
    },
  });
  const now = { now: new Date() };

  it('revision 1 is treatment_record.signed, a later one treatment_record.amended, each once, with the record as GET shows it', () => {
    const first = revision(1);
    const signed = eventsFromRecord(streamRecord('INSERT', treatmentRevisionCodec.toItem(first)), now);
    expect(signed.map((event) => event.type)).toEqual(['treatment_record.signed']);
    const { medspa_id: _m, ...shown } = first;
    expect(signed[0]!.data).toEqual({ object: shown });
    expect(signed[0]!.created_at).toBe(shown.signed_at);
    const amended = eventsFromRecord(streamRecord('INSERT', treatmentRevisionCodec.toItem(revision(2))), now);
    expect(amended.map((event) => event.type)).toEqual(['treatment_record.amended']);
    expect(amended[0]!.data.object).toMatchObject({ revision: 2, amendment_reason: 'corrected' });
  });

  it('nothing for a revision item that changes or goes (revisions are written once)', () => {
    const item = treatmentRevisionCodec.toItem(revision(1));
    expect(eventsFromRecord(streamRecord('MODIFY', item), now)).toEqual([]);
    expect(eventsFromRecord(streamRecord('REMOVE', item), now)).toEqual([]);
  });
});
