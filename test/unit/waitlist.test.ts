import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { waitlistOfferCodec } from '../../lib/db/codecs';
import { eventsFromRecord } from '../../lib/events/from-record';
import {
  candidateStarts,
  entryStatus,
  fittingEntries,
  freedByAppointment,
  freedByHold,
  freedReleased,
  MAX_CANDIDATES_PER_ENTRY,
  servingOrder,
  type Waiting,
} from '../../lib/domain/waitlist';

/** The waitlist's pure rules (lib/domain/waitlist.ts). */

const T = (hhmm: string) => `2030-03-04T${hhmm}:00.000Z`;
const NOW = Date.parse('2030-03-01T00:00:00.000Z');

const appointment = (fields: Record<string, unknown> = {}) => ({
  id: 'a1',
  medspa_id: 'p1',
  service_id: 's1',
  provider_id: 'pr1',
  scheduled_at: T('10:00'),
  end_at: T('11:00'),
  status: 'scheduled' as const,
  version: 1,
  ...fields,
});

const entry = (fields: Partial<Waiting> = {}): Waiting => ({
  id: 'e1',
  service_id: 's1',
  provider_ids: null,
  windows: [{ start: T('09:00'), end: T('13:00') }],
  expires_at: null,
  created_at: '2030-02-01T00:00:00.000Z',
  ...fields,
});

describe('freed time', () => {
  it('a cancel, a no-show, a delete and a move of an active appointment free its held time; other changes free nothing', () => {
    const before = appointment({ buffer_before_minutes: 15, buffer_after_minutes: 10 });
    const span = { medspaId: 'p1', providerId: 'pr1', serviceId: 's1', start: T('09:45'), end: T('11:10') };
    expect(freedByAppointment(before, { ...before, status: 'cancelled', version: 2 })).toEqual({
      id: 'a1#v2',
      ...span,
    });
    expect(freedByAppointment(before, { ...before, status: 'no_show', version: 3 })).toEqual({ id: 'a1#v3', ...span });
    expect(freedByAppointment(before, null)).toEqual({ id: 'a1#deleted', ...span });
    expect(
      freedByAppointment(before, { ...before, scheduled_at: T('14:00'), end_at: T('15:00'), version: 2 })?.id,
    ).toBe('a1#v2');
    expect(freedByAppointment(before, { ...before, provider_id: 'pr2', version: 2 })?.providerId).toBe('pr1');
    expect(freedByAppointment(before, { ...before, status: 'confirmed', version: 2 })).toBeNull();
    expect(freedByAppointment(before, { ...before, status: 'completed', version: 2 })).toBeNull();
    expect(freedByAppointment(null, before)).toBeNull();
    const cancelled = { ...before, status: 'cancelled' as const };
    expect(freedByAppointment(cancelled, null)).toBeNull();
  });

  it('a hold frees its held time, named by its cause', () => {
    expect(freedByHold(appointment({ id: 'h1' }), 'expiry')).toMatchObject({ id: 'h1#expiry', start: T('10:00') });
    expect(freedByHold(appointment({ id: 'h1' }), 'release').id).toBe('h1#release');
  });

  it('released: offered to nobody, version moved on', () => {
    expect(freedReleased({ offered_to: 'e1', version: 2, updated_at: 'x', id: 'f' }, 'y')).toEqual({
      id: 'f',
      version: 3,
      updated_at: 'y',
    });
  });
});

