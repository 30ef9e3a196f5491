import { ALLOW } from '../auth/roles';
import { defineRoutes, route, list } from '../http/route';
import * as p from '../schemas/products';
import { ResourceParams } from '../schemas/resources';

export const listProducts = /* @__PURE__ */ route('listProducts', () => ({
  method: 'GET',
  path: '/v1/products',
  group: 'products',
  summary: 'List products (`?low_stock=true`: at or below their threshold; `?category=`)',
  auth: ALLOW.inventoryRead,
  query: p.ProductListQuery,
  response: list(p.Product),
  reads: ['lowStock', 'products'],
}));

export const createProduct = /* @__PURE__ */ route('createProduct', () => ({
  method: 'POST',
  path: '/v1/products',
  group: 'products',
  summary: 'Create a product (SKU unique per practice, case-insensitive: else 409 CONFLICT)',
  auth: ALLOW.catalogWrite,
  body: p.CreateProductBody,
  response: p.Product,
  errors: ['CONFLICT'],
  writes: { products: ['put'], skus: ['put'] },
  reads: [],
}));

export const getProduct = /* @__PURE__ */ route('getProduct', () => ({
  method: 'GET',
  path: '/v1/products/{id}',
  group: 'products',
  summary: 'Get a product',
  auth: ALLOW.inventoryRead,
  params: ResourceParams,
  response: p.Product,
  errors: ['PRODUCT_NOT_FOUND'],
  reads: ['products'],
}));

export const updateProduct = /* @__PURE__ */ route('updateProduct', () => ({
  method: 'PATCH',
  path: '/v1/products/{id}',
  group: 'products',
  summary: 'Change a product (quantity_on_hand only through stock adjustments)',
  auth: ALLOW.catalogWrite,
  params: ResourceParams,
  body: p.UpdateProductBody,
  response: p.Product,
  errors: ['PRODUCT_NOT_FOUND', 'CONFLICT'],
  writes: { products: ['update'], skus: ['delete', 'put'] },
  reads: ['products'],
}));

// The front desk records sales only; the use case refuses its other reasons with 403.
export const createStockAdjustment = /* @__PURE__ */ route('createStockAdjustment', () => ({
  method: 'POST',
  path: '/v1/products/{id}/stock-adjustments',
  group: 'products',
  summary:
    "Change stock atomically (never below zero: 409 INSUFFICIENT_STOCK); a lot-tracked product's adjustment names lot_id and moves the lot in the same write",
  auth: ALLOW.frontOffice,
  params: ResourceParams,
  body: p.CreateStockAdjustmentBody,
  response: p.StockAdjustment,
  errors: ['PRODUCT_NOT_FOUND', 'LOT_NOT_FOUND', 'INSUFFICIENT_STOCK', 'LOT_RECALLED', 'LOT_EXPIRED'],
  writes: { lots: ['update'], lowStockEvents: ['put'], products: ['update'], stockLedger: ['put'] },
  // The practice: its time zone, for a sale's lot expiry (today, practice-local).
  reads: ['practice', 'products'],
}));

export const listStockAdjustments = /* @__PURE__ */ route('listStockAdjustments', () => ({
  method: 'GET',
  path: '/v1/products/{id}/stock-adjustments',
  group: 'products',
  summary: 'The stock ledger of a product, newest first',
  auth: ALLOW.inventoryRead,
  params: ResourceParams,
  query: p.StockLedgerQuery,
  response: list(p.StockAdjustment),
  errors: ['PRODUCT_NOT_FOUND'],
  reads: ['products', 'stockLedger'],
}));

export const createLot = /* @__PURE__ */ route('createLot', () => ({
  method: 'POST',
  path: '/v1/products/{id}/lots',
  group: 'products',
  summary:
    'Create a lot of a lot-tracked product, with no units yet (lot_number unique per product, case-insensitive: else 409 LOT_EXISTS)',
  auth: ALLOW.catalogWrite,
  params: ResourceParams,
  body: p.CreateLotBody,
  response: p.Lot,
  errors: ['PRODUCT_NOT_FOUND', 'LOT_EXISTS', 'CONFLICT'],
  writes: { lots: ['put'], lotNumbers: ['put'] },
  reads: ['products'],
}));

export const listLots = /* @__PURE__ */ route('listLots', () => ({
  method: 'GET',
  path: '/v1/products/{id}/lots',
  group: 'products',
  summary: "A product's lots, first to expire first",
  // Providers too: they name the lot a treatment took from (API reference, clinical records).
  auth: ALLOW.readAll,
  params: ResourceParams,
  query: p.LotListQuery,
  response: list(p.Lot),
  errors: ['PRODUCT_NOT_FOUND'],
  reads: ['products', 'productLots'],
}));

export const getLot = /* @__PURE__ */ route('getLot', () => ({
  method: 'GET',
  path: '/v1/lots/{id}',
  group: 'products',
  summary: 'Get a lot',
  auth: ALLOW.readAll,
  params: ResourceParams,
  response: p.Lot,
  errors: ['LOT_NOT_FOUND'],
  reads: ['lots'],
}));

export const listLotExposures = /* @__PURE__ */ route('listLotExposures', () => ({
  method: 'GET',
  path: '/v1/lots/{id}/exposures',
  group: 'products',
  summary:
    'Who was exposed to a lot: every treatment record that took from it (signed or not, an amended one by its current version), by appointment; audited',
  auth: ALLOW.treatmentRecords,
  auditReads: true,
  params: ResourceParams,
  query: p.LotExposureQuery,
  response: list(p.LotExposure),
  errors: ['LOT_NOT_FOUND'],
  reads: ['lots', 'lotExposures', 'clients'],
}));

export const recallLot = /* @__PURE__ */ route('recallLot', () => ({
  method: 'POST',
  path: '/v1/lots/{id}/recall',
  group: 'products',
  summary:
    'Recall a lot: no further sale or use (409 LOT_RECALLED), `lot.recalled` once and `client.lot_exposure` per exposed client; recalling again is 409 LOT_RECALLED',
  auth: ALLOW.catalogWrite,
  params: ResourceParams,
  body: p.RecallLotBody,
  response: p.Lot,
  successStatus: 200,
  // CONFLICT: stock kept moving the lot through every attempt.
  errors: ['LOT_NOT_FOUND', 'LOT_RECALLED', 'CONFLICT'],
  writes: { lots: ['update'] },
  reads: ['lots'],
}));

/** Retail products and stock (API reference, other resources). Products are deactivated (`active: false`), never deleted. */
export const productRoutes = /* @__PURE__ */ defineRoutes({
  listProducts,
  createProduct,
  getProduct,
  updateProduct,
  createStockAdjustment,
  listStockAdjustments,
  createLot,
  listLots,
  getLot,
  listLotExposures,
  recallLot,
});
