import { ALLOW } from '../auth/roles';
import { defineRoutes, list } from '../http/route';
import * as p from '../schemas/products';
import { ResourceParams } from '../schemas/resources';

/** Retail products and stock (API reference, other resources). Products are deactivated (`active: false`), never deleted. */
export const productRoutes = defineRoutes({
  listProducts: {
    method: 'GET', path: '/v1/products', group: 'products', summary: 'List products (`?low_stock=true`: at or below their threshold; `?category=`)',
    auth: ALLOW.inventoryRead, query: p.ProductListQuery, response: list(p.Product),
  },
  createProduct: {
    method: 'POST', path: '/v1/products', group: 'products', summary: 'Create a product (SKU unique per practice, case-insensitive: else 409 CONFLICT)',
    auth: ALLOW.catalogWrite, body: p.CreateProductBody, response: p.Product,
    errors: ['CONFLICT'],
    writes: { products: ['put'], skus: ['put'] },
  },
  getProduct: {
    method: 'GET', path: '/v1/products/{id}', group: 'products', summary: 'Get a product',
    auth: ALLOW.inventoryRead, params: ResourceParams, response: p.Product,
    errors: ['PRODUCT_NOT_FOUND'],
  },
  updateProduct: {
    method: 'PATCH', path: '/v1/products/{id}', group: 'products', summary: 'Change a product (quantity_on_hand only through stock adjustments)',
    auth: ALLOW.catalogWrite, params: ResourceParams, body: p.UpdateProductBody, response: p.Product,
    errors: ['PRODUCT_NOT_FOUND', 'CONFLICT'],
    writes: { products: ['update'], skus: ['delete', 'put'] },
  },
  // The front desk records sales only; the use case refuses its other reasons with 403.
  createStockAdjustment: {
    method: 'POST', path: '/v1/products/{id}/stock-adjustments', group: 'products', summary: 'Change stock atomically (never below zero: 409 INSUFFICIENT_STOCK)',
    auth: ALLOW.frontOffice, params: ResourceParams, body: p.CreateStockAdjustmentBody, response: p.StockAdjustment,
    errors: ['PRODUCT_NOT_FOUND', 'INSUFFICIENT_STOCK'],
    writes: { lowStockEvents: ['put'], products: ['update'], stockLedger: ['put'] },
  },
  listStockAdjustments: {
    method: 'GET', path: '/v1/products/{id}/stock-adjustments', group: 'products', summary: 'The stock ledger of a product, newest first',
    auth: ALLOW.inventoryRead, params: ResourceParams, query: p.StockLedgerQuery, response: list(p.StockAdjustment),
    errors: ['PRODUCT_NOT_FOUND'],
  },
});
