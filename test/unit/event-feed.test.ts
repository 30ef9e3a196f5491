import { describe, expect, it } from 'vitest';
import {
  FEED_EVENTS_PER_TRANSACTION,
  feedChunks,
  feedEventOf,
  feedExpiry,
  isFeedPosition,
} from '../../lib/domain/event-feed';
import type { ContractEvent } from '../../lib/domain/events';
import { eventFeedKey, eventFeedHeadKey } from '../../lib/db/keys';

const event = (medspa_id: string, n: number, data: ContractEvent['data'] = { object: { n } }): ContractEvent => ({
  id: `evt_${String(n).padStart(32, '0')}`,
  type: 'client.created',
  created_at: '2026-11-28T10:00:00.000Z',
  medspa_id,
  data,
});

describe('event feed rules', () => {
  it('keeps the envelope without what data carries beside object and previous (a manage token)', () => {
    const withToken = event('p', 1, { object: { id: 'a' }, manage_token: 'mt_secret' } as ContractEvent['data']);
    expect(feedEventOf(withToken).data).toEqual({ object: { id: 'a' } });
    const change = event('p', 2, { object: { a: 2 }, previous: { a: 1 } });
    expect(feedEventOf(change)).toEqual(change);
  });

  it('chunks per practice, in order, each event once, at most 49 a transaction (1 head + 2 items each <= 100)', () => {
    expect(1 + 2 * FEED_EVENTS_PER_TRANSACTION).toBeLessThanOrEqual(100);
    const events = [
      ...Array.from({ length: 120 }, (_, n) => event('a', n)),
      event('b', 1),
      event('a', 3),
      event('b', 1),
    ];
    const chunks = feedChunks(events);
    expect([...chunks.keys()]).toEqual(['a', 'b']);
    expect(chunks.get('a')!.map((chunk) => chunk.length)).toEqual([49, 49, 22]);
    expect(
      chunks
        .get('a')!
        .flat()
        .map((e) => e.id),
    ).toEqual(events.slice(0, 120).map((e) => e.id));
    expect(chunks.get('b')!.flat()).toHaveLength(1);
  });

  it('expires 30 days after the event; places sort as numbers and never reach the head', () => {
    expect(feedExpiry('2026-11-28T10:00:00.000Z')).toBe(Date.parse('2026-12-28T10:00:00.000Z') / 1000);
    const sks = [9, 10, 99, 100, 123456].map((seq) => eventFeedKey('m', seq).sk);
    expect([...sks].sort()).toEqual(sks);
    expect(sks.every((sk) => sk < eventFeedHeadKey('m').sk)).toBe(true);
  });

  it('a cursor position is one non-negative whole seq', () => {
    expect(isFeedPosition({ seq: 0 })).toBe(true);
    expect(isFeedPosition({ seq: 12 })).toBe(true);
    for (const bad of [null, {}, { seq: -1 }, { seq: 1.5 }, { seq: '3' }, { seq: 1, pk: 'x' }])
      expect(isFeedPosition(bad), JSON.stringify(bad)).toBe(false);
  });
});
