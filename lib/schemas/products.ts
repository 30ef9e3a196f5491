import * as z from './zod';
import { LOT_STATUSES, PUBLIC_STOCK_REASONS, STOCK_REASONS } from '../domain/stock';
import { doc, IdOf, Instant, LocalDate, meta, OutId, PageQuery, schema, Text, Timestamps } from './common';

/** Retail products and their stock ledger (API reference, other resources). */

const Cents = /* @__PURE__ */ schema(() => z.number().check(z.int(), z.gte(0), z.lte(100_000_000)));
const Count = /* @__PURE__ */ schema(() => z.number().check(z.int(), z.gte(0), z.lte(1_000_000)));

/** Unique per practice, compared case-insensitively (`ab-1` and `AB-1` are the same SKU). */
export const Sku = /* @__PURE__ */ schema(() =>
  doc(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1),
        z.maxLength(64),
        z.regex(
          /^[\p{L}\p{N}][\p{L}\p{N} ._\-/#]*$/u,
          'letters, digits, spaces and . _ - / #, starting with a letter or digit',
        ),
      ),
    'Stock keeping unit, unique per practice (case-insensitive): letters, digits, spaces and . _ - / #.',
    'GL-SER-HA30',
  ),
);

const ProductShape = /* @__PURE__ */ schema(() => ({
  name: doc(
    z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    'Name (1-200 characters).',
    'Hydrating Hyaluronic Serum',
  ),
  sku: Sku,
  brand: doc(z.nullable(Text(200).check(z.minLength(1))), 'Brand.', 'SkinCeuticals'),
  category: doc(z.nullable(Text(100).check(z.minLength(1))), 'Category, for `?category=`.', 'skincare'),
  price_cents: doc(Cents, "Retail price in the practice's currency, minor units.", 10200),
  cost_cents: doc(z.nullable(Cents), 'Unit cost, minor units.', 5100),
  low_stock_threshold: doc(Count, 'Low stock means quantity_on_hand <= low_stock_threshold (0-1000000).', 6),
  active: doc(z.boolean(), 'Whether it is sold.', true),
}));

export const CreateProductBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      ...ProductShape,
      brand: z.optional(ProductShape.brand),
      category: z.optional(ProductShape.category),
      cost_cents: z.optional(ProductShape.cost_cents),
      quantity_on_hand: doc(
        z._default(Count, 0),
        'The opening stock (0-1000000); afterwards it changes only through stock adjustments.',
        24,
      ),
      low_stock_threshold: doc(
        z._default(ProductShape.low_stock_threshold, 0),
        'Low stock means quantity_on_hand <= low_stock_threshold (default 0).',
        6,
      ),
      active: doc(z._default(ProductShape.active, true), 'Whether it is sold (default true).', true),
      tracks_lots: doc(
        z._default(z.boolean(), false),
        "Hold stock by manufacturer lot (default false; set at creation only). A lot-tracked product starts at quantity_on_hand 0: stock comes in by lot (`received` adjustments naming `lot_id`), and its quantity_on_hand is always the sum of its lots'.",
        false,
      ),
    }),
    'A retail product.',
  ),
);
/** `tracks_lots` may be left out by callers below HTTP (the schema defaults it to false). */
export type CreateProductInput = Omit<z.output<typeof CreateProductBody>, 'tracks_lots'> & { tracks_lots?: boolean };

const QUANTITY_VIA_ADJUSTMENTS =
  'quantity_on_hand changes only through stock adjustments: POST /v1/products/{id}/stock-adjustments';

const TRACKS_LOTS_AT_CREATION = 'tracks_lots is set when the product is created and never changes';

