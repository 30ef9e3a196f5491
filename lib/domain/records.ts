import type { AppointmentStatus } from './status';
import type { StockReason } from './stock';

/**
 * The records the product keeps, as the domain and the data layer see them: plain types with no
 * HTTP schema behind them. The public response schemas (lib/schemas) describe the same fields
 * and are checked against these at compile time (lib/schemas/record-checks.ts), so a field added
 * on one side and not the other fails the build.
 */

export interface Versioned {
  version: number;
  created_at: string;
  updated_at: string;
}

/** Hidden resources keep their id (history refers to them) and answer 404. */
export interface SoftDeleted {
  deleted_at?: string;
}

export const APPOINTMENT_SOURCES = ['manual', 'online', 'storefront'] as const;
export type AppointmentSource = (typeof APPOINTMENT_SOURCES)[number];

export interface Appointment extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  service_id: string;
  provider_id: string;
  room_id: string | null;
  equipment_id: string | null;
  scheduled_at: string;
  end_at: string;
  duration_minutes: number;
  status: AppointmentStatus;
  notes: string | null;
  internal_notes: string | null;
  source: AppointmentSource;
  price_cents: number;
  cancelled_at: string | null;
  cancellation_reason: string | null;
}

export interface TreatmentRecord extends Versioned {
  appointment_id: string;
  client_id: string;
  provider_id: string;
  recorded_by: string;
  summary?: string;
  notes?: string;
  areas_treated?: string[];
  products_used?: { name: string; quantity?: number; unit?: string; lot_number?: string }[];
  dosage?: string;
  follow_up?: string;
}

export const MEMBERSHIP_STATUSES = ['none', 'active', 'paused', 'cancelled'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export interface Address {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postal_code: string | null;
  country: string | null;
}

/**
 * A stored client: no `health_score` (it depends on the time, so it is computed at read time)
 * but the no-show count it needs. Visit statistics move with appointments and payments
 * (lib/db/client-stats.ts), also after a deletion, so reports stay right.
 */
export interface ClientRecord extends Versioned, SoftDeleted {
  id: string;
  medspa_id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  date_of_birth: string | null;
  address: Address | null;
  membership_status: MembershipStatus;
  membership_tier: string | null;
  tags: string[];
  notes: string | null;
  last_visit_at: string | null;
  total_spent_cents: number;
  visit_count: number;
  no_show_count?: number;
}

export interface Consent extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  form_name: string;
  signed_at: string;
  appointment_id: string | null;
}

export const PAYMENT_METHODS = ['card', 'cash', 'gift_card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Immutable once recorded (no updated_at). */
export interface Payment {
  id: string;
  medspa_id: string;
  client_id: string;
  appointment_id: string | null;
  amount_cents: number;
  currency: string;
  method: PaymentMethod;
  note: string | null;
  version: number;
  created_at: string;
}

export interface Product extends Versioned {
  id: string;
  medspa_id: string;
  name: string;
  sku: string;
  brand: string | null;
  category: string | null;
  price_cents: number;
  cost_cents: number | null;
  quantity_on_hand: number;
  low_stock_threshold: number;
  low_stock: boolean;
  active: boolean;
}

export interface StockAdjustment {
  id: string;
  product_id: string;
  delta: number;
  reason: StockReason;
  unit_price_cents: number | null;
  note: string | null;
  quantity_after: number;
  low_stock_crossed: boolean;
  created_at: string;
  created_by: string;
}

export const API_ACCESS = ['waitlisted', 'enabled'] as const;

export interface Practice extends Versioned {
  id: string;
  name: string;
  time_zone: string;
  currency: string;
  reminder_lead_minutes: number;
  api_access: (typeof API_ACCESS)[number];
}

/**
 * Which generation of report aggregates is live (`active`: reports read it, the stream writes it)
 * and the one a rebuild is filling (`building`: the stream writes it too). `rev` moves on every
 * change; every aggregate write is conditioned on the revision it saw.
 */
export interface ReportGeneration {
  medspa_id: string;
  active: string;
  building: string | null;
  rev: number;
  updated_at: string;
}

/** The facts of one source record that the report counters depend on (lib/domain/report-aggregates); dates are practice-local. */
export type CountedFacts =
  | {
      kind: 'appointment';
      date: string;
      client_id: string;
      provider_id: string;
      service_id: string;
      status: AppointmentStatus;
      price_cents: number;
      duration_minutes: number;
    }
  | { kind: 'payment'; date: string; amount_cents: number }
  | { kind: 'sale'; date: string; amount_cents: number };

/** A generation's ledger entry for one source record: the version and facts it has counted. */
export interface ReportLedgerRecord {
  medspa_id: string;
  generation: string;
  record_key: string;
  version: number;
  facts: CountedFacts | null;
}

/** A client's completed visits per practice-local date, in one generation (for first visits). */
export interface ReportClientVisits {
  medspa_id: string;
  generation: string;
  client_id: string;
  dates: Record<string, number>;
  rev: number;
}

/** A stream record the report aggregator has applied (kept 48 h: `expires_at`). */
export interface ReportStreamMarker {
  medspa_id: string;
  event_id: string;
  applied_at: string;
  expires_at: number;
}
