import { checkProviderAvailability, workingPeriods, type Busy, type TimeOff, type WorkingHours } from './availability';
import { addMinutes } from './time';

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
  const slots: Slot[] = [];
  // Periods come merged and sorted, so the slots come out sorted and without duplicates.
  for (const period of workingPeriods(input.date, input.workingHours, input.zone)) {
    const periodEnd = Date.parse(period.end);
    for (let start = period.start; ; start = addMinutes(start, intervalMinutes)) {
      const end = addMinutes(start, durationMinutes);
      if (Date.parse(end) > periodEnd) break;
      if (Date.parse(start) < now) continue;
      const { isAvailable } = checkProviderAvailability({ ...input, start, end });
      if (isAvailable) slots.push({ slot_start: start, slot_end: end });
    }
  }
  return slots;
}
