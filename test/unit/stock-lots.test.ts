import { describe, expect, it } from 'vitest';
import {
  deltaProblem,
  isExpiredOn,
  isLotUse,
  lotRefusal,
  normalizeLotNumber,
  type LotState,
} from '../../lib/domain/stock';
import { buildOpenApiDocument } from '../../lib/openapi/document';

const lot = (overrides: Partial<LotState> = {}): LotState => ({
  product_id: 'p1',
  status: 'active',
  expires_on: '2026-12-31',
  quantity_on_hand: 3,
  ...overrides,
});
const sale = (delta: number, usableOn?: string) => ({ productId: 'p1', reason: 'sale' as const, delta, usableOn });

describe('lot rules', () => {
  it('a lot is usable through its expiry date, expired the day after', () => {
    expect(isExpiredOn('2026-12-31', '2026-12-31')).toBe(false);
    expect(isExpiredOn('2026-12-31', '2027-01-01')).toBe(true);
    expect(isExpiredOn('2026-12-31', '2026-06-01')).toBe(false);
  });

  it('only sales and treatments taking units are uses; disposal, receipts and give-backs are not', () => {
    expect(isLotUse('sale', -1)).toBe(true);
    expect(isLotUse('treatment', -1)).toBe(true);
    expect(isLotUse('treatment', 2)).toBe(false);
    for (const reason of ['damaged', 'correction'] as const) expect(isLotUse(reason, -1)).toBe(false);
    for (const reason of ['received', 'return', 'correction'] as const) expect(isLotUse(reason, 1)).toBe(false);
  });

  it('treatment moves either way; it is never 0', () => {
    expect(deltaProblem('treatment', -2)).toBeNull();
    expect(deltaProblem('treatment', 2)).toBeNull();
    expect(deltaProblem('treatment', 0)).not.toBeNull();
  });

  it('names the refusal in order: not found, recalled, expired, short', () => {
    expect(lotRefusal(null, sale(-1))).toBe('LOT_NOT_FOUND');
    expect(lotRefusal(lot({ product_id: 'p2' }), sale(-1))).toBe('LOT_NOT_FOUND');
    expect(lotRefusal(lot({ status: 'recalled', expires_on: '2020-01-01' }), sale(-9, '2026-01-01'))).toBe(
      'LOT_RECALLED',
    );
    expect(lotRefusal(lot({ expires_on: '2020-01-01' }), sale(-9, '2026-01-01'))).toBe('LOT_EXPIRED');
    expect(lotRefusal(lot(), sale(-4, '2026-01-01'))).toBe('INSUFFICIENT_STOCK');
    expect(lotRefusal(lot(), sale(-3, '2026-12-31'))).toBeNull();
    // Expiry is judged only when a date is given; a recalled or expired lot may still be disposed of.
    expect(lotRefusal(lot({ expires_on: '2020-01-01' }), sale(-1))).toBeNull();
    const disposal = { productId: 'p1', reason: 'damaged' as const, delta: -3, usableOn: '2026-01-01' };
    expect(lotRefusal(lot({ status: 'recalled', expires_on: '2020-01-01' }), disposal)).toBeNull();
    expect(lotRefusal(lot({ status: 'recalled' }), { ...disposal, delta: -4 })).toBe('INSUFFICIENT_STOCK');
  });

  it('lot numbers compare without case, surrounding spaces or Unicode form', () => {
    expect(normalizeLotNumber(' c1234a5 ')).toBe(normalizeLotNumber('C1234A5'));
    expect(normalizeLotNumber('ＡＢ１')).toBe('AB1');
  });
});

describe('lots in the OpenAPI document (and so the typed client)', () => {
  const doc = buildOpenApiDocument() as Record<string, any>;
  it('documents the lot operations, their codes and the new fields', () => {
    const create = doc.paths['/v1/products/{id}/lots'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '404', '409']));
    expect(JSON.stringify(create.responses['409'])).toContain('LOT_EXISTS');
    expect(doc.paths['/v1/products/{id}/lots'].get).toBeDefined();
    expect(JSON.stringify(doc.paths['/v1/lots/{id}'].get.responses['404'])).toContain('LOT_NOT_FOUND');
    const adjust = JSON.stringify(doc.paths['/v1/products/{id}/stock-adjustments'].post.responses['409']);
    for (const code of ['INSUFFICIENT_STOCK', 'LOT_RECALLED', 'LOT_EXPIRED']) expect(adjust).toContain(code);
    expect(Object.keys(doc.components.schemas.Lot.properties)).toEqual(
      expect.arrayContaining([
        'lot_number',
        'expires_on',
        'quantity_on_hand',
        'status',
        'recalled_at',
        'recall_reason',
      ]),
    );
    expect(doc.components.schemas.Product.properties.tracks_lots).toBeDefined();
    expect(doc.components.schemas.StockAdjustment.properties.reason.enum).toContain('treatment');
    expect(Object.keys(doc.components.schemas.StockAdjustment.properties)).toEqual(
      expect.arrayContaining(['lot_id', 'appointment_id']),
    );
  });
});