/** Any subset of the fields; `quantity_on_hand` is refused with a pointer to the ledger. */
export const UpdateProductBody = /* @__PURE__ */ schema(() =>
  doc(
    z.partial(
      z.strictObject({
        ...ProductShape,
        quantity_on_hand: doc(z.never({ error: QUANTITY_VIA_ADJUSTMENTS }), `Refused: ${QUANTITY_VIA_ADJUSTMENTS}.`),
        // Turning lots on or off would split the stock from its lots' sum.
        tracks_lots: doc(z.never({ error: TRACKS_LOTS_AT_CREATION }), `Refused: ${TRACKS_LOTS_AT_CREATION}.`),
      }),
    ),
    'Any subset of the fields but quantity_on_hand and tracks_lots.',
  ),
);
export type UpdateProductInput = Omit<z.output<typeof UpdateProductBody>, 'quantity_on_hand' | 'tracks_lots'>;

export const Product = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('product', 'The product id.'),
      medspa_id: OutId('practice', 'The practice it belongs to.'),
      name: doc(z.string(), 'Name.', 'Hydrating Hyaluronic Serum'),
      sku: doc(z.string(), 'Stock keeping unit (unique per practice, case-insensitive).', 'GL-SER-HA30'),
      brand: doc(z.nullable(z.string()), 'Brand.', 'SkinCeuticals'),
      category: doc(z.nullable(z.string()), 'Category.', 'skincare'),
      price_cents: doc(z.number().check(z.int()), 'Retail price, minor units.', 10200),
      cost_cents: doc(z.nullable(z.number().check(z.int())), 'Unit cost, minor units.', 5100),
      quantity_on_hand: doc(
        z.number().check(z.int()),
        'Units in stock (never below 0; changed by stock adjustments only).',
        24,
      ),
      low_stock_threshold: doc(z.number().check(z.int()), 'Low stock at or below this quantity.', 6),
      low_stock: doc(z.boolean(), 'quantity_on_hand <= low_stock_threshold (read-only).', false),
      active: doc(z.boolean(), 'Whether it is sold.', true),
      tracks_lots: doc(
        z.boolean(),
        "Stock is held by lot: every stock adjustment names `lot_id`, and quantity_on_hand is the sum of the lots' (set at creation only).",
        false,
      ),
      ...Timestamps,
    }),
    { description: 'A retail product and its stock.', id: 'Product' },
  ),
);
export type Product = z.output<typeof Product>;

const BooleanQuery = /* @__PURE__ */ schema(() =>
  z.pipe(
    z.enum(['true', 'false']),
    z.transform((value) => value === 'true'),
  ),
);

export const ProductListQuery = /* @__PURE__ */ schema(() =>
  z.extend(PageQuery, {
    category: doc(
      z.optional(z.string().check(z.maxLength(100))),
      'Only products of this category (exact).',
      'skincare',
    ),
    low_stock: doc(
      z.optional(BooleanQuery),
      'true: only products at or below their threshold (an index); false: only those above it.',
      'true',
    ),
  }),
);
export type ProductListQuery = z.output<typeof ProductListQuery>;

export const StockReason = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(STOCK_REASONS),
    'Why stock changed: sale and damaged take stock out, received and return put it in, correction either way; treatment is a treatment record taking stock (or giving it back when the record is replaced or amended), with its appointment_id.',
    'sale',
  ),
);

/** What the public route takes: `treatment` is written only by treatment records. */
const PublicStockReason = /* @__PURE__ */ schema(() =>
  doc(
    z.enum(PUBLIC_STOCK_REASONS, {
      error: (issue) =>
        issue.input === 'treatment'
          ? "'treatment' is written only by treatment records (PUT /v1/appointments/{id}/treatment-record)"
          : `expected one of ${PUBLIC_STOCK_REASONS.join(', ')}`,
    }),
    'Why stock changed: sale and damaged take stock out, received and return put it in, correction either way. (`treatment` is written only by treatment records: 400 here.)',
    'sale',
  ),
);

const LotId = /* @__PURE__ */ schema(() =>
  IdOf(
    'lot',
    "The lot moved: required for a lot-tracked product (400 without it), refused for any other. The lot's quantity moves with the product's in the same write; a sale of a recalled lot is 409 LOT_RECALLED, of a lot expired before the practice's today 409 LOT_EXPIRED; an unknown lot or one of another product 404 LOT_NOT_FOUND.",
  ),
);

