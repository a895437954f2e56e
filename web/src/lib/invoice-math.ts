/**
 * The invoice form's live totals (seed 002 §5), in integer cents as the server computes them:
 * tax after the discount, rounded half up; the discount cannot take the total below zero.
 * The server recomputes on save; this is the preview.
 */

export const DEFAULT_TAX_RATE = '8.5';
export const DUE_DAYS = 30;

/** "19.99" → 1999; null when not an amount with at most two decimals. */
export function toCents(text: string): number | null {
  const t = text.trim();
  if (!/^\d*(\.\d{0,2})?$/.test(t) || t === '' || t === '.') return null;
  const [whole = '', frac = ''] = t.split('.');
  return Number(whole || '0') * 100 + Number(frac.padEnd(2, '0'));
}

/** "8.5" → 8500 (thousandths of a percent), 0–100; an empty field is the default rate. */
export function toTaxMilli(text: string): number | null {
  const t = text.trim() === '' ? DEFAULT_TAX_RATE : text.trim();
  if (!/^\d{1,3}(\.\d{0,3})?$/.test(t)) return null;
  const [whole = '0', frac = ''] = t.split('.');
  const milli = Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
  return milli <= 100_000 ? milli : null;
}

export type Totals = { subtotal: number; discount: number; tax: number; total: number };

export function invoiceTotals(lines: { quantity: string; unitPrice: string }[], discount: string, taxRate: string): Totals {
  const subtotal = lines.reduce((sum, l) => {
    const q = Number.parseInt(l.quantity, 10);
    const unit = toCents(l.unitPrice);
    return Number.isFinite(q) && q >= 1 && unit !== null ? sum + q * unit : sum;
  }, 0);
  const d = Math.min(toCents(discount || '0') ?? 0, subtotal);
  const milli = toTaxMilli(taxRate) ?? 0;
  const tax = Math.floor(((subtotal - d) * milli + 50_000) / 100_000);
  return { subtotal, discount: d, tax, total: subtotal - d + tax };
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents as "$1,234.50". */
export const formatCents = (cents: number): string => usd.format(cents / 100);
/** Dollars (as the api answers) as "$1,234.50". */
export const formatUsd = (dollars: number): string => usd.format(dollars);

/** `YYYY-MM-DD` of `date` plus `days`, in local time. */
export function isoDate(date: Date, days = 0): string {
  const d = new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
