import type { LotStatus, StockReason } from '../stock';
import type { ClientContact } from './clients';
import type { PaymentKind, PaymentMethod, Versioned } from './common';

/** Payments, products and their stock ledger. */

/** Immutable once recorded (no updated_at). */
export interface PaymentRecord {
  id: string;
  medspa_id: string;
  client_id: string;
  appointment_id: string | null;
  amount_cents: number;
  currency: string;
  method: PaymentMethod;
  note: string | null;
  /** A deposit raises its appointment's deposit_paid_cents, a fee lowers its due fee (same transaction). */
  kind: PaymentKind;
  /** The processor's id of the charge (e.g. a Stripe PaymentIntent): never card data. */
  reference: string | null;
  version: number;
  created_at: string;
}

/** A product: its public fields but `low_stock`, which is `headroom` (quantity_on_hand - low_stock_threshold) <= 0. */
export interface ProductRecord extends Versioned {
  id: string;
  medspa_id: string;
  name: string;
  sku: string;
  brand: string | null;
  category: string | null;
  price_cents: number;
  cost_cents: number | null;
  quantity_on_hand: number;
  low_stock_threshold: number;
  headroom: number;
  active: boolean;
  /** Stock is held by lot: every adjustment names one, and quantity_on_hand is the sum of the lots'. */
  tracks_lots: boolean;
}

/** A stock ledger entry (never changed once written). */
export interface StockAdjustmentRecord {
  id: string;
  medspa_id: string;
  product_id: string;
  delta: number;
  reason: StockReason;
  unit_price_cents: number | null;
  note: string | null;
  quantity_after: number;
  low_stock_crossed: boolean;
  /** The lot it moved (lot-tracked products). */
  lot_id: string | null;
  /** The appointment whose treatment record moved it (reason `treatment`). */
  appointment_id: string | null;
  created_at: string;
  created_by: string;
}

/** A product crossing to or below its threshold: the stream turns it into `product.low_stock`. */
export interface LowStockCrossingRecord {
  medspa_id: string;
  product_id: string;
  adjustment_id: string;
  quantity_on_hand: number;
  low_stock_threshold: number;
  occurred_at: string;
  /** The product as of the crossing, so the event needs no second read. */
  product: ProductRecord;
}

/** A SKU taken in a practice (case-folded in the key): written in its product's own transaction. */
export interface ProductSkuRecord {
  medspa_id: string;
  /** Case-folded (lib/db/products normalizeSku): what makes it unique. */
  normalized_sku: string;
  product_id: string;
  sku: string;
}

/**
 * A manufacturer's lot of a lot-tracked product: its units move with the product's in one write.
 * The recall fields are set by a recall (status `recalled`), after which no unit of it is used.
 */
export interface LotRecord extends Versioned {
  id: string;
  medspa_id: string;
  product_id: string;
  lot_number: string;
  /** Practice-local YYYY-MM-DD: usable through this date. */
  expires_on: string;
  quantity_on_hand: number;
  status: LotStatus;
  recalled_at: string | null;
  recall_reason: string | null;
  /** The manufacturer's or regulator's notice the recall names (POST /v1/lots/{id}/recall `reference`), else null. */
  recall_reference: string | null;
}

/**
 * One exposed client's notice of a lot's recall (docs/decisions/0027): written once per client by
 * the stream consumer when the lot turns recalled, under a key of the lot and the client, so a
 * retried fan-out finds it there and emits nothing twice. Its insert is `client.lot_exposure`.
 */
export interface LotRecallNoticeRecord {
  medspa_id: string;
  lot_id: string;
  client_id: string;
  /** The lot's `recalled_at`: the event's time. */
  recalled_at: string;
  client: ClientContact;
  lot: { id: string; product_id: string; lot_number: string };
  exposures: { appointment_id: string; treated_at: string; quantity: number }[];
}

/** A lot number taken for a product (normalised in the key): written in its lot's own transaction. */
/** One appointment's exposure to a lot: what its current treatment record took from it (lib/db/keys.ts lotExposureKey). */
export interface LotExposureRecord {
  medspa_id: string;
  lot_id: string;
  product_id: string;
  appointment_id: string;
  client_id: string;
  provider_id: string;
  /** The appointment's start. */
  treated_at: string;
  /** Units taken from the lot, in the product's units (more than 0: an item at 0 is deleted). */
  quantity: number;
}

export interface LotNumberRecord {
  medspa_id: string;
  product_id: string;
  /** lib/domain/stock normalizeLotNumber: what makes it unique. */
  normalized_lot_number: string;
  lot_id: string;
}
