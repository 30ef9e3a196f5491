import * as z from './zod';
import { CLIENT_PLAN_STATUSES, LEDGER_KINDS, PLAN_KINDS } from '../domain/plans';
import { doc, IdOf, Instant, LocalDate, meta, OutId, PageQuery, schema, Text, Timestamps } from './common';
import { PaymentMethod } from './payments';

/** Plans, a client's plans, their balances and unit ledger (API reference, section 12). */

const Cents = /* @__PURE__ */ schema(() => z.number().check(z.int(), z.gte(0), z.lte(100_000_000)));
const Int = /* @__PURE__ */ schema(() => z.number().check(z.int()));

export const PlanKind = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(PLAN_KINDS),
    'package: a number of units sold once (they may expire `valid_days` after the sale); membership: units granted every term of `term_months`.',
    'package',
  ),
);

const Benefit = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      service_id: IdOf('service', 'A service of the practice (else 404 SERVICE_NOT_FOUND).'),
      quantity: doc(
        z.number().check(z.int(), z.gte(1), z.lte(1000)),
        'Units of it (per term for a membership), 1-1000.',
        6,
      ),
    }),
    'Units of one service the plan gives.',
  ),
);

const PlanName = /* @__PURE__ */ schema(() =>
  doc(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    'Name (1-200 characters).',
    'Laser hair removal x6',
  ),
);
const Description = /* @__PURE__ */ schema(() =>
  doc(z.nullable(Text(2000)), 'A description (at most 2000 characters).', 'Six sessions, any area'),
);

export const CreatePlanBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      kind: PlanKind,
      name: PlanName,
      description: z.optional(Description),
      price_cents: doc(Cents, "Price in the practice's currency, minor units.", 120000),
      benefits: doc(
        z.array(Benefit).check(z.minLength(1), z.maxLength(20)),
        'What it gives: 1-20 services, each once.',
      ),
      term_months: doc(
        z.optional(z.number().check(z.int(), z.gte(1), z.lte(12))),
        "A membership's term (1-12 months; required for memberships, refused for packages).",
        1,
      ),
      valid_days: doc(
        z.optional(z.number().check(z.int(), z.gte(1), z.lte(3650))),
        "A package's units expire this many days after the sale (1-3650; default never; refused for memberships).",
        365,
      ),
      rollover: doc(
        z.optional(z.boolean()),
        "A membership's unused units carry into the next term (default false; refused for packages).",
        false,
      ),
      active: doc(z._default(z.boolean(), true), 'Whether it is sold (default true).', true),
    }),
    'A plan to sell.',
  ),
);
export type CreatePlanInput = z.output<typeof CreatePlanBody>;

export const UpdatePlanBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        name: PlanName,
        description: Description,
        price_cents: doc(Cents, 'Price, minor units (for sales from now on).', 120000),
        active: doc(z.boolean(), 'Whether it is sold.', false),
      }),
    ),
    'Any subset of name, description, price_cents and active: benefits and terms are fixed once created (sell a new plan instead).',
  ),
);
export type UpdatePlanInput = z.output<typeof UpdatePlanBody>;

export const Plan = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('plan', 'The plan id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      kind: PlanKind,
      name: doc(z.string(), 'Name.', 'Laser hair removal x6'),
      description: doc(z.nullable(z.string()), 'A description.', 'Six sessions, any area'),
      price_cents: doc(Int, 'Price, minor units.', 120000),
      benefits: doc(
        z.array(
          z.object({
            service_id: OutId('service', 'The service.'),
            quantity: doc(Int, 'Units (per term for a membership).', 6),
          }),
        ),
        'What it gives.',
      ),
      term_months: doc(z.nullable(Int), "A membership's term in months (null for a package).", null),
      valid_days: doc(z.nullable(Int), "Days a package's units last after the sale (null: never expire).", 365),
      rollover: doc(z.boolean(), "Whether a membership's unused units carry into the next term.", false),
      active: doc(z.boolean(), 'Whether it is sold.', true),
      ...Timestamps,
    }),
    { description: 'A package or membership plan.', id: 'Plan' },
  ),
);
export type Plan = z.output<typeof Plan>;

const BooleanQuery = /* @__PURE__ */ schema(() =>
  z.pipe(
    z.enum(['true', 'false']),
    z.transform((value) => value === 'true'),
  ),
);

export const PlanListQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    kind: doc(z.optional(z.enum(PLAN_KINDS)), 'Only plans of this kind.', 'membership'),
    active: doc(z.optional(BooleanQuery), 'true: only plans on sale; false: only retired ones.', 'true'),
  }),
);
export type PlanListQuery = z.output<typeof PlanListQuery>;

// ---- A client's plans ---------------------------------------------------------------------------

export const SellPlanBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      plan_id: IdOf(
        'plan',
        'An active plan of the practice (else 404 PLAN_NOT_FOUND; a retired one 409 PLAN_NOT_ACTIVE).',
      ),
      starts_on: z.optional(doc(LocalDate, 'The first day (practice-local; default today).', '2026-12-01')),
      payment: z.optional(
        doc(
          z.strictObject({
            amount_cents: doc(z.number().check(z.int(), z.gte(1), z.lte(100_000_000)), 'Amount, minor units.', 120000),
            method: PaymentMethod,
            reference: doc(
              z.optional(Text(200).check(z.minLength(1))),
              "The processor's id of the charge; never card data.",
              'pi_3QZx8B2eZvKYlo2C1a2b3c4d',
            ),
          }),
          'A payment for it, recorded in the same write (`kind: "plan"`).',
        ),
      ),
    }),
    'A plan sold to the client.',
  ),
);
export type SellPlanInput = z.output<typeof SellPlanBody>;

