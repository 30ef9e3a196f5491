import { isInactive } from '../domain/availability';
import { bucketIdsForPeriods } from '../domain/claims';
import { buffersOf, heldInterval } from '../domain/held-time';
import { datesBetween } from '../domain/time';
import { candidateCount, groupSlotsByDate, slotsInRange, workingPeriodsBetween, type Slot } from '../domain/slots';
import { AppError, fieldError } from '../errors';
import { queryClaims, readEntities, readForSearch, type BucketPlan, type ProviderRecord } from '../db/booking-reads';

/** At most 31 practice-local days per search (API reference, appointments). */
export const MAX_SEARCH_DAYS = 31;
/** At most 20 providers per search: with the day limit, a bounded number of bucket reads. */
export const MAX_SEARCH_PROVIDERS = 20;
/**
 * At most this many candidate starts (providers x working time / interval) per search, so an
 * answer stays far below a Lambda response's 6 MB (about 80 bytes a slot).
 */
export const MAX_SEARCH_CANDIDATES = 40_000;

export interface SearchAvailabilityInput {
  serviceId?: string;
  /** Practice-local dates, both inclusive. */
  from: string;
  to: string;
  providerIds?: string[];
  durationMinutes?: number;
  intervalMinutes: number;
  roomId?: string;
  equipmentId?: string;
  /** IANA zone grouping the slots into dates for a viewer elsewhere; default the practice's. */
  timeZone?: string;
}

export interface AvailabilityEntry<P = { id: string; full_name: string }> {
  date: string;
  provider: P;
  slots: Slot[];
}

const invalid = (path: string, message: string) => fieldError(path, message, `${path}: ${message}`);

export function checkInput(input: SearchAvailabilityInput) {
  if (input.to < input.from) throw invalid('to', 'must not be before from');
  if (datesBetween(input.from, input.to).length > MAX_SEARCH_DAYS)
    throw invalid('to', `the range is longer than ${MAX_SEARCH_DAYS} days`);
  if (!input.serviceId && !(input.providerIds?.length && input.durationMinutes !== undefined)) {
    throw invalid('service_id', 'required unless both provider_id and duration_minutes are given');
  }
  if ((input.providerIds?.length ?? 0) > MAX_SEARCH_PROVIDERS)
    throw invalid('provider_id', `at most ${MAX_SEARCH_PROVIDERS} providers`);
}

const byName = (a: ProviderRecord, b: ProviderRecord) =>
  a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The practice, service, providers, room and equipment of a search, checked in the contract's
 * order (SERVICE_NOT_FOUND, PROVIDER_NOT_FOUND, PROVIDER_NOT_CERTIFIED, ROOM_NOT_FOUND,
 * EQUIPMENT_NOT_FOUND): one BatchGetItem, and one more for the service's certified providers when
 * none are named. Both eventually consistent (`readForSearch`): a search only shows free time, and
 * a setup change of the last second (a deleted or deactivated service or provider, a certification,
 * working hours, the time zone, online booking switched off) may show a second late; the booking
 * that follows reads them strongly and refuses what no longer holds.
 */
export async function readSetup(medspaId: string, input: SearchAvailabilityInput) {
  const named = input.providerIds?.length ? [...new Set(input.providerIds)] : undefined;
  const first = await readForSearch(medspaId, [
    { type: 'SERVICE', id: input.serviceId },
    ...(named ?? []).map((id) => ({ type: 'PROVIDER' as const, id })),
    { type: 'ROOM', id: input.roomId },
    { type: 'EQUIPMENT', id: input.equipmentId },
  ]);
  if (!first.practice) throw new AppError('UNAUTHORIZED');
  const service = input.serviceId ? first.entity('SERVICE', input.serviceId) : null;
  if (input.serviceId && !service) throw new AppError('SERVICE_NOT_FOUND');
  const providers = (named ?? []).map((id) => {
    const provider = first.entity('PROVIDER', id);
    if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
    return provider;
  });
  if (service && providers.some((provider) => !(service.provider_ids ?? []).includes(provider.id)))
    throw new AppError('PROVIDER_NOT_CERTIFIED');
  const room = input.roomId ? first.entity('ROOM', input.roomId) : null;
  if (input.roomId && !room) throw new AppError('ROOM_NOT_FOUND');
  const equipment = input.equipmentId ? first.entity('EQUIPMENT', input.equipmentId) : null;
  if (input.equipmentId && !equipment) throw new AppError('EQUIPMENT_NOT_FOUND');
  if (!named) {
    // checkInput: without named providers there is a service.
    const certified = service!.provider_ids ?? [];
    const second = await readEntities(
      medspaId,
      certified.map((id) => ({ type: 'PROVIDER' as const, id })),
      { consistent: false },
    );
    // Deleted providers read as absent; inactive ones take no bookings.
    for (const id of certified) {
      const provider = second.entity('PROVIDER', id);
      if (provider && provider.active !== false) providers.push(provider);
    }
    if (providers.length > MAX_SEARCH_PROVIDERS) {
      throw invalid(
        'provider_id',
        `the service has ${providers.length} active certified providers; name at most ${MAX_SEARCH_PROVIDERS}`,
      );
    }
  }
  return {
    practice: first.practice,
    zone: first.practice.time_zone,
    service,
    providers: providers.sort(byName),
    room,
    equipment,
  };
}

