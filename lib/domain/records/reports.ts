import type { AppointmentStatus } from '../status';

/** Report aggregates, kept by the table stream (lib/use-cases/report-aggregation.ts). */

/**
 * Which generation of report aggregates is live (`active`: reports read it, the stream writes it)
 * and the one a rebuild is filling (`building`: the stream writes it too). `rev` moves on every
 * change; every aggregate write is conditioned on the revision it saw.
 */
export interface ReportGenerationRecord {
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
  | { kind: 'sale'; date: string; amount_cents: number }
  /** A client plan sold: its price_cents at sale, on the local date of the sale. */
  | { kind: 'plan'; date: string; amount_cents: number };

/** A generation's ledger entry for one source record: the version and facts it has counted. */
export interface ReportLedgerRecord {
  medspa_id: string;
  generation: string;
  record_key: string;
  version: number;
  facts: CountedFacts | null;
}

/** A client's completed visits per practice-local date, in one generation (for first visits). */
export interface ReportClientVisitsRecord {
  medspa_id: string;
  generation: string;
  client_id: string;
  dates: Record<string, number>;
  rev: number;
}

/**
 * A practice-local day's counters in one generation: totals and per provider / per service
 * (`TOTALS`), or the clients seen and first visits (`CLIENTS`), each a top-level number moved by
 * ADD. Never written whole: only by those updates.
 */
export interface ReportDayRecord {
  medspa_id: string;
  generation: string;
  date: string;
}
