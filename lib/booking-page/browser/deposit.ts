import type { Practice, Service } from './api';

/**
 * A service that asks a deposit (API reference, public holds): the page takes no payments, so it
 * lists the deposit and the practice's note and sends the client to the practice to book it.
 * The one place the page reads `deposit_required_cents` (public services) and
 * `online_booking.deposit_note` (public practice).
 */
export function depositOf(service: Service, practice: Practice): { cents: number; note: string | null } | null {
  const cents = service.deposit_required_cents;
  if (!(cents > 0)) return null;
  const note = practice.online_booking.deposit_note;
  return { cents, note: note?.trim() || null };
}
