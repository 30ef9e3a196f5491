import { heldInterval, type Buffers } from './held-time';
import { localDateOf, localTimeToInstant, weekdayKey, type WeekdayKey } from './time';

/** UTC ISO instants, half-open [start, end). */
export type Interval = { start: string; end: string };
/** Local HH:MM periods per weekday; an end of "24:00" means the next local midnight. */
export type WorkingHours = Partial<Record<WeekdayKey, { start: string; end: string }[]>>;
export type TimeOff = { start: string; end: string; reason?: string };
/** The held time (lib/domain/held-time.ts) of an active appointment or live hold (`hold: true`) on a provider, room or equipment. */
export type Busy = { start: string; end: string; appointment_id: string; hold?: true };

export type ConflictType =
  | 'outside_working_hours'
  | 'time_off'
  | 'provider_booked'
  | 'room_booked'
  | 'equipment_booked';
/** `hold: true`: the overlapping claim is a hold, whose id `appointment_id` carries. */
export type Conflict = { type: ConflictType; start?: string; end?: string; appointment_id?: string; hold?: true };
export type UnavailableCode = 'PROVIDER_UNAVAILABLE' | 'ROOM_UNAVAILABLE' | 'EQUIPMENT_UNAVAILABLE';

const ms = (iso: string): number => Date.parse(iso);

/** A create or move may start at most this long ago (clock skew, a form filled in slowly). */
export const PAST_START_GRACE_MINUTES = 5;

/** Whether a booking starting at `start` starts too far in the past to be made at `now`. */
export const startsInThePast = (start: string, now: Date): boolean =>
  ms(start) < now.getTime() - PAST_START_GRACE_MINUTES * 60_000;

/** Half-open: back-to-back intervals (10:00-11:00, 11:00-12:00) do not overlap. */
export function overlaps(a: Interval, b: Interval): boolean {
  return ms(a.start) < ms(b.end) && ms(b.start) < ms(a.end);
}

function contains(outer: Interval, inner: Interval): boolean {
  return ms(outer.start) <= ms(inner.start) && ms(inner.end) <= ms(outer.end);
}

/**
 * The provider's working periods on a local date, as UTC intervals sorted by start. Each period is
 * placed by wall-clock time, so 09:00-17:00 stays 09:00-17:00 local on DST change days. Periods
 * that touch or overlap are merged (09:00-12:00 + 12:00-17:00 is one working day, and a booking
 * across noon is inside it); empty or reversed periods are ignored.
 */
export function workingPeriods(date: string, workingHours: WorkingHours, zone: string): Interval[] {
  const periods = (workingHours[weekdayKey(date)] ?? [])
    .map((p) => ({
      start: localTimeToInstant(date, p.start, zone),
      end: localTimeToInstant(date, p.end, zone),
    }))
    .filter((p) => ms(p.start) < ms(p.end))
    .sort((a, b) => ms(a.start) - ms(b.start));
  const merged: Interval[] = [];
  for (const p of periods) {
    const last = merged[merged.length - 1];
    if (last && ms(p.start) <= ms(last.end)) {
      if (ms(p.end) > ms(last.end)) last.end = p.end;
    } else {
      merged.push({ ...p });
    }
  }
  return merged;
}

export type AvailabilityInput = {
  start: string;
  end: string;
  zone: string;
  workingHours: WorkingHours;
  timeOff: TimeOff[];
  providerBusy: Busy[];
  roomBusy?: Busy[];
  equipmentBusy?: Busy[];
  /** The candidate's buffers: its held time must overlap no busy one (none: the client's time). */
  buffers?: Buffers | null;
  /** The appointment being moved: its own current time does not block it. */
  ignoreAppointmentId?: string;
};

/**
 * Every reason [start, end) cannot be booked, provider-level first. Working hours are those of the
 * local date of `start`; the interval must fit inside one period of that day. Working hours and
 * time off judge the client's time [start, end); bookings judge the held time (with `buffers`),
 * against busy intervals that are held times too.
 */