describe('candidate times', () => {
  const freed = { start: T('10:00'), end: T('11:30'), providerId: 'pr1' };

  it('lie wholly inside a window and the freed span, every 15 minutes, earliest first, at most a few', () => {
    expect(candidateStarts(entry(), freed, 60, NOW)).toEqual([T('10:00'), T('10:15'), T('10:30')]);
    expect(candidateStarts(entry({ windows: [{ start: T('10:20'), end: T('11:30') }] }), freed, 60, NOW)).toEqual([
      T('10:20'),
    ]);
    expect(candidateStarts(entry(), { ...freed, end: T('14:00') }, 30, NOW)).toHaveLength(MAX_CANDIDATES_PER_ENTRY);
    // Too short a window or span, another provider, an expired entry: none.
    expect(candidateStarts(entry({ windows: [{ start: T('10:00'), end: T('10:45') }] }), freed, 60, NOW)).toEqual([]);
    expect(candidateStarts(entry(), freed, 120, NOW)).toEqual([]);
    expect(candidateStarts(entry({ provider_ids: ['pr2'] }), freed, 60, NOW)).toEqual([]);
    expect(candidateStarts(entry({ expires_at: '2030-01-01T00:00:00.000Z' }), freed, 60, NOW)).toEqual([]);
  });

  it('never start in the past', () => {
    expect(candidateStarts(entry(), freed, 60, Date.parse(T('10:10')))).toEqual([T('10:10'), T('10:25')]);
  });

  it('go to entries oldest first, leaving out those offered this freed time before and services the provider does not do', () => {
    const oldest = entry({ id: 'old', created_at: '2030-01-01T00:00:00.000Z' });
    const newer = entry({ id: 'new', created_at: '2030-01-02T00:00:00.000Z' });
    const otherService = entry({ id: 'other', service_id: 's2', created_at: '2029-12-01T00:00:00.000Z' });
    const durations = new Map([['s1', 60]]);
    const fits = (offeredBefore: string[]) =>
      fittingEntries([newer, otherService, oldest], freed, { durations, offeredBefore, now: NOW }).map(
        (fit) => fit.entry.id,
      );
    expect(fits([])).toEqual(['old', 'new']);
    expect(fits(['old'])).toEqual(['new']);
    expect(servingOrder([newer, oldest]).map((e) => e.id)).toEqual(['old', 'new']);
  });
});

it('an entry past expires_at reads expired while waiting; other statuses stand', () => {
  const past = '2030-01-01T00:00:00.000Z';
  expect(entryStatus({ status: 'waiting', expires_at: past }, NOW)).toBe('expired');
  expect(entryStatus({ status: 'waiting', expires_at: null }, NOW)).toBe('waiting');
  expect(entryStatus({ status: 'offered', expires_at: past }, NOW)).toBe('offered');
  expect(entryStatus({ status: 'booked', expires_at: past }, NOW)).toBe('booked');
});

describe('waitlist.offer_created', () => {
  it("is the offer item's insert: the entry as offered and the client's contact details; nothing else emits it", () => {
    const at = '2030-03-01T12:00:00.000Z';
    const entry = {
      id: randomUUID(),
      medspa_id: randomUUID(),
      client_id: randomUUID(),
      service_id: randomUUID(),
      provider_ids: null,
      windows: [{ start: T('09:00'), end: T('13:00') }],
      expires_at: null,
      status: 'offered' as const,
      offer: {
        hold_id: randomUUID(),
        scheduled_at: T('10:00'),
        provider_id: randomUUID(),
        expires_at: T('10:30'),
        freed_id: 'x#v2',
      },
      appointment_id: null,
      version: 2,
      created_at: at,
      updated_at: at,
    };
    const client = {
      id: entry.client_id,
      first_name: 'Olivia',
      last_name: 'Hart',
      email: 'o@example.com',
      phone: null,
    };
    const item = waitlistOfferCodec.toItem({
      medspa_id: entry.medspa_id,
      hold_id: entry.offer.hold_id,
      entry_id: entry.id,
      freed_id: entry.offer.freed_id,
      entry,
      client,
      created_at: at,
    });
    const image = marshall(item, { removeUndefinedValues: true });
    const keys = marshall({ pk: item.pk, sk: item.sk });
    const change = (eventName: string, images: object) => ({
      eventID: 'e1',
      eventName,
      dynamodb: { Keys: keys, ...images },
    });
    const [event, ...rest] = eventsFromRecord(change('INSERT', { NewImage: image }), { now: new Date(at) });
    expect(rest).toEqual([]);
    expect(event).toMatchObject({ type: 'waitlist.offer_created', created_at: at, medspa_id: entry.medspa_id });
    const { medspa_id: _practice, offer, ...shown } = entry;
    const { freed_id: _freed, ...publicOffer } = offer;
    expect(event!.data.object).toEqual({ ...shown, offer: publicOffer, client });
    expect(eventsFromRecord(change('REMOVE', { OldImage: image }), { now: new Date(at) })).toEqual([]);
  });
});
