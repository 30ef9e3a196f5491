/**
 * The one source of "now" for request handling and workers. Production reads the system clock;
 * tests set a fixed or moving time with `setClock`, so no test depends on today's date.
 */
export interface Clock {
  now(): Date;
}

const systemClock: Clock = { now: () => new Date() };
let current: Clock = systemClock;

export const clock = (): Clock => current;

/** Tests: a fixed instant, a function of real time, or null to go back to the system clock. */
export function setClock(next: Date | (() => Date) | null): void {
  if (next === null) current = systemClock;
  else if (next instanceof Date) current = { now: () => new Date(next.getTime()) };
  else current = { now: next };
}
