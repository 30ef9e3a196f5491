import type { ClientPlanRecord, PlanBalanceRecord, PlanLedgerRecord } from './records';
import type { Balance } from './plans';

/** The API's shapes of client plans and ledger entries (section 12). */

const toBalance = ({ service_id, granted, reserved, used, expired, remaining }: Balance): Balance => ({
  service_id,
  granted,
  reserved,
  used,
  expired,
  remaining,
});

/** A client plan with its balances in its benefits' order. */
export function toClientPlan(plan: ClientPlanRecord, balances: readonly PlanBalanceRecord[]) {
  const byService = new Map(balances.map((b) => [b.service_id, b]));
  return {
    id: plan.id,
    client_id: plan.client_id,
    plan_id: plan.plan_id,
    kind: plan.kind,
    name: plan.name,
    status: plan.status,
    starts_on: plan.starts_on,
    current_term: plan.current_term,
    expires_on: plan.expires_on,
    balances: plan.service_ids.flatMap((id) => {
      const balance = byService.get(id);
      return balance ? [toBalance(balance)] : [];
    }),
    version: plan.version,
    created_at: plan.created_at,
  };
}

export function toLedgerEntry(entry: PlanLedgerRecord) {
  const { medspa_id: _m, appointment_id, reason, ...fields } = entry;
  return {
    ...fields,
    ...(appointment_id === null ? {} : { appointment_id }),
    ...(reason === null ? {} : { reason }),
  };
}