export const CreateStockAdjustmentBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      delta: meta(
        z.number().check(
          z.int(),
          z.gte(-1_000_000),
          z.lte(1_000_000),
          z.refine((delta) => delta !== 0, 'must not be 0'),
        ),
        {
          description:
            'Units in (positive) or out (negative), never 0: sale and damaged are negative, received and return positive, correction either. Stock never goes below 0 (409 INSUFFICIENT_STOCK).',
          examples: [-2],
          not: { const: 0 },
        },
      ),
      reason: PublicStockReason,
      lot_id: z.optional(LotId),
      unit_price_cents: doc(
        z.optional(Cents),
        "Unit price, minor units. Defaults to the product's price for sales (retail revenue).",
        10200,
      ),
      note: doc(z.optional(Text(1000)), 'A note (at most 1000 characters).', 'Sold after HydraFacial'),
    }),
    'A stock change.',
  ),
);
export type CreateStockAdjustmentInput = z.output<typeof CreateStockAdjustmentBody>;

export const StockAdjustment = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('adjustment', 'The adjustment id.'),
      product_id: OutId('product', 'The product.'),
      delta: doc(z.number().check(z.int()), 'Units in (positive) or out (negative).', -2),
      reason: StockReason,
      unit_price_cents: doc(z.nullable(z.number().check(z.int())), 'Unit price, minor units (sales).', 10200),
      note: doc(z.nullable(z.string()), 'A note.', 'Sold after HydraFacial'),
      quantity_after: doc(
        z.number().check(z.int()),
        "quantity_on_hand after this adjustment, from the product state its write was conditioned on. Adjustments of one product never wait on each other, so when several commit at the same moment this figure may not count the others; the product's own quantity_on_hand is always exact.",
        22,
      ),
      low_stock_crossed: doc(
        z.boolean(),
        'This adjustment took the product from above its threshold to at or below it.',
        false,
      ),
      lot_id: doc(
        z.nullable(z.string()),
        'The lot it moved (lot-tracked products), else null.',
        '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d19',
      ),
      appointment_id: doc(
        z.nullable(z.string()),
        'The appointment whose treatment record moved it (reason treatment), else null.',
        null,
      ),
      created_at: Instant('When it was made.'),
      created_by: doc(z.string(), 'The API credential (client_id) that made it.', 'ms_3f2b8c1e_frontdesk_q8w3e5'),
    }),
    { description: 'A stock ledger entry.', id: 'StockAdjustment' },
  ),
);
export type StockAdjustment = z.output<typeof StockAdjustment>;

export const StockLedgerQuery = PageQuery;

// ---- Lots (API reference, clinical records: lots) ------------------------------------------------

export const LotNumber = /* @__PURE__ */ schema(() =>
  doc(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1),
        z.maxLength(64),
        z.regex(
          /^[\p{L}\p{N}][\p{L}\p{N} ._\-/#]*$/u,
          'letters, digits, spaces and . _ - / #, starting with a letter or digit',
        ),
      ),
    "The manufacturer's lot number, unique per product (compared case-insensitively: 409 LOT_EXISTS).",
    'C1234A5',
  ),
);

export const CreateLotBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      lot_number: LotNumber,
      expires_on: doc(
        LocalDate,
        'Last day of use, practice-local (a date in the past is allowed, for the record; such a lot is refused for sales and treatments).',
        '2027-06-30',
      ),
    }),
    'A new lot of a lot-tracked product, with no units yet: stock comes in through a `received` adjustment naming it.',
  ),
);
export type CreateLotInput = z.output<typeof CreateLotBody>;

