import { workingPeriods, type Busy, type Interval, type TimeOff, type WorkingHours } from './availability';
import { buffersOf, type Buffers } from './held-time';
import { datesBetween, isoWriter, localDateOf, localDayBounds } from './time';

export type Slot = { slot_start: string; slot_end: string };

/** What decides one provider's bookable starts, whatever the dates asked for. */
export type SlotRule = {
  zone: string;
  durationMinutes: number;
  intervalMinutes?: number;
  workingHours: WorkingHours;
  timeOff: TimeOff[];
  providerBusy: Busy[];
  roomBusy?: Busy[];
  equipmentBusy?: Busy[];
  /** The candidate's buffers (the service's): its held time must overlap no busy one. Default none. */
  buffers?: Buffers | null;
  /**
   * The provider, or the room or equipment asked for, is inactive: a booking is refused
   * (`*_UNAVAILABLE`), so nothing is offered.
   */
  inactive?: boolean;
  /** Slots starting before this instant are in the past and left out. */
  now: string;
};

/**
 * Practice-local dates `from`..`to`, both inclusive (YYYY-MM-DD), and their working periods when
 * the caller already has them (`workingPeriodsBetween` of the same dates, hours and zone).
 */
export type SlotsInRangeInput = SlotRule & { from: string; to: string; periods?: Interval[] };
export type SlotsInput = SlotRule & { date: string };

/**
 * The working periods of every local date from..to, in order. Periods of different days are never
 * joined: a booking must fit inside one period of the local day it starts on.
 */
export function workingPeriodsBetween(from: string, to: string, workingHours: WorkingHours, zone: string): Interval[] {
  return datesBetween(from, to).flatMap((date) => workingPeriods(date, workingHours, zone));
}

function checkStep(name: string, n: number) {
  // A zero or fractional step would never advance or would drift off the minute grid.
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${name} must be a positive integer, got ${n}`);
}

/** Whether [start, end) overlaps one of the blocks: a loop, not a closure per candidate start. */
function overlapsAny(blocks: ReadonlyArray<readonly [number, number]>, start: number, end: number): boolean {
  for (let i = 0; i < blocks.length; i += 1) if (start < blocks[i]![1] && blocks[i]![0] < end) return true;
  return false;
}

/**
 * THE slot rule, for any range of practice-local dates (the per-day slots endpoint asks for one
 * date, the availability search for up to 31): every interval step from the start of each working
 * period where [slot_start, slot_start + duration) passes the same availability check a booking
 * does (checkProviderAvailability: the client's time inside the period and off time off, its held
 * time, lib/domain/held-time.ts, clear of every busy held time) and does not start before `now`.
 * Sorted by start, no duplicates.
 */
export function slotsInRange(input: SlotsInRangeInput): Slot[] {
  const { durationMinutes, intervalMinutes = 15 } = input;
  checkStep('durationMinutes', durationMinutes);
  checkStep('intervalMinutes', intervalMinutes);
  if (input.inactive) return [];
  const now = Date.parse(input.now);
  const stepMs = intervalMinutes * 60_000;
  const durationMs = durationMinutes * 60_000;
  // A slot inside a working period already meets the hours rule; what is left of the booking
  // check is "overlaps nothing", done on numbers since a range has thousands of candidate starts.
  // Time off blocks the client's time; a booking's held time blocks the candidate's held time, so
  // each busy block is widened by the candidate's buffers instead (the same overlap, on numbers).
  const { buffer_before_minutes: before, buffer_after_minutes: after } = buffersOf(input.buffers);
  const toBlock = (widenBefore: number, widenAfter: number) => (block: { start: string; end: string }) =>
    [Date.parse(block.start) - widenAfter * 60_000, Date.parse(block.end) + widenBefore * 60_000] as const;
  const blocked = [
    ...input.timeOff.map(toBlock(0, 0)),
    ...[...input.providerBusy, ...(input.roomBusy ?? []), ...(input.equipmentBusy ?? [])].map(toBlock(before, after)),
  ];
  const slots: Slot[] = [];
  // Thousands of instants on a month's search: toISOString was most of this function's CPU.
  const iso = isoWriter();
  // Periods come merged and sorted per day and days in order, so slots come out sorted and unique.
  for (const period of input.periods ?? workingPeriodsBetween(input.from, input.to, input.workingHours, input.zone)) {
    const periodStart = Date.parse(period.start);
    const periodEnd = Date.parse(period.end);
    const near = blocked.filter(([from, to]) => from < periodEnd && periodStart < to);
    for (let start = periodStart; start + durationMs <= periodEnd; start += stepMs) {
      const end = start + durationMs;
      if (start < now || overlapsAny(near, start, end)) continue;
      slots.push({ slot_start: iso(start), slot_end: iso(end) });
    }
  }
  return slots;
}

/** Bookable starts on one local date: the range rule over a single day. */
export function availableSlots(input: SlotsInput): Slot[] {
  const { date, ...rule } = input;
  return slotsInRange({ ...rule, from: date, to: date });
}

/**
 * Sorted slots (as slotsInRange writes them) grouped by the local date of their start in `zone`
 * (the practice's, or a viewer's elsewhere: the slots stay the same instants, only their grouping
 * moves). Dates in order.
 */
export function groupSlotsByDate(slots: readonly Slot[], zone: string): { date: string; slots: Slot[] }[] {
  const groups: { date: string; slots: Slot[] }[] = [];
  // One time-zone lookup per day, not per slot: a slot before the current day's end is in it.
  // Both are `toISOString()` text (fixed width, UTC), so comparing the strings compares instants.
  let dayEnd = '';
  for (const slot of slots) {
    if (slot.slot_start >= dayEnd) {
      const date = localDateOf(slot.slot_start, zone);
      dayEnd = localDayBounds(date, zone).end;
      groups.push({ date, slots: [] });
    }
    groups[groups.length - 1]!.slots.push(slot);
  }
  return groups;
}

/**
 * How many starts the rule would try over these periods: a bound on the answer's size, known
 * before any booking is read.
 */
export function candidateCount(periods: readonly Interval[], durationMinutes: number, intervalMinutes: number): number {
  let count = 0;
  for (const period of periods) {
    const room = (Date.parse(period.end) - Date.parse(period.start)) / 60_000 - durationMinutes;
    if (room >= 0) count += Math.floor(room / intervalMinutes) + 1;
  }
  return count;
}

/**
 * Whether `start` is one of the starts the slot rule offers on these working hours: inside a
 * working period of its local day, a whole number of steps from the period's start (so 12:07,
 * :31 or .123 never are). Whether the time is free is the booking's own check.
 */
export function isSlotStart(start: string, workingHours: WorkingHours, zone: string, intervalMinutes: number): boolean {
  checkStep('intervalMinutes', intervalMinutes);
  const at = Date.parse(start);
  const date = localDateOf(new Date(at).toISOString(), zone);
  return workingPeriods(date, workingHours, zone).some((period) => {
    const from = Date.parse(period.start);
    return at >= from && at < Date.parse(period.end) && (at - from) % (intervalMinutes * 60_000) === 0;
  });
}