/**
 * Every bookable slot per provider and day over practice-local dates from..to, by the same pure
 * rule as the per-day slots (slotsInRange), so what it offers a create accepts. After the setup
 * reads (readSetup), the claim buckets of the hours that meet the providers' working periods from
 * now on: one eventually consistent Query per provider (and room, equipment) over those hours, in
 * parallel (`queryClaims`), so the calls are one per resource whatever the days, hours and
 * bookings. An answer may miss a booking of the last second; the booking's own transaction
 * conditions on the buckets, so no slot shown stale can be double-booked.
 */
export async function searchAvailability(
  medspaId: string,
  input: SearchAvailabilityInput,
  now: Date,
): Promise<AvailabilityEntry[]> {
  checkInput(input);
  return availabilityOf(medspaId, await readSetup(medspaId, input), input, now, (provider) => ({
    id: provider.id,
    full_name: provider.full_name,
  }));
}

export type SearchSetup = Awaited<ReturnType<typeof readSetup>>;

/** The search after its setup reads, each provider shown as `present` makes it (staff: full name; online booking: less). */
export async function availabilityOf<P>(
  medspaId: string,
  { zone, service, providers, room, equipment }: SearchSetup,
  input: SearchAvailabilityInput,
  now: Date,
  present: (provider: ProviderRecord) => P,
): Promise<AvailabilityEntry<P>[]> {
  const duration = input.durationMinutes ?? service!.duration_minutes;
  // The service's buffers (none without a service): slots leave room for them, as a create would.
  const buffers = buffersOf(service);
  // What a create refuses whatever the time: such a provider has no slots and needs no bucket reads.
  const inactive = (provider: ProviderRecord) => isInactive(provider, service, room, equipment);

  const nowIso = now.toISOString();
  const periodsOf = new Map(
    providers.map((p) => [p.id, workingPeriodsBetween(input.from, input.to, p.working_hours ?? {}, zone)]),
  );
  const candidates = providers.reduce(
    (sum, p) => sum + (inactive(p) ? 0 : candidateCount(periodsOf.get(p.id)!, duration, input.intervalMinutes)),
    0,
  );
  if (candidates > MAX_SEARCH_CANDIDATES) {
    throw invalid(
      'interval_minutes',
      `the search would try ${candidates} start times (at most ${MAX_SEARCH_CANDIDATES}); narrow the dates or providers, or widen the interval`,
    );
  }

  // Only periods long enough for the duration can hold a slot; only the hours their held times
  // can touch (from a start not in the past) need reading.
  const usable = (periods: { start: string; end: string }[]) =>
    periods
      .filter((p) => Date.parse(p.end) - Math.max(Date.parse(p.start), now.getTime()) >= duration * 60_000)
      .map((p) => heldInterval(p, buffers));
  const heldFrom = heldInterval({ start: nowIso, end: nowIso }, buffers).start;
  const plans: BucketPlan[] = providers.map((p) => ({
    resource: 'PROVIDER',
    resourceId: p.id,
    hours: inactive(p) ? [] : bucketIdsForPeriods(usable(periodsOf.get(p.id)!), heldFrom),
  }));
  // A room or equipment is shared: read it wherever any of the providers could use it.
  const sharedHours = [...new Set(plans.flatMap((plan) => plan.hours))].sort();
  if (input.roomId) plans.push({ resource: 'ROOM', resourceId: input.roomId, hours: sharedHours });
  if (input.equipmentId) plans.push({ resource: 'EQUIPMENT', resourceId: input.equipmentId, hours: sharedHours });
  const claims = await queryClaims(medspaId, plans);

  const viewerZone = input.timeZone ?? zone;
  const byDate = new Map<string, AvailabilityEntry<P>[]>();
  for (const provider of providers) {
    const slots = slotsInRange({
      from: input.from,
      to: input.to,
      zone,
      durationMinutes: duration,
      intervalMinutes: input.intervalMinutes,
      workingHours: provider.working_hours ?? {},
      periods: periodsOf.get(provider.id),
      timeOff: provider.time_off ?? [],
      providerBusy: claims.busy('PROVIDER', provider.id),
      roomBusy: input.roomId ? claims.busy('ROOM', input.roomId) : undefined,
      equipmentBusy: input.equipmentId ? claims.busy('EQUIPMENT', input.equipmentId) : undefined,
      buffers,
      inactive: inactive(provider),
      now: nowIso,
    });
    for (const group of groupSlotsByDate(slots, viewerZone)) {
      const entries = byDate.get(group.date) ?? [];
      entries.push({ date: group.date, provider: present(provider), slots: group.slots });
      byDate.set(group.date, entries);
    }
  }
  // Providers were sorted by name, so each date's entries already are.
  return [...byDate.keys()].sort().flatMap((date) => byDate.get(date)!);
}
