/** UTC ISO instants, half-open [start, end) (as lib/domain/availability.ts's Interval; not imported, which would make a cycle). */
type Interval = { start: string; end: string };

/** A service's (and its bookings') preparation and cleanup, 0..240 minutes each (contract section 11). */
export const MAX_BUFFER_MINUTES = 240;

/** Buffers as services, appointments and holds carry them; a record written before buffers existed has none. */
export interface Buffers {
  buffer_before_minutes?: number;
  buffer_after_minutes?: number;
}

/** The buffers a booking of this service snapshots (both always set, 0 when none). */
export const buffersOf = (source: Buffers | null | undefined): Required<Buffers> => ({
  buffer_before_minutes: source?.buffer_before_minutes ?? 0,
  buffer_after_minutes: source?.buffer_after_minutes ?? 0,
});

/**
 * THE held-time rule: the client's time [start, end) widened by the buffers. Held times are what
 * claims cover and what must not overlap; working hours and time off look at the client's time only.
 */
export function heldInterval(client: Interval, buffers: Buffers | null | undefined): Interval {
  const { buffer_before_minutes: before, buffer_after_minutes: after } = buffersOf(buffers);
  if (before === 0 && after === 0) return client;
  return {
    start: new Date(Date.parse(client.start) - before * 60_000).toISOString(),
    end: new Date(Date.parse(client.end) + after * 60_000).toISOString(),
  };
}
