import { checkProviderAvailability, isInactive } from '../domain/availability';
import { heldInterval, MAX_BUFFER_MINUTES } from '../domain/held-time';
import { slotsInRange } from '../domain/slots';
import { addDays } from '../domain/time';
import { BoundedCache } from '../cache';
import { config } from '../config';
import { pageRequest } from '../crypto/cursor';
import { getAppointmentWithRecord, listAppointmentsByTime } from '../db/appointments';
import { batchGetEntities } from '../db/batch';
import { oneOf, where } from '../db/query';
import { AppError } from '../errors';
import type { AppointmentStatus } from '../domain/status';
import type { AppointmentRecord, ConsentRecord } from '../domain/records';
import { localDateRange } from './date-range';
import { readForSearch, type ClaimRange, type EntityReads } from '../db/booking-reads';
import { presentClient } from '../domain/presenters';
import { listNames } from './list-names';
import { readPractice } from './practice';
import { readReadiness } from '../db/forms';
import { readinessFor } from './form-submissions';

export interface ListAppointmentsInput {
  from?: string;
  to?: string;
  providerId?: string;
  clientId?: string;
  serviceId?: string;
  statuses?: AppointmentStatus[];
  limit: number;
  cursor?: string;
}

/** Each practice's time zone as this container read it, for LIST_NAMES_TTL_MS like the names (bounded). */
const recentZones = new BoundedCache<string, string>({ max: 1000 });

/**
 * The zone the list's dates are in. A desk polling the day reads the practice about once a
 * minute, not with every poll; a change of `time_zone` reaches the list within LIST_NAMES_TTL_MS.
 */
async function listZone(medspaId: string): Promise<string> {
  const cached = recentZones.get(medspaId);
  if (cached !== undefined) return cached;
  const zone = (await readPractice(medspaId)).time_zone;
  recentZones.set(medspaId, zone, config().LIST_NAMES_TTL_MS);
  return zone;
}

/**
 * Appointments whose local start date is in [from, to] (practice-local, inclusive), ordered by
 * start. Without dates: from today for 31 days. The page is read from the list's narrow index
 * (gsi1n: what the list shows and filters on); nested names come from the container's recent
 * names, the rest from one batched read (lib/use-cases/list-names.ts: they may trail a rename by
 * up to LIST_NAMES_TTL_MS), as may the practice's time zone the dates are in.
 */
export async function listAppointments(medspaId: string, input: ListAppointmentsInput, now: Date) {
  const filter = where<AppointmentRecord>({
    provider_id: input.providerId || undefined,
    client_id: input.clientId || undefined,
    service_id: input.serviceId || undefined,
    status: input.statuses?.length ? oneOf(input.statuses) : undefined,
  });
  const page = await listAppointmentsByTime({
    medspaId,
    ...localDateRange({ from: input.from, to: input.to }, await listZone(medspaId), now, 'forward'),
    filter,
    // Cursors are bound to the filters as given (aliases resolved), not to the default dates they imply.
    ...pageRequest(medspaId, 'appointments', { ...input }),
  });
  const names = await listNames(
    medspaId,
    page.items.flatMap((a) => [
      { type: 'CLIENT' as const, id: a.client_id },
      { type: 'SERVICE' as const, id: a.service_id },
      { type: 'PROVIDER' as const, id: a.provider_id },
    ]),
  );
  const items = page.items.map((a) => {
    return {
      id: a.id,
      client: { id: a.client_id, ...names.get('CLIENT', a.client_id) },
      service: { id: a.service_id, ...names.get('SERVICE', a.service_id) },
      provider: { id: a.provider_id, ...names.get('PROVIDER', a.provider_id) },
      scheduled_at: a.scheduled_at,
      duration_minutes: a.duration_minutes,
      status: a.status,
    };
  });
  return { items, total: page.total, nextCursor: page.nextCursor };
}

