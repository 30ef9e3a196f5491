import * as z from 'zod';
import { STOCK_REASONS } from '../domain/stock';
import { PageQuery, Timestamps } from './common';

/** Retail products and their stock ledger (contract 5). */

const Cents = z.number().int().min(0).max(100_000_000);
const Count = z.number().int().min(0).max(1_000_000);
const Text = (max: number) => z.string().trim().max(max);

/** Unique per practice, compared case-insensitively (`ab-1` and `AB-1` are the same SKU). */
export const Sku = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._\-/#]*$/u, 'letters, digits, spaces and . _ - / #, starting with a letter or digit');

const ProductShape = {
  name: z.string().trim().min(1).max(200),
  sku: Sku,
  brand: Text(200).min(1).nullable(),
  category: Text(100).min(1).nullable(),
  price_cents: Cents,
  cost_cents: Cents.nullable(),
  low_stock_threshold: Count.describe('Low stock means quantity_on_hand <= low_stock_threshold.'),
  active: z.boolean(),
};

export const CreateProductBody = z
  .object({
    ...ProductShape,
    brand: ProductShape.brand.optional(),
    category: ProductShape.category.optional(),
    cost_cents: ProductShape.cost_cents.optional(),
    quantity_on_hand: Count.default(0).describe('The opening stock; afterwards it changes only through stock adjustments.'),
    low_stock_threshold: ProductShape.low_stock_threshold.default(0),
    active: ProductShape.active.default(true),
  })
  .strict();
export type CreateProductInput = z.output<typeof CreateProductBody>;

const QUANTITY_VIA_ADJUSTMENTS = 'quantity_on_hand changes only through stock adjustments: POST /v1/products/{id}/stock-adjustments';

/** Any subset of the fields; `quantity_on_hand` is refused with a pointer to the ledger. */
export const UpdateProductBody = z
  .object({ ...ProductShape, quantity_on_hand: z.never({ error: QUANTITY_VIA_ADJUSTMENTS }) })
  .partial()
  .strict();
export type UpdateProductInput = Omit<z.output<typeof UpdateProductBody>, 'quantity_on_hand'>;

export const Product = z.object({
  id: z.string(),
  medspa_id: z.string(),
  name: z.string(),
  sku: z.string(),
  brand: z.string().nullable(),
  category: z.string().nullable(),
  price_cents: z.number().int(),
  cost_cents: z.number().int().nullable(),
  quantity_on_hand: z.number().int(),
  low_stock_threshold: z.number().int(),
  low_stock: z.boolean().describe('quantity_on_hand <= low_stock_threshold (read-only)'),
  active: z.boolean(),
  ...Timestamps,
});
export type Product = z.output<typeof Product>;

const BooleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

export const ProductListQuery = PageQuery.extend({
  category: z.string().max(100).optional(),
  low_stock: BooleanQuery.optional().describe('true: only products at or below their threshold (an index); false: only those above it'),
});
export type ProductListQuery = z.output<typeof ProductListQuery>;

export const StockReason = z.enum(STOCK_REASONS);

export const CreateStockAdjustmentBody = z
  .object({
    delta: z
      .number()
      .int()
      .min(-1_000_000)
      .max(1_000_000)
      .refine((delta) => delta !== 0, 'must not be 0')
      .describe('Units in (positive) or out (negative): sale and damaged are negative, received and return positive, correction either.'),
    reason: StockReason,
    unit_price_cents: Cents.optional().describe("Defaults to the product's price for sales (retail revenue)."),
    note: Text(1000).optional(),
  })
  .strict();
export type CreateStockAdjustmentInput = z.output<typeof CreateStockAdjustmentBody>;

export const StockAdjustment = z.object({
  id: z.string(),
  product_id: z.string(),
  delta: z.number().int(),
  reason: StockReason,
  unit_price_cents: z.number().int().nullable(),
  note: z.string().nullable(),
  quantity_after: z
    .number()
    .int()
    .describe(
      "quantity_on_hand after this adjustment, from the product state its write was conditioned on. Adjustments of one product never wait on each other, so when several commit at the same moment this figure may not count the others; the product's own quantity_on_hand is always exact.",
    ),
  low_stock_crossed: z.boolean().describe('This adjustment took the product from above its threshold to at or below it.'),
  created_at: z.string(),
  created_by: z.string().describe('The API credential (client_id) that made it.'),
});
export type StockAdjustment = z.output<typeof StockAdjustment>;

export const StockLedgerQuery = PageQuery;
