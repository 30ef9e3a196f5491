import { workingPeriods, type Busy, type TimeOff, type WorkingHours } from './availability';

export type Slot = { slot_start: string; slot_end: string };

export type SlotsInput = {
  /** Practice-local date, YYYY-MM-DD. */
  date: string;
  zone: string;
  durationMinutes: number;
  intervalMinutes?: number;
  workingHours: WorkingHours;
  timeOff: TimeOff[];
  providerBusy: Busy[];
  roomBusy?: Busy[];
  equipmentBusy?: Busy[];
  /** Slots starting before this instant are in the past and left out. */
  now: string;
};

/**
 * Bookable starts on a local date: every interval step from the start of each working period where
 * [slot_start, slot_start + duration) passes the same availability check a booking does.
 */
export function availableSlots(input: SlotsInput): Slot[] {
  const { durationMinutes, intervalMinutes = 15 } = input;
  for (const [name, n] of [['durationMinutes', durationMinutes], ['intervalMinutes', intervalMinutes]] as const) {
    // A zero or fractional step would never advance or would drift off the minute grid.
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${name} must be a positive integer, got ${n}`);
  }
  const now = Date.parse(input.now);
  const stepMs = intervalMinutes * 60_000;
  const durationMs = durationMinutes * 60_000;
  // A slot inside a working period already meets the hours rule; what is left of the booking
  // check is "overlaps nothing", done on numbers since a day has ~100 candidate starts.
  const blocked = [...input.timeOff, ...input.providerBusy, ...(input.roomBusy ?? []), ...(input.equipmentBusy ?? [])].map(
    (block) => [Date.parse(block.start), Date.parse(block.end)] as const,
  );
  const slots: Slot[] = [];
  // Periods come merged and sorted, so the slots come out sorted and without duplicates.
  for (const period of workingPeriods(input.date, input.workingHours, input.zone)) {
    const periodEnd = Date.parse(period.end);
    for (let start = Date.parse(period.start); start + durationMs <= periodEnd; start += stepMs) {
      const end = start + durationMs;
      if (start < now || blocked.some(([from, to]) => start < to && from < end)) continue;
      slots.push({ slot_start: new Date(start).toISOString(), slot_end: new Date(end).toISOString() });
    }
  }
  return slots;
}
