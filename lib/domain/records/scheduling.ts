import type { InjectionSite, RecordStatus } from '../treatment-records';
import type * as z from '../../schemas/zod';
import type { Facility, Provider, Service } from '../../schemas/resources';
import type { TimeOff, WorkingHours } from '../availability';
import type { OnlineBookingSettings } from '../online-booking';
import type { AppointmentStatus } from '../status';
import type { CancellationPolicy, Fee } from '../deposits';
import type { API_ACCESS, AppointmentSource, SoftDeleted, Versioned } from './common';

/** The practice, its setup resources, appointments and what hangs off an appointment. */

export interface PracticeRecord extends Versioned {
  id: string;
  name: string;
  time_zone: string;
  currency: string;
  reminder_lead_minutes: number;
  /** How long a waitlist offer's hold lives (5..1440; stored only once set, decoded with the default 30). */
  waitlist_offer_minutes: number;
  api_access: (typeof API_ACCESS)[number];
  /** Stored only once set; decoded with the defaults (lib/db/codecs.ts). */
  online_booking: OnlineBookingSettings;
  allowed_origins: string[];
  /** Stored only once set; null: no policy, no fees. */
  cancellation_policy: CancellationPolicy | null;
}

/** A provider: `working_hours` and `time_off` as lib/domain/availability expects them. */
export type ProviderRecord = Omit<z.output<typeof Provider>, 'working_hours' | 'time_off'> &
  SoftDeleted & {
    /** Every weekday key present, periods sorted by start. */
    working_hours: WorkingHours;
    /** UTC ISO instants, sorted by start; `reason` only when given. */
    time_off: TimeOff[];
  };

/** A room or a piece of equipment (same fields). */
export type FacilityRecord = z.output<typeof Facility> & SoftDeleted;

/** `provider_ids` is the certification: a provider may perform the service iff its id is there. */
export type ServiceRecord = z.output<typeof Service>;

/** Where and when a booking (an appointment, or a hold) claims time. */
export interface PlacedTime {
  provider_id: string;
  room_id: string | null;
  equipment_id: string | null;
  scheduled_at: string;
  end_at: string;
  duration_minutes: number;
  /** The service's buffers snapshotted at booking (0 on records stored before buffers). */
  buffer_before_minutes: number;
  buffer_after_minutes: number;
}

export interface AppointmentRecord extends Versioned, PlacedTime {
  id: string;
  medspa_id: string;
  client_id: string;
  service_id: string;
  status: AppointmentStatus;
  notes: string | null;
  internal_notes: string | null;
  source: AppointmentSource;
  price_cents: number;
  cancelled_at: string | null;
  cancellation_reason: string | null;
  /** Snapshotted from the service at booking (0: none asked). */
  deposit_required_cents: number;
  /** The sum of its `kind: deposit` payments, raised in each payment's own transaction. */
  deposit_paid_cents: number;
  /** The practice's policy as it was at booking (null: none, no fees). */
  cancellation_policy: CancellationPolicy | null;
  /** Late-cancel and no-show fees, assessed with the status change. */
  fees: Fee[];
  /** An online booking's manage-link generation (lib/crypto/manage-token.ts): absent until a public reschedule. Never shown. */
  manage_generation?: number;
  /** The hold it was confirmed from (API reference, holds): null on appointments booked directly, absent on those booked before holds. */
  hold_id?: string | null;
  /** The series it was booked in (API reference, series): null otherwise, absent on those booked before series. */
  series_id?: string | null;
  /** The client plan whose unit it holds (section 12): null or absent when booked without one. */
  client_plan_id?: string | null;
  /** The waitlist entry whose offer it was booked from (API reference, waitlist): null otherwise, absent on those booked before the waitlist. */
  waitlist_entry_id?: string | null;
}

/**
 * A hold (API reference, holds): a draft of an appointment claiming its held time until
 * `expires_at`. `status` is what was written; `expired` is computed (lib/domain/holds.ts). A public
 * hold names the hashed client IP whose ledger counts it (`ip_hash`), never the address.
 */
export interface HoldRecord extends Versioned, PlacedTime {
  id: string;
  medspa_id: string;
  service_id: string;
  expires_at: string;
  deposit_required_cents: number;
  status: 'active' | 'confirmed' | 'released';
  appointment_id: string | null;
  ip_hash: string | null;
}

