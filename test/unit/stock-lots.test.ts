import { describe, expect, it } from 'vitest';
import {
  deltaProblem,
  isExpiredOn,
  isLotUse,
  lotRefusal,
  normalizeLotNumber,
  type LotState,
} from '../../lib/domain/stock';

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
