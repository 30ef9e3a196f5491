import * as z from './zod';
import { CHARGE_TYPES, DEPOSIT_TYPES, FEE_KINDS, FEE_STATUSES } from '../domain/deposits';
import { doc, Id, Instant, meta, schema, Text } from './common';

/**
 * Deposits, cancellation policies and fees (API reference, section 11): the shapes shared by
 * services, the practice, appointments and the waive route. Rules live in lib/domain/deposits.ts.
 */

const TWO_DECIMALS = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9;

/** `value` by `type`: fixed is whole minor units (0-100000000), percent 0-100 with at most two decimals. */
const checkedValue = z.check<{ type: string; value: number }>((ctx) => {
  const { type, value } = ctx.value;
  const problem =
    type === 'percent'
      ? value > 100 || !TWO_DECIMALS(value)
        ? 'a percent is 0-100 with at most two decimals'
        : null
      : type === 'fixed'
        ? !Number.isInteger(value) || value > 100_000_000
          ? 'a fixed amount is whole minor units, 0-100000000'
          : null
        : value !== 0
          ? 'no deposit has value 0'
          : null;
  if (problem) ctx.issues.push({ code: 'custom', message: problem, input: value, path: ['value'] });
});

const chargeValue = () =>
  doc(z.number().check(z.gte(0)), 'Minor units (fixed) or a percent of price_cents (percent, rounded half up).', 50);

export const Charge = /* @__PURE__ */ schema(() =>
  meta(
    z
      .strictObject({ type: doc(z.enum(CHARGE_TYPES), 'fixed or percent.', 'percent'), value: chargeValue() })
      .check(checkedValue),
    { description: "A fee: fixed minor units, or a percent of the appointment's price_cents.", id: 'Charge' },
  ),
);

export const Deposit = /* @__PURE__ */ schema(() =>
  meta(
    z
      .strictObject({
        type: doc(z.enum(DEPOSIT_TYPES), 'none, fixed or percent.', 'fixed'),
        value: z._default(chargeValue(), 0),
      })
      .check(checkedValue),
    {
      description:
        'The deposit a booking of the service asks: none, fixed minor units, or a percent of price_cents (rounded half up). Default none.',
      id: 'Deposit',
      examples: [{ type: 'fixed', value: 10000 }],
    },
  ),
);

export const CancellationPolicy = /* @__PURE__ */ schema(() =>
  meta(
    z.strictObject({
      late_cancel_minutes: doc(
        z.number().check(z.int(), z.gte(0), z.lte(10_080)),
        'A cancel less than this many minutes before the start is late (0-10080).',
        1440,
      ),
      late_cancel_fee: Charge,
      no_show_fee: Charge,
    }),
    {
      description:
        'The practice’s cancellation policy, snapshotted on each appointment at booking: a late cancel or a no-show assesses its fee.',
      id: 'CancellationPolicy',
      examples: [
        {
          late_cancel_minutes: 1440,
          late_cancel_fee: { type: 'percent', value: 50 },
          no_show_fee: { type: 'fixed', value: 10000 },
        },
      ],
    },
  ),
);

export const FeeKind = /* @__PURE__ */ schema(() => doc(z.enum(FEE_KINDS), 'late_cancel or no_show.', 'late_cancel'));

export const Fee = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      kind: FeeKind,
      amount_cents: doc(z.number().check(z.int()), 'The fee, minor units.', 20000),
      deposit_applied_cents: doc(z.number().check(z.int()), 'Of the deposit paid, applied to this fee first.', 5000),
      due_cents: doc(
        z.number().check(z.int()),
        'Still due: amount_cents - deposit_applied_cents - fee payments (never below 0; 0 once waived).',
        15000,
      ),
      status: doc(z.enum(FEE_STATUSES), 'due, paid (nothing due) or waived.', 'due'),
      assessed_at: Instant('When the cancel or no-show assessed it.'),
      waived_at: meta(z.nullable(Instant('When it was waived; null unless waived.')), { examples: [null] }),
      waive_reason: doc(z.nullable(z.string()), 'Why it was waived; null unless waived.', null),
    }),
    { description: 'A late-cancel or no-show fee assessed on an appointment.', id: 'Fee' },
  ),
);

export const WaiveFeeBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      reason: doc(Text(1000).check(z.minLength(1)), 'Why the fee is waived (1-1000 characters).', 'Family emergency'),
    }),
    'Why the fee is waived. Only a fee still due can be waived: one already paid, already waived or never assessed is 409 INVALID_STATUS_TRANSITION. A fee payment racing the waiver: exactly one takes effect, the other is refused (the payment 400 VALIDATION_ERROR at amount_cents, the waiver 409 INVALID_STATUS_TRANSITION).',
  ),
);

export const WaiveFeeParams = /* @__PURE__ */ schema(() => z.object({ id: Id, kind: FeeKind }));