/** A client IP's active public holds in one practice (hold id -> expires_at), conditioned on `version` by each new hold. */
export interface HoldIpLedgerRecord {
  medspa_id: string;
  ip_hash: string;
  holds: Record<string, string>;
  version: number;
}

/** An appointment's clinical documentation; `medspa_id` is absent from items written before it was stored. */
export interface TreatmentRecord extends Versioned {
  medspa_id: string;
  appointment_id: string;
  client_id: string;
  provider_id: string;
  recorded_by: string;
  summary?: string;
  notes?: string;
  areas_treated?: string[];
  products_used?: TreatmentProductUse[];
  dosage?: string;
  follow_up?: string;
  /** `draft` until signed; a signed record changes only by amendment (section 13). */
  status: RecordStatus;
  signed_at: string | null;
  /** The credential (client_id) that signed this revision. */
  signed_by: string | null;
  /** 1 once signed, n + 1 per amendment; null for a draft. */
  revision: number | null;
  /** Why this revision amended the one before (revision > 1), else null. */
  amendment_reason: string | null;
}

/** A product used in a treatment: free text (`name` only), or a product of the catalog taking stock (`product_id`, `lot_id`). */
export interface TreatmentProductUse {
  /** The product's name when the body named a product without one. */
  name: string;
  product_id?: string;
  lot_id?: string;
  quantity?: number;
  unit?: string;
  lot_number?: string;
  injection_points?: { site: InjectionSite; units: number; depth?: string }[];
}

/** One revision of a signed treatment record (the signed original, then each amendment), as it was signed. */
export type TreatmentRevisionRecord = TreatmentRecord & { revision: number };

/** One resource's time claims in one UTC hour: the intervals of the active appointments touching it. */
export interface ClaimBucketRecord {
  medspa_id: string;
  resource: 'PROVIDER' | 'ROOM' | 'EQUIPMENT';
  resource_id: string;
  /** `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  /** claimant id -> its interval; a hold's entry also carries `hold: true` and its `expires_at`. */
  entries: Record<string, { start: string; end: string; hold?: true; expires_at?: string; series_id?: string }>;
  version: number;
}

/** A reminder request: the stream turns it into `appointment.reminder` with this `event_id`. */
export interface ReminderRecord {
  medspa_id: string;
  event_id: string;
  appointment_id: string;
  requested_at: string;
  requested_by: string;
  /** The appointment as read when the reminder was made, so the event needs no second read. */
  appointment: AppointmentRecord;
}

/** An armed reminder, in the partition of the UTC minute it falls due (across practices). */
export interface ReminderDueRecord {
  medspa_id: string;
  appointment_id: string;
  /** The appointment time it was armed for. */
  scheduled_at: string;
  due_minute: string;
  /** TTL: due items nobody swept expire on their own. */
  expires_at: number;
}

/** "The reminder for this appointment time went out": written once per appointment and time. */
export interface ReminderSentRecord {
  medspa_id: string;
  appointment_id: string;
  scheduled_at: string;
  event_id: string;
  sent_at: string;
}

/** The sweeper's checkpoint: the last minute partition it swept (one item for the deployment). */
export interface ReminderSweepRecord {
  swept_through: string;
  updated_at: string;
}

/** Online booking's one client per email: the client an email books as (by the email's SHA-256). */
export interface OnlineEmailRecord {
  medspa_id: string;
  email_hash: string;
  client_id: string;
}

/**
 * A client's online bookings still holding time, each with its end (the per-client limit's ledger).
 * `version` grows with every change, so a public booking can condition on the ledger it read.
 */
export interface OnlineLedgerRecord {
  medspa_id: string;
  client_id: string;
  /** appointment id -> its end (ISO). */
  ends: Record<string, string>;
  version: number;
}

/**
 * A series (API reference, series; docs/decisions/0025): `pending` while its occurrences' claims
 * are written (each expiring at `claims_until`), `committed` once its appointments exist, all
 * together. `expires_at` is the item's own retention (a pending one that never committed).
 */
export interface SeriesRecord extends Versioned {
  id: string;
  medspa_id: string;
  status: 'pending' | 'committed';
  claims_until: string;
  appointment_ids: string[];
}
