import * as z from './zod';
import { INJECTION_SITES, MAX_STOCK_LINES, RECORD_STATUSES } from '../domain/treatment-records';
import { doc, IdOf, Instant, meta, OutId, schema, Text, Timestamps } from './common';

/**
 * Treatment records (API reference, appointments and clinical records): the PUT body (backward
 * compatible: free-text items stay as they were), the record with its sign-and-lock state, an
 * amendment, the revisions.
 */

export const InjectionSite = /* @__PURE__ */ schema(() =>
  meta(z.enum(INJECTION_SITES), {
    id: 'InjectionSite',
    description:
      "The published list of injection sites (left and right are the client's). `other` with a note in `notes` for anything else.",
    examples: ['glabella'],
  }),
);

const InjectionPoint = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      site: InjectionSite,
      units: doc(
        z.number().check(z.gt(0), z.lte(10_000)),
        'Amount injected at the site (toxin units or mL, as charted).',
        4,
      ),
      depth: doc(z.optional(Text(50)), 'Depth or plane, free text.', 'intramuscular'),
    }),
    'One injection point.',
  ),
);

const productUseFields = () => ({
  quantity: doc(
    z.optional(z.number().check(z.gte(0.0001), z.lte(1_000_000))),
    "Amount used. With `product_id`: required, a whole number of the product's stock units, taken from stock (and from `lot_id`) in the same write as the record.",
    1,
  ),
  unit: doc(z.optional(z.string().check(z.maxLength(50))), 'Unit of `quantity`, for the reader.', 'vial'),
  lot_number: doc(
    z.optional(z.string().check(z.maxLength(100))),
    "Manufacturer lot, free text (with `lot_id`, the lot's own number is shown).",
    'C1234A5',
  ),
  injection_points: doc(
    z.optional(z.array(InjectionPoint).check(z.maxLength(100))),
    'Where it was injected (at most 100 points).',
    [{ site: 'glabella', units: 20, depth: 'intramuscular' }],
  ),
});

/** A product used, as the PUT takes it: free text (`name`), or a catalog product taking stock. */
const ProductUsedInput = /* @__PURE__ */ schema(() =>
  doc(
    z
      .strictObject({
        name: doc(
          z.optional(z.string().check(z.maxLength(200))),
          "Product name: required for a free-text item; with `product_id`, optional (the product's).",
          'Botox Cosmetic 100U',
        ),
        product_id: doc(
          z.optional(IdOf('product', 'A product of the catalog (else 404 PRODUCT_NOT_FOUND): its stock is taken.')),
          'The product used: `quantity` of it is taken from stock.',
        ),
        lot_id: doc(
          z.optional(IdOf('lot', 'The lot used (else 404 LOT_NOT_FOUND).')),
          'Required for a lot-tracked product (400 without it), not allowed for another.',
        ),
        ...productUseFields(),
      })
      .check(
        z.superRefine((item, context) => {
          if (item.product_id === undefined) {
            if (item.name === undefined)
              context.addIssue({ code: 'custom', path: ['name'], message: 'is required without product_id' });
            if (item.lot_id !== undefined)
              context.addIssue({ code: 'custom', path: ['lot_id'], message: 'is allowed only with product_id' });
            return;
          }
          if (item.quantity === undefined || !Number.isInteger(item.quantity))
            context.addIssue({
              code: 'custom',
              path: ['quantity'],
              message: "is required with product_id: a whole number of the product's units",
            });
        }),
      ),
    'A product used: `name` alone is free text; `product_id` (with `lot_id` for a lot-tracked product) and `quantity` take stock.',
  ),
);

const textFields = () => ({
  summary: doc(
    z.optional(z.string().check(z.maxLength(5000))),
    'What was done, in a sentence or two.',
    'Botox, glabella and forehead lines.',
  ),
  notes: doc(
    z.optional(z.string().check(z.maxLength(20000))),
    'Clinical notes.',
    'No adverse reaction; mild erythema resolved in 10 minutes.',
  ),
  areas_treated: doc(
    z.optional(z.array(doc(z.string().check(z.maxLength(200)), 'An area.', 'glabella')).check(z.maxLength(50))),
    'Areas treated (at most 50).',
    ['glabella', 'forehead'],
  ),
  dosage: doc(z.optional(z.string().check(z.maxLength(1000))), 'Dosage given.', '20 units'),
  follow_up: doc(z.optional(z.string().check(z.maxLength(2000))), 'Follow-up advice or plan.', 'Review in 2 weeks.'),
});

