import type { ErrorCode } from '../errors';
import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import * as p from '../schemas/plans';
import { ResourceParams } from '../schemas/resources';

/**
 * Plans, a client's plans and their unit ledger (API reference, section 12). Plans are read by
 * every role but providers (like the retail catalog) and written by admins and managers; plans
 * are sold by the front office; pausing, resuming, cancelling and adjusting are a manager's call.
 */

/**
 * A status move of a membership plan writes its client's membership (and the search entries'
 * filter) in the same transaction, or checks that another plan governs it; a cancel of the
 * governing plan reads the client's other plans for the one that takes over (lib/db/plans.ts).
 */
const PLAN_STATUS_WRITES = {
  clientPlans: ['check', 'update'],
  clients: ['check', 'update'],
  clientSearch: ['put'],
} as const;
// The practice's time zone places the plan on the due index (docs/decisions/0026); the client and its
// other plans follow a membership's move (lib/domain/membership.ts).
const PLAN_STATUS_READS = ['clientPlans', 'clients', 'clientPlansByClient', 'practice'] as const;

export const listPlans = /* @__PURE__ */ route('listPlans', () => ({
  method: 'GET',
  path: '/v1/plans',
  group: 'plans',
  summary: 'List plans (`?kind=package|membership`, `?active=true|false`)',
  auth: ALLOW.inventoryRead,
  query: p.PlanListQuery,
  response: list(p.Plan),
  reads: ['plans'],
}));

export const createPlan = /* @__PURE__ */ route('createPlan', () => ({
  method: 'POST',
  path: '/v1/plans',
  group: 'plans',
  summary: 'Create a package or membership plan (benefits and terms are fixed once created)',
  auth: ALLOW.catalogWrite,
  body: p.CreatePlanBody,
  response: p.Plan,
  errors: ['SERVICE_NOT_FOUND'],
  writes: { plans: ['put'] },
  reads: ['services'],
}));

export const getPlan = /* @__PURE__ */ route('getPlan', () => ({
  method: 'GET',
  path: '/v1/plans/{id}',
  group: 'plans',
  summary: 'Get a plan',
  auth: ALLOW.inventoryRead,
  params: ResourceParams,
  response: p.Plan,
  errors: ['PLAN_NOT_FOUND'],
  reads: ['plans'],
}));

export const updatePlan = /* @__PURE__ */ route('updatePlan', () => ({
  method: 'PATCH',
  path: '/v1/plans/{id}',
  group: 'plans',
  summary: "Change a plan's name, description, price or whether it is sold",
  auth: ALLOW.catalogWrite,
  params: ResourceParams,
  body: p.UpdatePlanBody,
  response: p.Plan,
  errors: ['PLAN_NOT_FOUND'],
  writes: { plans: ['update'] },
  reads: ['plans'],
}));

export const sellPlan = /* @__PURE__ */ route('sellPlan', () => ({
  method: 'POST',
  path: '/v1/clients/{id}/plans',
  group: 'plans',
  summary:
    "Sell a plan to a client: its units granted, a payment given recorded and, for a membership, the client's membership fields set (`active`, the plan's name), in one write",
  auth: ALLOW.frontOffice,
  params: ResourceParams,
  body: p.SellPlanBody,
  response: p.ClientPlan,
  errors: ['CLIENT_NOT_FOUND', 'PLAN_NOT_FOUND', 'PLAN_NOT_ACTIVE'],
  // A payment raises its client's spend (conditioned on a live client); without one, a check. A
  // membership sets its client's membership fields and their search entries' filter.
  writes: {
    clients: ['check', 'update'],
    clientSearch: ['put'],
    payments: ['put'],
    clientPlans: ['put'],
    planLedger: ['put'],
    planSales: ['put'],
  },
  reads: ['clients', 'plans', 'practice'],
}));

