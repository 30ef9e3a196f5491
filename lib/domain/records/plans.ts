import type { Balance, ClientPlanStatus, LedgerKind, PlanKind } from '../plans';
import type { Versioned } from './common';

/** Plans, the plans clients bought, their balances and their unit ledger (section 12). */

export interface PlanBenefit {
  service_id: string;
  quantity: number;
}

/** A plan on sale: its benefits and terms never change once created. */
export interface PlanRecord extends Versioned {
  id: string;
  medspa_id: string;
  kind: PlanKind;
  name: string;
  description: string | null;
  price_cents: number;
  benefits: PlanBenefit[];
  term_months: number | null;
  valid_days: number | null;
  rollover: boolean;
  active: boolean;
}

/** A plan a client bought: the plan's terms as sold (a later change of the plan does not reach it). */
export interface ClientPlanRecord extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  plan_id: string;
  kind: PlanKind;
  name: string;
  price_cents: number;
  service_ids: string[];
  status: ClientPlanStatus;
  starts_on: string;
  current_term: { starts_on: string; ends_on: string } | null;
  expires_on: string | null;
  cancel_reason: string | null;
  cancel_at_term_end: boolean;
}

/** A client plan's sale as the revenue report counts it (never changed once written). */
export interface PlanSaleRecord {
  medspa_id: string;
  client_plan_id: string;
  client_id: string;
  plan_id: string;
  /** The plan's price when sold. */
  price_cents: number;
  /** When it was sold (the client plan's created_at). */
  created_at: string;
}

/** The units of one service of a client plan: changed only by conditional writes, each with its ledger entry. */
export interface PlanBalanceRecord extends Balance {
  medspa_id: string;
  client_plan_id: string;
  version: number;
}

/** A ledger entry (never changed once written). */
export interface PlanLedgerRecord {
  id: string;
  medspa_id: string;
  client_plan_id: string;
  service_id: string;
  kind: LedgerKind;
  quantity: number;
  appointment_id: string | null;
  reason: string | null;
  balance_after: { reserved: number; used: number; remaining: number };
  created_at: string;
}