export function checkProviderAvailability(input: AvailabilityInput): {
  isAvailable: boolean;
  conflicts: Conflict[];
} {
  const wanted: Interval = { start: input.start, end: input.end };
  if (!(ms(wanted.start) < ms(wanted.end))) {
    throw new RangeError(`invalid interval ${wanted.start}..${wanted.end}`);
  }
  const conflicts: Conflict[] = [];
  const periods = workingPeriods(localDateOf(wanted.start, input.zone), input.workingHours, input.zone);
  if (!periods.some((p) => contains(p, wanted))) conflicts.push({ type: 'outside_working_hours' });
  for (const t of input.timeOff) {
    if (overlaps(t, wanted)) conflicts.push({ type: 'time_off', start: t.start, end: t.end });
  }
  const held = heldInterval(wanted, input.buffers);
  const booked = (type: ConflictType, busy: Busy[] = []): void => {
    for (const b of busy) {
      if (b.appointment_id !== input.ignoreAppointmentId && overlaps(b, held)) {
        conflicts.push({
          type,
          start: b.start,
          end: b.end,
          appointment_id: b.appointment_id,
          ...(b.hold ? { hold: true as const } : {}),
        });
      }
    }
  };
  booked('provider_booked', input.providerBusy);
  booked('room_booked', input.roomBusy);
  booked('equipment_booked', input.equipmentBusy);
  return { isAvailable: conflicts.length === 0, conflicts };
}

const CODE_OF: Record<ConflictType, UnavailableCode> = {
  outside_working_hours: 'PROVIDER_UNAVAILABLE',
  time_off: 'PROVIDER_UNAVAILABLE',
  provider_booked: 'PROVIDER_UNAVAILABLE',
  room_booked: 'ROOM_UNAVAILABLE',
  equipment_booked: 'EQUIPMENT_UNAVAILABLE',
};
// The contract's validation order: the provider, then the room, then the equipment.
const CODE_ORDER: readonly UnavailableCode[] = ['PROVIDER_UNAVAILABLE', 'ROOM_UNAVAILABLE', 'EQUIPMENT_UNAVAILABLE'];

/** The error code to answer with, or null when nothing conflicts. */
export function firstUnavailableCode(conflicts: readonly Conflict[]): UnavailableCode | null {
  const codes = new Set(conflicts.map((c) => CODE_OF[c.type]));
  return CODE_ORDER.find((code) => codes.has(code)) ?? null;
}

/** The contract's reasons a provider (or room, or equipment) cannot take an interval. */
export const UNAVAILABLE_REASONS = ['outside_working_hours', 'time_off', 'inactive', 'overlap'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** One reason, with the blocking interval and the overlapping appointment where there is one. */
export interface UnavailableProblem {
  reason: UnavailableReason;
  start?: string;
  end?: string;
  appointment_id?: string;
  /** The overlapping claim is a hold (its id in `appointment_id`). */
  hold?: true;
}

const REASON_OF: Record<ConflictType, UnavailableReason> = {
  outside_working_hours: 'outside_working_hours',
  time_off: 'time_off',
  provider_booked: 'overlap',
  room_booked: 'overlap',
  equipment_booked: 'overlap',
};

/**
 * Every reason the resource behind `code` is unavailable, inactivity first (it blocks any time),
 * then the conflicts in the order checkProviderAvailability found them (working hours, time off,
 * overlaps by appointment). Empty when the resource is free.
 */
export function unavailableProblems(
  code: UnavailableCode,
  conflicts: readonly Conflict[],
  active: boolean,
): UnavailableProblem[] {
  const problems: UnavailableProblem[] = active ? [] : [{ reason: 'inactive' }];
  for (const conflict of conflicts) {
    if (CODE_OF[conflict.type] !== code) continue;
    const { type, ...where } = conflict;
    problems.push({ reason: REASON_OF[type], ...where });
  }
  return problems;
}

/**
 * A create refuses these whatever the time (inactive provider, room or equipment: 409
 * `*_UNAVAILABLE`; inactive service: 400), so slots and searches offer nothing for them.
 */
export const isInactive = (...resources: ({ active?: boolean } | null | undefined)[]) =>
  resources.some((resource) => resource?.active === false);