export const listClientPlans = /* @__PURE__ */ route('listClientPlans', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/plans',
  group: 'plans',
  summary: "A client's plans with their balances, newest first",
  auth: ALLOW.inventoryRead,
  params: ResourceParams,
  query: p.LedgerQuery,
  response: list(p.ClientPlan),
  errors: ['CLIENT_NOT_FOUND'],
  reads: ['clients', 'clientPlansByClient', 'clientPlans'],
}));

export const getClientPlan = /* @__PURE__ */ route('getClientPlan', () => ({
  method: 'GET',
  path: '/v1/client-plans/{id}',
  group: 'plans',
  summary: "A client's plan with its balances per service",
  auth: ALLOW.inventoryRead,
  params: p.ClientPlanParams,
  response: p.ClientPlan,
  errors: ['CLIENT_PLAN_NOT_FOUND'],
  reads: ['clientPlans'],
}));

/** Pause, resume and cancel differ only in their path, summary and body. */
const planStatusRow = <A extends 'pause' | 'resume' | 'cancel'>(action: A, summary: string) => ({
  method: 'POST' as const,
  path: `/v1/client-plans/{id}/${action}` as const,
  group: 'plans',
  summary,
  auth: ALLOW.catalogWrite,
  params: p.ClientPlanParams,
  response: p.ClientPlan,
  successStatus: 200 as const,
  errors: ['CLIENT_PLAN_NOT_FOUND', 'INVALID_STATUS_TRANSITION'] satisfies ErrorCode[],
  writes: PLAN_STATUS_WRITES,
  reads: PLAN_STATUS_READS,
});

export const pauseClientPlan = /* @__PURE__ */ route('pauseClientPlan', () =>
  planStatusRow(
    'pause',
    'Pause a plan: bookings against it are refused (409 PLAN_NOT_ACTIVE) until resumed; a paused membership does not renew',
  ),
);

export const resumeClientPlan = /* @__PURE__ */ route('resumeClientPlan', () =>
  planStatusRow('resume', 'Resume a paused plan'),
);

export const cancelClientPlan = /* @__PURE__ */ route('cancelClientPlan', () => ({
  ...planStatusRow(
    'cancel',
    "Cancel a plan now, or a membership at the end of its term (`at_term_end`); the governing membership's client turns `cancelled` (or follows another active one)",
  ),
  body: p.CancelPlanBody,
}));

export const listPlanLedger = /* @__PURE__ */ route('listPlanLedger', () => ({
  method: 'GET',
  path: '/v1/client-plans/{id}/ledger',
  group: 'plans',
  summary: "A client plan's unit ledger, newest first",
  auth: ALLOW.inventoryRead,
  params: p.ClientPlanParams,
  query: p.LedgerQuery,
  response: list(p.LedgerEntry),
  errors: ['CLIENT_PLAN_NOT_FOUND'],
  reads: ['clientPlans', 'planLedger'],
}));

export const createPlanAdjustment = /* @__PURE__ */ route('createPlanAdjustment', () => ({
  method: 'POST',
  path: '/v1/client-plans/{id}/adjustments',
  group: 'plans',
  summary: 'Correct a balance by a signed delta (never below 0 remaining: 409 ENTITLEMENT_EXHAUSTED)',
  auth: ALLOW.catalogWrite,
  params: p.ClientPlanParams,
  body: p.CreatePlanAdjustmentBody,
  response: p.LedgerEntry,
  errors: ['CLIENT_PLAN_NOT_FOUND', 'PLAN_NOT_APPLICABLE', 'ENTITLEMENT_EXHAUSTED'],
  writes: { clientPlans: ['update'], planLedger: ['put'] },
  reads: ['clientPlans'],
}));

/** Plans and a client's plans (API reference, section 12). Plans are retired (`active: false`), never deleted. */
export const planRoutes = /* @__PURE__ */ defineRoutes({
  listPlans,
  createPlan,
  getPlan,
  updatePlan,
  sellPlan,
  listClientPlans,
  getClientPlan,
  pauseClientPlan,
  resumeClientPlan,
  cancelClientPlan,
  listPlanLedger,
  createPlanAdjustment,
});
