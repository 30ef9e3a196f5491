/// <reference lib="dom" />
/**
 * Dates, times and money in the practice's time zone and currency (Intl only). Dates are
 * practice-local `YYYY-MM-DD` strings; instants are ISO 8601 UTC strings from the API.
 */

/** The page is in English: English formats, in the reader's English variant when it has one (en-GB: 24 h). */
export const LOCALE = (() => {
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  const english = wanted.find((tag) => /^en(-|$)/i.test(tag));
  try {
    return english ? (Intl.DateTimeFormat.supportedLocalesOf([english])[0] ?? 'en-US') : 'en-US';
  } catch {
    return 'en-US';
  }
})();

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(zone: string, options: Intl.DateTimeFormatOptions, locale = LOCALE): Intl.DateTimeFormat {
  const id = `${locale}|${zone}|${JSON.stringify(options)}`;
  let format = formats.get(id);
  if (!format) formats.set(id, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
  return format;
}

const partOf = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
  parts.find((part) => part.type === type)?.value ?? '';

/** The practice-local date of an instant. */
export function localDate(instant: string | number | Date, zone: string): string {
  const parts = dateFormat(zone, { year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA').formatToParts(
    new Date(instant),
  );
  return `${partOf(parts, 'year')}-${partOf(parts, 'month')}-${partOf(parts, 'day')}`;
}

export function addDays(date: string, days: number): string {
  const day = new Date(`${date}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

const noon = (date: string) => new Date(`${date}T12:00:00Z`);

/** A day button's three lines: weekday, day of month, month ("Tue", "2", "Dec"). */
export function dayParts(date: string): [string, string, string] {
  const parts = dateFormat('UTC', { weekday: 'short', day: 'numeric', month: 'short' }).formatToParts(noon(date));
  return [partOf(parts, 'weekday'), partOf(parts, 'day'), partOf(parts, 'month')];
}

/** "Tuesday, December 2". */
export const longDate = (date: string) =>
  dateFormat('UTC', { weekday: 'long', month: 'long', day: 'numeric' }).format(noon(date));

/** "9:00 AM" in the practice's zone. */
export const clock = (instant: string, zone: string) =>
  dateFormat(zone, { hour: 'numeric', minute: '2-digit' }).format(new Date(instant));

/** "Tuesday, December 2, 2025 at 9:00 AM" in the practice's zone. */
export const when = (instant: string, zone: string) =>
  dateFormat(zone, { dateStyle: 'full', timeStyle: 'short' }).format(new Date(instant));

/** "Eastern Time": the zone's generic name where the browser knows one, else the IANA name. */
export function zoneName(zone: string): string {
  for (const timeZoneName of ['longGeneric', 'long'] as const) {
    try {
      const name = partOf(dateFormat(zone, { timeZoneName }).formatToParts(new Date()), 'timeZoneName');
      if (name && !/^GMT[+-]/.test(name)) return name;
    } catch {
      // An older browser without this style: try the next.
    }
  }
  return zone.replace(/_/g, ' ');
}

/** Whether the reader's device is in another zone than the practice (then the page says so). */
export function deviceZoneDiffers(zone: string): boolean {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone !== zone;
  } catch {
    return false;
  }
}

/** Minor units (cents) in the currency's own decimals: 40000 USD is $400.00, 5000 JPY is ¥5,000. */
export function money(minor: number, currency: string): string {
  const format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** "30 min", "1 hr 30 min". */
export function minutes(total: number): string {
  const unit = (value: number, name: 'hour' | 'minute') =>
    new Intl.NumberFormat(LOCALE, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  return hours && total > 60
    ? `${unit(hours, 'hour')}${rest ? ` ${unit(rest, 'minute')}` : ''}`
    : unit(total, 'minute');
}

/** "2 hours", "1 day": the practice's notice and cut-off periods in words. */
export function period(total: number): string {
  const [value, unit] =
    total % 1440 === 0 ? [total / 1440, 'day'] : total % 60 === 0 ? [total / 60, 'hour'] : [total, 'minute'];
  return new Intl.NumberFormat(LOCALE, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}