export const BalanceOut = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      service_id: OutId('service', 'The service.'),
      granted: doc(Int, 'Units granted (grants and adjustments).', 6),
      reserved: doc(Int, 'Units held by booked appointments.', 1),
      used: doc(Int, 'Units used (completed, late-cancelled or no-show appointments).', 2),
      expired: doc(Int, 'Units expired.', 0),
      remaining: doc(Int, 'granted - reserved - used - expired; never below 0.', 3),
    }),
    { description: "A client plan's units of one service.", id: 'PlanBalance' },
  ),
);

const ClientPlanFields = /* @__PURE__ */ schema(() => ({
  id: OutId('clientPlan', "The client plan's id."),
  client_id: OutId('client', 'The client.'),
  plan_id: OutId('plan', 'The plan sold.'),
  kind: PlanKind,
  name: doc(z.string(), "The plan's name when sold.", 'Laser hair removal x6'),
  status: doc(z.enum(CLIENT_PLAN_STATUSES), 'Where it stands.', 'active'),
  starts_on: doc(z.string(), 'Its first day (practice-local).', '2026-12-01'),
  current_term: doc(
    z.nullable(
      z.object({
        starts_on: doc(z.string(), 'Its first day (practice-local).', '2026-12-01'),
        ends_on: doc(z.string(), 'Its last day (practice-local, inclusive).', '2026-12-31'),
      }),
    ),
    "A membership's current term, both days inclusive (null for a package). The next term is granted within the first hour of the practice-local day after `ends_on` (`client_plan.renewed`; without `rollover` the ended term's remaining units expire first); a paused membership does not renew.",
    null,
  ),
  expires_on: doc(
    z.nullable(z.string()),
    "The practice-local day a package's units expire (null: never, or a membership): its remaining units expire within that day's first hour and the plan becomes `expired` (`client_plan.expired`); reserved units stay reserved.",
    '2027-12-01',
  ),
  version: doc(Int, 'Grows with every change of status.', 1),
  created_at: Instant('When it was sold.'),
}));

export const ClientPlan = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      ...ClientPlanFields,
      balances: doc(z.array(BalanceOut), 'Units per service.'),
    }),
    { description: 'A plan a client bought, with its balances.', id: 'ClientPlan' },
  ),
);
/** What the client_plan.* events carry: the plan as sold and its status, without the balances (read them with GET). */
export const ClientPlanEvent = /* @__PURE__ */ schema(() =>
  meta(z.object(ClientPlanFields), {
    description: "A client's plan as the client_plan.* events carry it (balances: GET /v1/client-plans/{id}).",
    id: 'ClientPlanEvent',
  }),
);
export type ClientPlan = z.output<typeof ClientPlan>;

export const CancelPlanBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      reason: doc(z.optional(Text(500)), 'Why (at most 500 characters).', 'Moved away'),
      at_term_end: doc(
        z.optional(z.boolean()),
        "A membership stays active, with its units, until its term ends; on the practice-local day after, it is `cancelled` and the term's remaining units expire (`client_plan.cancelled`; default false: now).",
        false,
      ),
    }),
    'Cancelling a client plan.',
  ),
);
export type CancelPlanInput = z.output<typeof CancelPlanBody>;

export const LedgerEntry = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('ledgerEntry', 'The entry id.'),
      client_plan_id: OutId('clientPlan', "The client's plan."),
      service_id: OutId('service', 'The service.'),
      kind: doc(z.enum(LEDGER_KINDS), 'What moved.', 'reserve'),
      quantity: doc(Int, "A positive count, except an adjust's signed delta.", 1),
      appointment_id: z.optional(OutId('appointment', 'The booking it is for (reserve, release, use).')),
      reason: z.optional(doc(z.string(), 'Why (adjustments).', 'Goodwill session')),
      balance_after: doc(
        z.object({
          reserved: doc(Int, 'Units reserved after it.', 1),
          used: doc(Int, 'Units used after it.', 2),
          remaining: doc(Int, 'Units remaining after it.', 3),
        }),
        'The balance right after this entry.',
        { reserved: 1, used: 2, remaining: 3 },
      ),
      created_at: Instant('When it was written.'),
    }),
    { description: 'A unit ledger entry of a client plan.', id: 'PlanLedgerEntry' },
  ),
);
export type LedgerEntry = z.output<typeof LedgerEntry>;

export const CreatePlanAdjustmentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      service_id: IdOf('service', "A service of the plan's benefits (else 422 PLAN_NOT_APPLICABLE)."),
      delta: meta(
        z.number().check(
          z.int(),
          z.gte(-1000),
          z.lte(1000),
          z.refine((delta) => delta !== 0, 'must not be 0'),
        ),
        {
          description:
            'Units added (positive) or taken away (negative), never 0; never below 0 remaining (409 ENTITLEMENT_EXHAUSTED).',
          examples: [1],
          not: { const: 0 },
        },
      ),
      reason: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
        'Why (1-500 characters).',
        'Goodwill session',
      ),
    }),
    'A correction of a balance.',
  ),
);
export type CreatePlanAdjustmentInput = z.output<typeof CreatePlanAdjustmentBody>;

export const ClientPlanParams = /* @__PURE__ */ schema(() =>
  z.object({ id: IdOf('clientPlan', "The client plan's id.") }),
);
export const LedgerQuery = PageQuery;