const stockLineCount = (items: readonly { product_id?: string; lot_id?: string }[]) =>
  new Set(items.filter((item) => item.product_id).map((item) => `${item.product_id}|${item.lot_id ?? ''}`)).size;

export const TreatmentRecordBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      ...textFields(),
      products_used: doc(
        z.optional(
          z.array(ProductUsedInput).check(
            z.maxLength(50),
            z.refine((items) => stockLineCount(items) <= MAX_STOCK_LINES, {
              message: `at most ${MAX_STOCK_LINES} distinct product and lot pairs may take stock in one record`,
            }),
          ),
        ),
        `Products used (at most 50; at most ${MAX_STOCK_LINES} distinct product/lot pairs taking stock).`,
      ),
    }),
    'The treatment record (clinical documentation); a PUT replaces it whole, and moves stock by the difference from the record it replaces.',
  ),
);
export type TreatmentRecordInput = z.infer<typeof TreatmentRecordBody>;

const ProductUsed = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      name: doc(
        z.string(),
        "Product name (the product's, when the body named only `product_id`).",
        'Botox Cosmetic 100U',
      ),
      product_id: doc(z.optional(OutId('product', 'The product taken from stock.')), 'The product taken from stock.'),
      lot_id: doc(z.optional(OutId('lot', 'The lot taken from.')), 'The lot taken from.'),
      ...productUseFields(),
    }),
    'A product used.',
  ),
);

export const TreatmentRecord = /* @__PURE__ */ schema(() =>
  meta(
    z.strictObject({
      ...textFields(),
      products_used: doc(z.optional(z.array(ProductUsed)), 'Products used.'),
      appointment_id: OutId('appointment', 'The appointment it documents.'),
      client_id: OutId('client', 'The client treated.'),
      provider_id: OutId('provider', 'The provider who treated.'),
      recorded_by: doc(z.string(), 'The API credential (client_id) that wrote it.', 'ms_3f2b8c1e_provider_k2j4'),
      status: doc(
        z.enum(RECORD_STATUSES),
        '`draft` until signed; a signed record is read-only (PUT: 409 RECORD_LOCKED) and changes only by amendment.',
        'signed',
      ),
      signed_at: doc(
        z.nullable(Instant('When this revision was signed.')),
        'When this revision was signed, else null.',
      ),
      signed_by: doc(
        z.nullable(z.string()),
        'The credential (client_id) that signed this revision, else null.',
        'ms_3f2b8c1e_provider_k2j4',
      ),
      revision: doc(
        z.nullable(z.number().check(z.int())),
        '1 for the signed original, n + 1 for each amendment; null for a draft.',
        1,
      ),
      amendment_reason: doc(z.nullable(z.string()), 'Why this revision amended the one before, else null.', null),
      ...Timestamps,
    }),
    { description: 'The treatment record of an appointment.', id: 'TreatmentRecord' },
  ),
);
export type TreatmentRecord = z.infer<typeof TreatmentRecord>;

export const AmendmentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      reason: doc(
        z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)),
        'Why the signed record is amended.',
        'Corrected the lot: 2 units came from lot C1234A6.',
      ),
      record: TreatmentRecordBody,
    }),
    'An amendment: the record as it should read now (replacing the current revision whole), and why. Stock moves by the difference.',
  ),
);
export type AmendmentInput = z.infer<typeof AmendmentBody>;

/** What a record change that takes stock can refuse (beyond its appointment's 404). */
export const RECORD_STOCK_ERRORS = [
  'PRODUCT_NOT_FOUND',
  'LOT_NOT_FOUND',
  'LOT_EXPIRED',
  'LOT_RECALLED',
  'INSUFFICIENT_STOCK',
  'VERSION_CONFLICT',
] as const;
/** A record change's one transaction: the record, its stock moves (lib/db/stock-moves.ts) and the lot exposure items. */
export const RECORD_STOCK_WRITES = {
  appointments: ['put'],
  lots: ['update'],
  lowStockEvents: ['put'],
  products: ['update'],
  stockLedger: ['put'],
  lotExposures: ['put', 'delete'],
} as const;
/** The appointment's partition, the practice (its time zone: lot expiry), the products and lots named. */
export const RECORD_STOCK_READS = ['appointments', 'practice', 'products', 'lots'] as const;
