import { describe, expect, it } from 'vitest';

import { formatCents, invoiceTotals, isoDate, toCents, toTaxMilli } from './invoice-math';

describe('invoice totals', () => {
  it('works in cents: tax after the discount, rounded half up, as the server does', () => {
    const lines = [
      { quantity: '3', unitPrice: '19.99' },
      { quantity: '1', unitPrice: '100' },
    ];
    expect(invoiceTotals(lines, '10', '8.5')).toEqual({ subtotal: 15_997, discount: 1000, tax: 1275, total: 16_272 });
    expect(formatCents(16_272)).toBe('$162.72');
    // 0.1 + 0.2 in floats is not 0.3; in cents it is.
    expect(invoiceTotals([{ quantity: '1', unitPrice: '0.1' }, { quantity: '1', unitPrice: '0.2' }], '', '0').total).toBe(30);
  });

  it('caps the discount at the subtotal and reads an empty tax field as 8.5 %', () => {
    expect(invoiceTotals([{ quantity: '1', unitPrice: '5' }], '9', '8.5')).toEqual({ subtotal: 500, discount: 500, tax: 0, total: 0 });
    expect(invoiceTotals([{ quantity: '2', unitPrice: '0.50' }], '', '').total).toBe(109);
  });

  it('ignores lines that are not yet valid', () => {
    expect(invoiceTotals([{ quantity: '0', unitPrice: '5' }, { quantity: '2', unitPrice: '1.999' }], '', '0').subtotal).toBe(0);
  });

  it('parses amounts and rates strictly', () => {
    expect(toCents('1.5')).toBe(150);
    expect(toCents('abc')).toBeNull();
    expect(toCents('-1')).toBeNull();
    expect(toTaxMilli('100')).toBe(100_000);
    expect(toTaxMilli('100.5')).toBeNull();
    expect(isoDate(new Date(2026, 0, 31), 30)).toBe('2026-03-02');
  });
});
