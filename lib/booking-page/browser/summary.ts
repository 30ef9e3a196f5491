/// <reference lib="dom" />
import type { Booking, Practice } from './api';
import { h } from './dom';
import { minutes, money, when, zoneName } from './format';

const STATUS: Record<Booking['status'], string> = {
  scheduled: 'Booked',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  in_progress: 'In progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'Missed',
};
/** A status in words; one the page does not know yet, as the API spells it. */
export const statusLabel = (status: string) => STATUS[status as Booking['status']] ?? status.replace(/_/g, ' ');

/** Only booked and confirmed appointments may still move or be cancelled. */
export const isChangeable = (booking: Booking) => booking.status === 'scheduled' || booking.status === 'confirmed';

/** Online changes close `cutoffMinutes` (the practice's cancel cut-off) before the start. */
export const changesClosed = (booking: Booking, cutoffMinutes: number, now: number) =>
  Date.parse(booking.scheduled_at) - cutoffMinutes * 60_000 <= now;

/** A booking as a description list: service, provider, time, length, price (when known), status. */
export function details(booking: Booking, practice: Practice, priceCents: number | null): HTMLElement {
  const rows: [string, string][] = [
    ['Service', booking.service.name],
    ['With', booking.provider.display_name],
    ['When', `${when(booking.scheduled_at, practice.time_zone)} (${zoneName(practice.time_zone)})`],
    ['Length', minutes(booking.duration_minutes)],
    ...(priceCents === null ? [] : ([['Price', money(priceCents, practice.currency)]] as [string, string][])),
    ['Status', statusLabel(booking.status)],
  ];
  return h(
    'dl',
    { class: 'details' },
    rows.map(([term, value]) => h('div', null, h('dt', null, term), h('dd', null, value))),
  );
}
