import { randomUUID } from 'node:crypto';
import { pageRequest } from '../crypto/cursor';
import { findPlan, listPlans as queryPlans, putNewPlan, updatePlan } from '../db/plans';
import { where } from '../db/query';
import type { RequestWrites } from '../db/request-writes';
import { termsProblem } from '../domain/plans';
import type { PlanRecord } from '../domain/records';
import { AppError, fieldError } from '../errors';
import type { CreatePlanInput, Plan, PlanListQuery, UpdatePlanInput } from '../schemas/plans';
import { toListResult, type ListResult } from './list-result';
import { findResources, type WriteOptions } from './resources';

/**
 * Plans on sale (API reference, section 12): packages and memberships. Their benefits and terms
 * are fixed once created (a client plan keeps what it was sold with anyway); a PATCH changes the
 * name, description, price and whether it is sold.
 */

export async function readPlan(medspaId: string, id: string): Promise<PlanRecord> {
  const plan = await findPlan(medspaId, id);
  if (!plan) throw new AppError('PLAN_NOT_FOUND');
  return plan;
}

export async function createPlan(
  medspaId: string,
  input: CreatePlanInput,
  now: Date,
  writes?: RequestWrites,
): Promise<Plan> {
  const problem = termsProblem(input);
  if (problem) throw fieldError(...problem);
  const serviceIds = input.benefits.map((b) => b.service_id);
  const twice = serviceIds.findIndex((id, index) => serviceIds.indexOf(id) !== index);
  if (twice >= 0) throw fieldError(`benefits.${twice}.service_id`, 'each service at most once');
  const found = await findResources('service', medspaId, serviceIds);
  const missing = serviceIds.find((id) => !found.has(id));
  if (missing !== undefined) throw new AppError('SERVICE_NOT_FOUND', `Service ${missing} does not exist`);
  const at = now.toISOString();
  const plan: PlanRecord = {
    id: randomUUID(),
    medspa_id: medspaId,
    kind: input.kind,
    name: input.name,
    description: input.description ?? null,
    price_cents: input.price_cents,
    benefits: input.benefits,
    term_months: input.term_months ?? null,
    valid_days: input.valid_days ?? null,
    rollover: input.rollover ?? false,
    active: input.active,
    version: 1,
    created_at: at,
    updated_at: at,
  };
  return putNewPlan(plan, writes);
}

export async function changePlan(
  medspaId: string,
  id: string,
  input: UpdatePlanInput,
  options: WriteOptions,
): Promise<Plan> {
  const outcome = await updatePlan(medspaId, id, input, {
    expectedVersion: options.ifMatch,
    now: options.now.toISOString(),
  });
  if (outcome.ok) return outcome.item;
  throw new AppError(outcome.failed === 'absent' ? 'PLAN_NOT_FOUND' : 'VERSION_CONFLICT');
}

/** Plans in id order: one Query on the practice's plans, `kind` and `active` as filters. */
export async function listPlans(medspaId: string, query: PlanListQuery): Promise<ListResult<Plan>> {
  const page = await queryPlans(
    medspaId,
    pageRequest(medspaId, 'plans', query),
    where<PlanRecord>({ kind: query.kind, active: query.active }),
  );
  return toListResult(page);
}
