/** The seeds' display rules: score colour bands, labels, tiers and number formats. */

export type Band = 'green' | 'yellow' | 'red';

/** Company and contact score colour (seed 001 §9): 80+ green, 60–79 yellow, else red. */
export function scoreBand(score: number): Band {
  if (score >= 80) return 'green';
  if (score >= 60) return 'yellow';
  return 'red';
}

export const bandClass: Record<Band, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  yellow: 'bg-amber-50 text-amber-800 ring-amber-200',
  red: 'bg-rose-50 text-rose-700 ring-rose-200',
};

/** Contact score label (seed 000 §9): bands at 90, 80 and 70. */
export function scoreLabel(score: number): 'Excellent' | 'Very Good' | 'Good' | 'Fair' {
  if (score >= 90) return 'Excellent';
  if (score >= 80) return 'Very Good';
  if (score >= 70) return 'Good';
  return 'Fair';
}

/** Lead-pipeline card priority (seed 001 §9): 80+ high (red), 70–79 medium (orange). */
export function leadPriority(score: number): 'high' | 'medium' | null {
  if (score >= 80) return 'high';
  if (score >= 70) return 'medium';
  return null;
}

/** Compatibility label from competitorAlignment (seed 000 §2.8). */
export function compatibilityLabel(alignment: number): 'High' | 'Medium' | 'Low' {
  if (alignment >= 75) return 'High';
  if (alignment >= 50) return 'Medium';
  return 'Low';
}

/** Contact tier from the title (seed 000 §2.8). */
export function contactTier(title: string | null | undefined): 'executive' | 'leadership' | 'staff' {
  const t = (title ?? '').toLowerCase();
  if (/ceo|president|founder/.test(t)) return 'executive';
  if (/vp|director|manager/.test(t)) return 'leadership';
  return 'staff';
}

/** The 'Executive' tag: a title containing ceo or president. */
export const isExecutive = (title: string | null | undefined): boolean =>
  /ceo|president/.test((title ?? '').toLowerCase());

/** Statuses display in upper case with underscores as spaces (seed 000 §4). */
export const statusLabel = (status: string): string => status.replaceAll('_', ' ').toUpperCase();

/** Revenue (a digit string of dollars) in millions with one decimal: '$5.2M'. */
export function formatRevenue(revenue: string | number | null | undefined): string {
  if (revenue === null || revenue === undefined || revenue === '') return 'Not disclosed';
  const dollars = Number(revenue);
  if (!Number.isFinite(dollars)) return 'Not disclosed';
  return `$${(dollars / 1_000_000).toFixed(1)}M`;
}

/** Whole US dollars: '$52,000'. */
export function formatDollars(value: string | number): string {
  const n = Math.round(Number(value) || 0);
  return `$${n.toLocaleString('en-US')}`;
}

/** Stage values in $K with no decimals (seed 001 §9). */
export const formatThousands = (value: number): string => `$${Math.round(value / 1000).toLocaleString('en-US')}K`;

/** Total pipeline in $M with one decimal. */
export const formatMillions = (value: number): string => `$${(value / 1_000_000).toFixed(1)}M`;

/** Percent with at most one decimal: 12.5 → '12.5%'. */
export const formatPercent = (value: number): string =>
  `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
