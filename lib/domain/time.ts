/** Practice-local calendar maths on `Intl`, no library (docs/decisions/0009-dates-on-intl.md); luxon is the tests' oracle. */
export type WeekdayKey = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** The week in working-hours order, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly WeekdayKey[];
// Date#getUTCDay numbers: 0 (Sunday) .. 6 (Saturday).
const BY_UTC_DAY: readonly WeekdayKey[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const HHMM = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** ISO 8601 date-time, seconds and fraction optional, with `Z` or `±hh:mm` (the API's inputs and our own stored values). */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/** Y-M-D at UTC midnight in ms, or NaN unless it is a real calendar day (no 30 February). */
function utcDay(year: number, month: number, day: number): number {
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day
    ? at.getTime()
    : Number.NaN;
}

// Callers validate input at the edge; an invalid value reaching the domain is a bug, so fail
// loudly instead of letting NaN flow into keys and responses.
function parseDate(date: string): number {
  const m = DATE.exec(date);
  const ms = m ? utcDay(Number(m[1]), Number(m[2]), Number(m[3])) : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`invalid date "${date}"`);
  return ms;
}

function parseInstant(iso: string): number {
  const m = INSTANT.exec(iso);
  const ms =
    m &&
    !Number.isNaN(utcDay(Number(m[1]), Number(m[2]), Number(m[3]))) &&
    Number(m[4]) < 24 &&
    Number(m[5]) < 60 &&
    Number(m[6] ?? 0) < 60
      ? Date.parse(iso)
      : Number.NaN;
  if (Number.isNaN(ms)) throw new RangeError(`invalid instant "${iso}"`);
  return ms;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone and process: building one costs far more than using it. */
function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new RangeError(`invalid zone "${zone}"`);
    }
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` at instant `ms`, as if that wall clock were UTC (whole seconds), read with Intl. */
function intlWallClock(ms: number, zone: string): number {
  const fields: Record<string, number> = {};
  for (const part of formatIn(zone).formatToParts(ms))
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const wall = new Date(0);
  wall.setUTCFullYear(fields.year!, fields.month! - 1, fields.day!);
  wall.setUTCHours(fields.hour! % 24, fields.minute!, fields.second!, 0);
  return wall.getTime();
}

/**
 * The zone's offset from the process's own zone rules: `TZ` set for one synchronous read of
 * `getTimezoneOffset`, then put back, so nothing else ever sees it. The first Intl.DateTimeFormat
 * of a process costs about 11 ms (ICU's locale data), this about 1 ms, which is a cold start's
 * difference; the same ICU zone data answers both. Whole minutes only: every offset since 1973 is.
 */
function processZoneOffset(ms: number, zone: string): number {
  const previous = process.env.TZ;
  process.env.TZ = zone;
  try {
    return -new Date(ms).getTimezoneOffset() * 60_000;
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

/** Before this, offsets may hold seconds (local mean times, Liberia's until 1972): read them with Intl. */
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1973, 0, 1);
/**
 * Per zone and UTC day: the offsets at its first and last second (usually one offset all day)
 * and, on a day the offset changes, the first second of the new one.
 */
const dayOffsets = new Map<string, readonly [number, number, number]>();
const MAX_DAY_OFFSETS = 10_000;

/** The zone's UTC offset in ms at an instant (may hold seconds: historical local mean times). */
function offsetAt(ms: number, zone: string): number {
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  if (whole < WHOLE_MINUTE_OFFSETS_FROM || typeof process === 'undefined') return intlWallClock(whole, zone) - whole;
  const dayStart = whole - (whole % DAY_MS);
  const key = `${zone} ${dayStart}`;
  let day = dayOffsets.get(key);
  if (!day) {
    // An unknown zone would read as UTC here, where Intl refuses it.
    if (!isValidTimeZone(zone)) throw new RangeError(`invalid zone "${zone}"`);
    // Zones change offset at most a few times a year, never twice in one day.
    if (dayOffsets.size >= MAX_DAY_OFFSETS) dayOffsets.clear();
    const first = processZoneOffset(dayStart, zone);
    const last = processZoneOffset(dayStart + DAY_MS - 1000, zone);
    day = [first, last, first === last ? dayStart : changeAt(dayStart, first, zone)];
    dayOffsets.set(key, day);
  }
  return whole < day[2] ? day[0] : day[1];
}

/**
 * The first second of a UTC day whose offset is no longer `first`: a binary search of 17 reads,
 * made once per zone and day, instead of one read (a `TZ` switch) per instant asked about.
 */
function changeAt(dayStart: number, first: number, zone: string): number {
  let low = 0; // seconds into the day still at `first`
  let high = DAY_MS / 1000 - 1; // a second already past the change
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (processZoneOffset(dayStart + middle * 1000, zone) === first) low = middle;
    else high = middle;
  }
  return dayStart + high * 1000;
}

/** The wall clock of `zone` at instant `ms`, as if that wall clock were UTC (whole seconds). */
const wallClock = (ms: number, zone: string): number => {
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return whole + offsetAt(whole, zone);
};

/**
 * The instant of a wall-clock time (ms, as if UTC) in a zone, disambiguated like Temporal's
 * `compatible`: a time skipped by a spring-forward gap moves forward by the gap, an ambiguous
 * fall-back time takes the earlier instant. Offsets a day apart bracket any real transition.
 */
function wallToInstant(wall: number, zone: string): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].filter((at) => at + offsetAt(at, zone) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  // In a gap: read the wall clock with the offset in force before it, which lands after the gap.
  return wall - before;
}

const toIso = (ms: number) => new Date(ms).toISOString();

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

/**
 * `Date.prototype.toISOString` for many instants in a row, about 5x faster for whole minutes: each
 * UTC day's `YYYY-MM-DDT` is made once, the time of day from numbers. Any other instant takes
 * toISOString. For the slot rule, which writes two instants a candidate start.
 */
export function isoWriter(): (instant: number) => string {
  let day = Number.NaN;
  let prefix = '';
  return (instant) => {
    const d = Math.floor(instant / DAY_MS);
    const minutes = (instant - d * DAY_MS) / 60_000;
    if (!Number.isInteger(minutes)) return toIso(instant);
    if (d !== day) {
      const text = toIso(d * DAY_MS);
      day = d;
      prefix = text.slice(0, text.indexOf('T') + 1);
    }
    return `${prefix}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:00.000Z`;
  };
}

/**
 * Periods by start, in code-unit order: `HH:MM` and UTC ISO strings sort as the times they name.
 * Not localeCompare: it would load ICU (about 10 ms of a cold start) for ASCII digits.
 */
export const byStart = (a: { start: string }, b: { start: string }): number =>
  a.start < b.start ? -1 : a.start > b.start ? 1 : 0;

/** IANA's canonical names, listed without building a formatter (ICU's locale data, see processZoneOffset). */
let canonicalZones: ReadonlySet<string> | undefined;

export function isValidTimeZone(zone: string): boolean {
  if (!zone) return false;
  canonicalZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  if (canonicalZones.has(zone)) return true;
  // Links (`Asia/Calcutta`) and other spellings Intl accepts.
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

/** The practice-local calendar date (YYYY-MM-DD) of an instant. */
export function localDateOf(instantIso: string, zone: string): string {
  return toIso(wallClock(parseInstant(instantIso), zone)).slice(0, 10);
}

/** Local midnight to the next local midnight: 23 or 25 hours long on DST change days. */
export function localDayBounds(date: string, zone: string): { start: string; end: string } {
  const midnight = parseDate(date);
  return { start: toIso(wallToInstant(midnight, zone)), end: toIso(wallToInstant(midnight + DAY_MS, zone)) };
}

/**
 * A local wall-clock time on a local date as a UTC instant. "24:00" is the next local midnight.
 * A time skipped by a spring-forward gap moves forward by the gap (02:30 becomes 03:30 EDT);
 * an ambiguous fall-back time takes the earlier (daylight) offset.
 */
export function localTimeToInstant(date: string, hhmm: string, zone: string): string {
  const m = HHMM.exec(hhmm);
  if (!m) throw new RangeError(`invalid time "${hhmm}"`);
  const midnight = parseDate(date);
  // Wall-clock fields rather than an elapsed duration, so DST changes earlier that day do not shift it.
  const wall = m[1] === undefined ? midnight + DAY_MS : midnight + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  return toIso(wallToInstant(wall, zone));
}

// ---- Plain dates (YYYY-MM-DD), no zone -------------------------------------------------------

/** Calendar arithmetic on a plain date (negative `days` go back). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * A date's ISO week, `YYYY-Www`, with its ISO week-numbering year: the week (Monday first) is
 * numbered by its Thursday, so 2027-01-01, a Friday, is in 2026-W53.
 */
export function isoWeekOf(date: string): string {
  const day = Date.parse(`${date}T00:00:00Z`);
  const mondayBased = (new Date(day).getUTCDay() + 6) % 7;
  const thursday = new Date(day + (3 - mondayBased) * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The calendar dates from..to, both inclusive; empty when `to` is before `from`. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= last; day += DAY_MS)
    dates.push(new Date(day).toISOString().slice(0, 10));
  return dates;
}

/** A UTC month (`YYYY-MM`) moved by `by` months. */
export function addMonths(month: string, by: number): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + by);
  return date.toISOString().slice(0, 7);
}

/** The months (`YYYY-MM`) from..through, both inclusive; empty when `through` is before `from`. */
export function monthsBetween(from: string, through: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= through; month = addMonths(month, 1)) months.push(month);
  return months;
}

/** How a range of dates is completed and bounded: `defaultDays` long when an end is missing, `to` at most `maxSpanDays` after `from`. */
export interface DateRangeRule {
  defaultDays: number;
  maxSpanDays: number;
  /** The message when the range is longer than that. */
  tooLong: string;
  /** Neither end given: `defaultDays` starting today (`forward`) or ending today (`backward`). */
  direction: 'forward' | 'backward';
}

/**
 * Dates [from, to] (inclusive) from optional ends: one end missing is `defaultDays` from the
 * other, neither is `defaultDays` from `today` in the rule's direction. Answers the problem
 * instead when `to` is before `from` or the range is longer than the rule allows.
 */
export function resolveDateRange(
  input: { from?: string; to?: string },
  today: string,
  rule: DateRangeRule,
): { from: string; to: string } | { path: 'to'; message: string } {
  const span = rule.defaultDays - 1;
  let { from, to } = input;
  if (from === undefined && to === undefined)
    [from, to] = rule.direction === 'forward' ? [today, addDays(today, span)] : [addDays(today, -span), today];
  from ??= addDays(to!, -span);
  to ??= addDays(from, span);
  if (to < from) return { path: 'to', message: '`to` is before `from`' };
  if (Date.parse(to) - Date.parse(from) > rule.maxSpanDays * DAY_MS) return { path: 'to', message: rule.tooLong };
  return { from, to };
}

export function weekdayKey(date: string): WeekdayKey {
  return BY_UTC_DAY[new Date(parseDate(date)).getUTCDay()]!;
}

export function addMinutes(iso: string, minutes: number): string {
  return toIso(parseInstant(iso) + minutes * 60_000);
}

/**
 * The instant `days` practice-local days after `instantIso` at the same local wall-clock time
 * (a series' occurrences): across a DST change the UTC instant moves by the offset; a time skipped
 * that day moves forward by the gap, an ambiguous one takes the earlier instant.
 */
export function sameLocalTimeDaysLater(instantIso: string, days: number, zone: string): string {
  const ms = parseInstant(instantIso);
  const fraction = ((ms % 1000) + 1000) % 1000;
  return toIso(wallToInstant(wallClock(ms, zone) + days * DAY_MS, zone) + fraction);
}
