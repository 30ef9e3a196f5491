import type { ClientPlanStatus } from './plans';
import type { ClientPlanRecord, ClientRecord } from './records';

/**
 * A client's membership fields while membership plans govern them (API reference, section 12,
 * "Clients"). The client carries the id of the governing plan (`membership_plan_id`): the most
 * recently sold active or paused membership plan. While it is set, `membership_status` is that
 * plan's status and `membership_tier` its name, and a PATCH of either is refused. Packages never
 * touch these fields.
 */

export type Membership = Pick<ClientRecord, 'membership_status' | 'membership_tier' | 'membership_plan_id'>;

/** The fields a PATCH may not write while a plan governs them. */
export const PLAN_MANAGED_FIELDS = ['membership_status', 'membership_tier'] as const;

type PlanFacts = Pick<ClientPlanRecord, 'id' | 'kind' | 'name' | 'status' | 'created_at'>;

const governs = (status: ClientPlanStatus): status is 'active' | 'paused' => status === 'active' || status === 'paused';

/** What the client shows while `plan` governs it. */
const followPlan = (plan: PlanFacts, status: 'active' | 'paused'): Membership => ({
  membership_status: status,
  membership_tier: plan.name,
  membership_plan_id: plan.id,
});

/** A sale: a new membership plan governs from now on (it is the most recently sold); a package changes nothing. */
export const membershipOnSale = (plan: PlanFacts): Membership | null =>
  plan.kind === 'membership' ? followPlan(plan, 'active') : null;

/** A status move of a membership plan that touches its client at all. */
export const movesMembership = (plan: PlanFacts, next: ClientPlanStatus | undefined): next is ClientPlanStatus =>
  plan.kind === 'membership' && next !== undefined && next !== plan.status;

/** The governing plan ends (cancelled or expired): then another active or paused membership may take over. */
export const endsGoverning = (
  plan: PlanFacts,
  next: ClientPlanStatus | undefined,
  client: Pick<ClientRecord, 'membership_plan_id'> | null,
): boolean => movesMembership(plan, next) && !governs(next) && client?.membership_plan_id === plan.id;

/**
 * The plan that governs after `endingId` ends: the most recently sold (created_at, then id) other
 * active or paused membership among the client's plans, or null.
 */
export function successorOf(plans: readonly PlanFacts[], endingId: string): PlanFacts | null {
  const candidates = plans.filter((p) => p.id !== endingId && p.kind === 'membership' && governs(p.status));
  candidates.sort((a, b) =>
    a.created_at === b.created_at ? b.id.localeCompare(a.id) : b.created_at.localeCompare(a.created_at),
  );
  return candidates[0] ?? null;
}

/**
 * What a plan's status move does to its client:
 * - `none`: a package, no move, or no live client;
 * - `elsewhere`: another plan (or none) governs the client; the write must check it still does
 *   not become this one's (a successor promoted meanwhile);
 * - `set`: the governing plan moved: the client follows it, or when it ended its `successor`, or
 *   else turns `cancelled` (the tier keeps the ended plan's name) and writable again.
 */
export type MembershipEffect =
  | { kind: 'none' }
  | { kind: 'elsewhere' }
  | { kind: 'set'; membership: Membership; successor: PlanFacts | null };

export function membershipEffect(
  plan: PlanFacts,
  next: ClientPlanStatus | undefined,
  client: Pick<ClientRecord, 'membership_plan_id'> | null,
  successor: PlanFacts | null,
): MembershipEffect {
  if (!movesMembership(plan, next) || !client) return { kind: 'none' };
  if (client.membership_plan_id !== plan.id) return { kind: 'elsewhere' };
  if (governs(next)) return { kind: 'set', membership: followPlan(plan, next), successor: null };
  if (successor && governs(successor.status))
    return { kind: 'set', membership: followPlan(successor, successor.status), successor };
  return {
    kind: 'set',
    membership: { membership_status: 'cancelled', membership_tier: plan.name, membership_plan_id: null },
    successor: null,
  };
}
