import { formatPercent } from '@/lib/rules';

/** A 0–1 figure the api may send as a number or a string ("0.87"). */
type Fraction = number | string | null;

/** A 0–1 figure (number or numeric string) as a number; null when absent or unreadable. */
export function toFraction(value: Fraction | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** 0.873 → '87.3%'; '—' when there is no figure. */
export function fractionPercent(value: Fraction | undefined): string {
  const n = toFraction(value);
  return n === null ? '—' : formatPercent(Math.round(n * 1000) / 10);
}

/** A figure already in percent: 34.7 → '34.7%'; '—' when null. */
export function percentOrDash(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : formatPercent(Math.round(value * 10) / 10);
}

export type SuccessBand = 'Excellent' | 'Good' | 'Fair' | 'Needs Improvement';

/** Seed 002 §9: success-rate bands at 0.9, 0.8 and 0.7. */
export function successBand(rate: number): SuccessBand {
  if (rate >= 0.9) return 'Excellent';
  if (rate >= 0.8) return 'Good';
  if (rate >= 0.7) return 'Fair';
  return 'Needs Improvement';
}

export const successBandClass: Record<SuccessBand, string> = {
  Excellent: 'bg-emerald-100 text-emerald-800',
  Good: 'bg-sky-100 text-sky-800',
  Fair: 'bg-amber-100 text-amber-900',
  'Needs Improvement': 'bg-rose-100 text-rose-800',
};
