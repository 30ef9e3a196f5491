/**
 * What every stored record shares, and the closed value sets of stored fields. Kept apart from the
 * record types so the public schemas (lib/schemas) can build their enums from these while the
 * record types derive from those schemas, with no import cycle.
 */

export interface Versioned {
  version: number;
  created_at: string;
  updated_at: string;
}

/** Hidden resources keep their id (history refers to them) and answer 404. */
export type SoftDeleted = { deleted_at?: string };

export const APPOINTMENT_SOURCES = ['manual', 'online', 'storefront'] as const;
export type AppointmentSource = (typeof APPOINTMENT_SOURCES)[number];

export const MEMBERSHIP_STATUSES = ['none', 'active', 'paused', 'cancelled'] as const;

export const PAYMENT_METHODS = ['card', 'cash', 'gift_card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** `plan`: a plan sale (section 12), accepted here ahead of it. */
export const PAYMENT_KINDS = ['payment', 'deposit', 'fee', 'plan'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const API_ACCESS = ['waitlisted', 'enabled'] as const;