export const Lot = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('lot', 'The lot id.'),
      product_id: OutId('product', 'The product.'),
      lot_number: doc(z.string(), "The manufacturer's lot number.", 'C1234A5'),
      expires_on: doc(z.string(), 'Last day of use (practice-local YYYY-MM-DD).', '2027-06-30'),
      quantity_on_hand: doc(
        z.number().check(z.int()),
        "Units of this lot in stock (never below 0); the product's quantity_on_hand is the sum of its lots'.",
        12,
      ),
      status: doc(z.enum(LOT_STATUSES), 'active, or recalled (no further sale or use: 409 LOT_RECALLED).', 'active'),
      recalled_at: doc(z.nullable(z.string()), 'When it was recalled (UTC), else null.', null),
      recall_reason: doc(z.nullable(z.string()), 'Why it was recalled, else null.', null),
      recall_reference: doc(
        z.nullable(z.string()),
        "The manufacturer's or regulator's notice the recall names, else null.",
        null,
      ),
      ...Timestamps,
    }),
    { description: "A manufacturer's lot of a lot-tracked product.", id: 'Lot' },
  ),
);
export type Lot = z.output<typeof Lot>;

export const LotListQuery = PageQuery;

// ---- Exposures and recall (API reference, clinical records: recall) ------------------------------

export const LotExposureQuery = PageQuery;

export const RecallLotBody = /* @__PURE__ */ schema(() =>
  doc(
    z.strictObject({
      reason: doc(
        Text(1000).check(z.minLength(1)),
        'Why the lot is recalled (at most 1000 characters).',
        'Manufacturer recall notice: possible contamination',
      ),
      reference: doc(
        z.optional(Text(200).check(z.minLength(1))),
        "The manufacturer's or regulator's notice number, if any (at most 200 characters).",
        'FSN-2026-0417',
      ),
    }),
    'A recall: the lot is refused for every further sale and use, and each exposed client is named in a `client.lot_exposure` event.',
  ),
);
export type RecallLotInput = z.output<typeof RecallLotBody>;

/** A client as a recall names them: as stored (a deleted client shows anonymised). */
export const ExposedClient = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      id: OutId('client', 'The client.'),
      first_name: doc(z.string(), 'First name.', 'Ava'),
      last_name: doc(z.string(), 'Last name.', 'Martinez'),
      email: doc(z.nullable(z.string()), 'Email, if any.', 'ava.martinez@example.com'),
      phone: doc(z.nullable(z.string()), 'Phone, if any.', '+15551234567'),
    }),
    { description: 'An exposed client and how to reach them.', id: 'ExposedClient' },
  ),
);

export const LotExposure = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      client: ExposedClient,
      appointment_id: OutId('appointment', 'The appointment whose treatment record took from the lot.'),
      treated_at: Instant('When the treatment was (the appointment start, UTC).', '2026-12-01T15:00:00.000Z'),
      provider_id: OutId('provider', 'Who treated.'),
      quantity: doc(z.number(), "Units taken from the lot, in the product's units (the current record's).", 20),
    }),
    {
      description:
        'One treatment record (signed or not, an amended one by its current version) that took from the lot.',
      id: 'LotExposure',
    },
  ),
);
export type LotExposure = z.output<typeof LotExposure>;

/** `client.lot_exposure`'s object: one exposed client, the lot, and every exposure of theirs to it. */
export const ClientLotExposure = /* @__PURE__ */ schema(() =>
  meta(
    z.object({
      client: ExposedClient,
      lot: meta(
        z.object({
          id: OutId('lot', 'The recalled lot.'),
          product_id: OutId('product', 'Its product.'),
          lot_number: doc(z.string(), "The manufacturer's lot number.", 'C1234A5'),
        }),
        { description: 'The recalled lot.' },
      ),
      exposures: doc(
        z.array(
          z.object({
            appointment_id: OutId('appointment', 'The appointment.'),
            treated_at: Instant('When (the appointment start, UTC).', '2026-12-01T15:00:00.000Z'),
            quantity: doc(z.number(), 'Units taken from the lot.', 20),
          }),
        ),
        "The client's treatments that took from the lot, oldest first.",
      ),
    }),
    { description: 'A client exposed to a recalled lot.', id: 'ClientLotExposure' },
  ),
);
