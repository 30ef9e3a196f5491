import { describe, expect, it } from 'vitest';
import { holdCodec, holdIpLedgerCodec, seriesCodec } from '../../lib/db/codecs';
import { REPORT_KINDS } from '../../lib/db/report-sources';
import { EVENT_SOURCES } from '../../lib/events/mappings';
import { WAITLIST_STREAM_KINDS } from '../../lib/use-cases/waitlist-freed';
import { freedByAppointment } from '../../lib/domain/waitlist';
import { streamMappingOf, workers } from '../../lib/workers';
import { passes, streamFilterPatterns } from '../../lib/workers/stream-filter';

type StreamTrigger = Parameters<typeof streamMappingOf>[0];

/** A stream record as GetRecords and Lambda's event carry it (attribute values in the wire format). */
const record = (eventName: string, images: { NewImage?: string; OldImage?: string }) => ({
  eventName,
  dynamodb: {
    ...(images.NewImage ? { NewImage: { entity: { S: images.NewImage }, id: { S: 'x' } } } : {}),
    ...(images.OldImage ? { OldImage: { entity: { S: images.OldImage }, id: { S: 'x' } } } : {}),
  },
});

describe("stream mappings' filters", () => {
  it("each stream worker's entities are exactly the kinds its decoder asks for", () => {
    const sorted = (kinds: readonly string[]) => [...new Set(kinds)].sort();
    // The relay decodes the event sources, and appointments for their reminders (lib/events/from-record.ts).
    expect(sorted(workers.streamToBus.trigger.entities)).toEqual(sorted([...EVENT_SOURCES, 'APPOINTMENT']));
    expect(sorted(workers.aggregateReports.trigger.entities)).toEqual(sorted(REPORT_KINDS));
    expect(sorted(workers.waitlistOffers.trigger.entities)).toEqual(sorted(WAITLIST_STREAM_KINDS));
  });

  it('holds and series items emit no events (a series speaks through its appointments): no stream worker takes a hold, its IP ledger, a series or their TTL expiries (the waitlist worker takes holds only to offer their freed time)', () => {
    for (const [name, worker] of Object.entries(workers)) {
      if (worker.trigger.kind !== 'stream' || name === 'waitlistOffers') continue;
      const filters = streamFilterPatterns(worker.trigger.entities);
      for (const kind of [holdCodec.entity, holdIpLedgerCodec.entity, seriesCodec.entity]) {
        expect(passes(filters, record('INSERT', { NewImage: kind })), name).toBe(false);
        expect(passes(filters, record('MODIFY', { NewImage: kind, OldImage: kind })), name).toBe(false);
        expect(passes(filters, record('REMOVE', { OldImage: kind })), name).toBe(false);
      }
    }
  });

  it("take a record by its new image's entity, or a REMOVE's old image's, as the decoder does", () => {
    const filters = streamFilterPatterns(['APPOINTMENT', 'CLIENT']);
    expect(passes(filters, record('INSERT', { NewImage: 'APPOINTMENT' }))).toBe(true);
    expect(passes(filters, record('MODIFY', { NewImage: 'CLIENT', OldImage: 'CLIENT' }))).toBe(true);
    expect(passes(filters, record('REMOVE', { OldImage: 'APPOINTMENT' }))).toBe(true);
    // Other items: audit entries, rate-limit buckets and idempotency records (no entity), their TTL expiries.
    expect(passes(filters, record('INSERT', { NewImage: 'AUDIT' }))).toBe(false);
    expect(passes(filters, record('MODIFY', {}))).toBe(false);
    expect(passes(filters, record('REMOVE', { OldImage: 'PRODUCT' }))).toBe(false);
    expect(passes(filters, record('REMOVE', {}))).toBe(false);
    // A MODIFY is judged by its new image, as lib/db/stream.ts picks it.
    expect(passes(filters, record('MODIFY', { NewImage: 'PRODUCT', OldImage: 'CLIENT' }))).toBe(false);
  });

  it('a kind narrowed to some changes takes only those, the other kinds every change', () => {
    const filters = streamFilterPatterns(['APPOINTMENT', 'HOLD', 'CLIENT'], {
      APPOINTMENT: ['MODIFY', 'REMOVE'],
      HOLD: ['INSERT', 'MODIFY'],
    });
    expect(passes(filters, record('INSERT', { NewImage: 'APPOINTMENT' }))).toBe(false);
    expect(passes(filters, record('MODIFY', { NewImage: 'APPOINTMENT', OldImage: 'APPOINTMENT' }))).toBe(true);
    expect(passes(filters, record('REMOVE', { OldImage: 'APPOINTMENT' }))).toBe(true);
    expect(passes(filters, record('INSERT', { NewImage: 'HOLD' }))).toBe(true);
    expect(passes(filters, record('MODIFY', { NewImage: 'HOLD', OldImage: 'HOLD' }))).toBe(true);
    expect(passes(filters, record('REMOVE', { OldImage: 'HOLD' }))).toBe(false);
    for (const change of ['INSERT', 'MODIFY'])
      expect(passes(filters, record(change, { NewImage: 'CLIENT', OldImage: 'CLIENT' })), change).toBe(true);
    expect(passes(filters, record('REMOVE', { OldImage: 'CLIENT' }))).toBe(true);
  });

  it('the waitlist worker skips only changes it would do nothing with: a new appointment frees no time', () => {
    const filters = streamMappingOf(workers.waitlistOffers.trigger as StreamTrigger).filters;
    expect(passes(filters, record('INSERT', { NewImage: 'APPOINTMENT' }))).toBe(false);
    const booked = {
      id: 'a',
      provider_id: 'p',
      service_id: 's',
      scheduled_at: '2026-12-01T15:00:00.000Z',
      end_at: '2026-12-01T16:00:00.000Z',
      status: 'scheduled' as const,
      version: 1,
    };
    expect(freedByAppointment(null, booked as never)).toBeNull();
    // A cancel and a delete do invoke it.
    expect(passes(filters, record('MODIFY', { NewImage: 'APPOINTMENT', OldImage: 'APPOINTMENT' }))).toBe(true);
    expect(passes(filters, record('REMOVE', { OldImage: 'APPOINTMENT' }))).toBe(true);
  });
});