/** The appointment with its client, service, provider, room, equipment, consents and treatment record. */
export async function appointmentDetail(
  medspaId: string,
  id: string,
  consentsOf: (clientId: string) => Promise<ConsentRecord[]>,
  now: Date,
) {
  const { appointment, treatmentRecord } = await getAppointmentWithRecord(medspaId, id);
  if (!appointment) throw new AppError('APPOINTMENT_NOT_FOUND');
  // Readiness's two items are read by key in the same tick as the entities: one BatchGetItem for all.
  const [related, consents, readiness] = await Promise.all([
    batchGetEntities(medspaId, [
      { type: 'CLIENT', id: appointment.client_id },
      { type: 'SERVICE', id: appointment.service_id },
      { type: 'PROVIDER', id: appointment.provider_id },
      ...(appointment.room_id ? [{ type: 'ROOM' as const, id: appointment.room_id }] : []),
      ...(appointment.equipment_id ? [{ type: 'EQUIPMENT' as const, id: appointment.equipment_id }] : []),
    ]),
    consentsOf(appointment.client_id),
    readReadiness(medspaId, appointment.client_id),
  ]);
  const nested = <K extends 'CLIENT' | 'SERVICE' | 'PROVIDER' | 'ROOM' | 'EQUIPMENT'>(type: K, refId: string | null) =>
    refId ? related.get(type, refId) : null;
  const client = nested('CLIENT', appointment.client_id);
  return {
    ...appointment,
    // The full client, with its health score as of now.
    client: client && presentClient(client, now),
    service: nested('SERVICE', appointment.service_id),
    provider: nested('PROVIDER', appointment.provider_id),
    room: nested('ROOM', appointment.room_id),
    equipment: nested('EQUIPMENT', appointment.equipment_id),
    consent_forms: consents,
    treatment_record: appointment.status === 'completed' ? treatmentRecord : null,
    forms: readinessFor(appointment, nested('SERVICE', appointment.service_id), readiness.catalog, readiness.summary),
  };
}

interface ResourceChoice {
  providerId: string;
  roomId?: string;
  equipmentId?: string;
}

/**
 * Provider, room and equipment over one range, for answers that show free time (slots, an
 * availability check) and write nothing: one eventually consistent BatchGetItem of the practice
 * and items, in parallel with one eventually consistent Query of each resource's claim buckets
 * (`readForSearch`). A change or booking of the last second may not show yet; a create reads
 * strongly and its transaction conditions on the buckets, so nothing stale can be booked.
 */
async function readResources(
  medspaId: string,
  choice: ResourceChoice,
  range: { start: string; end: string },
  serviceId?: string,
) {
  const claims: ClaimRange[] = [{ resource: 'PROVIDER', resourceId: choice.providerId, ...range }];
  if (choice.roomId) claims.push({ resource: 'ROOM', resourceId: choice.roomId, ...range });
  if (choice.equipmentId) claims.push({ resource: 'EQUIPMENT', resourceId: choice.equipmentId, ...range });
  const reads = await readForSearch(
    medspaId,
    [
      { type: 'PROVIDER', id: choice.providerId },
      { type: 'ROOM', id: choice.roomId },
      { type: 'EQUIPMENT', id: choice.equipmentId },
      { type: 'SERVICE', id: serviceId },
    ],
    claims,
  );
  const provider = reads.entity('PROVIDER', choice.providerId);
  if (!provider) throw new AppError('PROVIDER_NOT_FOUND');
  if (choice.roomId && !reads.entity('ROOM', choice.roomId)) throw new AppError('ROOM_NOT_FOUND');
  if (choice.equipmentId && !reads.entity('EQUIPMENT', choice.equipmentId)) throw new AppError('EQUIPMENT_NOT_FOUND');
  if (!reads.practice) throw new AppError('UNAUTHORIZED');
  const busy = (resource: 'ROOM' | 'EQUIPMENT', id?: string) => (id ? reads.busy(resource, id) : undefined);
  return {
    reads,
    provider,
    zone: reads.practice.time_zone,
    busy: {
      providerBusy: reads.busy('PROVIDER', provider.id),
      roomBusy: busy('ROOM', choice.roomId),
      equipmentBusy: busy('EQUIPMENT', choice.equipmentId),
    },
  };
}

const MAX_AVAILABILITY_HOURS = 72;

/**
 * The range whose claims can meet a candidate in `range`: widened by the largest buffers when a
 * service (read in parallel, so its buffers are not known yet) may give the candidate some.
 */
const claimRangeFor = (range: { start: string; end: string }, serviceId: string | undefined) =>
  serviceId
    ? heldInterval(range, { buffer_before_minutes: MAX_BUFFER_MINUTES, buffer_after_minutes: MAX_BUFFER_MINUTES })
    : range;

/** The service a slots or availability question names, or 404; none named: no service. */
function namedService(reads: EntityReads, serviceId: string | undefined) {
  const service = serviceId ? reads.entity('SERVICE', serviceId) : null;
  if (serviceId && !service) throw new AppError('SERVICE_NOT_FOUND');
  return service;
}

export async function providerAvailability(
  medspaId: string,
  choice: ResourceChoice,
  interval: { start: string; end: string },
  serviceId?: string,
) {
  const start = new Date(interval.start).toISOString();
  const end = new Date(interval.end).toISOString();
  if (Date.parse(end) <= Date.parse(start))
    throw new AppError('VALIDATION_ERROR', '`end` must be after `start`', {
      details: [{ path: 'end', message: 'must be after start' }],
    });
  if (Date.parse(end) - Date.parse(start) > MAX_AVAILABILITY_HOURS * 3_600_000) {
    throw new AppError('VALIDATION_ERROR', `The interval is longer than ${MAX_AVAILABILITY_HOURS} hours`, {
      details: [{ path: 'end', message: 'interval too long' }],
    });
  }
  const { provider, zone, busy, reads } = await readResources(
    medspaId,
    choice,
    claimRangeFor({ start, end }, serviceId),
    serviceId,
  );
  const result = checkProviderAvailability({
    start,
    end,
    zone,
    workingHours: provider.working_hours ?? {},
    timeOff: provider.time_off ?? [],
    ...busy,
    buffers: namedService(reads, serviceId),
  });
  // A hold in the way is named as the hold (API reference, holds).
  const conflicts = result.conflicts.map(({ hold, ...conflict }) =>
    hold
      ? { type: conflict.type, start: conflict.start, end: conflict.end, hold_id: conflict.appointment_id }
      : conflict,
  );
  if (provider.active === false)
    return { isAvailable: false, conflicts: [{ type: 'provider_inactive' }, ...conflicts] };
  return { isAvailable: result.isAvailable, conflicts };
}

/** Any local day lies within [date-1 10:00Z, date+1 12:00Z) whatever the zone (UTC-12..UTC+14). */
const widestDayRange = (date: string) => ({
  start: `${addDays(date, -1)}T10:00:00.000Z`,
  end: `${addDays(date, 1)}T12:00:00.000Z`,
});

export async function providerSlots(
  medspaId: string,
  choice: ResourceChoice,
  input: { date: string; durationMinutes?: number; intervalMinutes: number; serviceId?: string },
  now: Date,
) {
  // The zone is not known before the read, so read the widest range any local day can cover.
  const { provider, zone, busy, reads } = await readResources(
    medspaId,
    choice,
    claimRangeFor(widestDayRange(input.date), input.serviceId),
    input.serviceId,
  );
  const service = namedService(reads, input.serviceId);
  const duration = input.durationMinutes ?? service?.duration_minutes;
  if (duration === undefined) {
    throw new AppError('VALIDATION_ERROR', 'duration_minutes (or service_id) is required', {
      details: [{ path: 'duration_minutes', message: 'required' }],
    });
  }
  // The same rule as the availability search (lib/use-cases/availability-search.ts), over one date.
  return slotsInRange({
    from: input.date,
    to: input.date,
    zone,
    durationMinutes: duration,
    intervalMinutes: input.intervalMinutes,
    workingHours: provider.working_hours ?? {},
    timeOff: provider.time_off ?? [],
    ...busy,
    buffers: service,
    inactive: isInactive(
      provider,
      service,
      reads.entity('ROOM', choice.roomId),
      reads.entity('EQUIPMENT', choice.equipmentId),
    ),
    now: now.toISOString(),
  });
}
