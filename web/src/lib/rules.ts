/** The seeds' display rules: score colour bands, labels, tiers and number formats. */

import type { UsState } from '@/types/api';
import type { ContactListFilter } from '@/types/openapi.gen';

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

/**
 * An open rate as shown: "Not tracked" when no email in the figures carried the open pixel
 * (open tracking is a workspace setting, off by default), never a misleading 0%.
 */
export const formatOpenRate = (rate: number, figures: { openTracked: number } | undefined): string =>
  figures && figures.openTracked === 0 ? 'Not tracked' : formatPercent(rate);

/** The 50 states by name, for the discovery city/state box (seed 000 §5). */
export const US_STATES: Record<string, string> = {
  alabama: 'AL', alaska: 'AK', arizona: 'AZ', arkansas: 'AR', california: 'CA', colorado: 'CO',
  connecticut: 'CT', delaware: 'DE', florida: 'FL', georgia: 'GA', hawaii: 'HI', idaho: 'ID',
  illinois: 'IL', indiana: 'IN', iowa: 'IA', kansas: 'KS', kentucky: 'KY', louisiana: 'LA', maine: 'ME',
  maryland: 'MD', massachusetts: 'MA', michigan: 'MI', minnesota: 'MN', mississippi: 'MS', missouri: 'MO',
  montana: 'MT', nebraska: 'NE', nevada: 'NV', 'new hampshire': 'NH', 'new jersey': 'NJ', 'new mexico': 'NM',
  'new york': 'NY', 'north carolina': 'NC', 'north dakota': 'ND', ohio: 'OH', oklahoma: 'OK', oregon: 'OR',
  pennsylvania: 'PA', 'rhode island': 'RI', 'south carolina': 'SC', 'south dakota': 'SD', tennessee: 'TN',
  texas: 'TX', utah: 'UT', vermont: 'VT', virginia: 'VA', washington: 'WA', 'west virginia': 'WV',
  wisconsin: 'WI', wyoming: 'WY',
};

const STATE_CODES = new Set(Object.values(US_STATES));

/** Every state the campaigns' and sequences' targeting takes: the 50 codes, then the 50 names. */
export const US_STATE_VALUES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY',
  'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND',
  'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'Alabama', 'Alaska', 'Arizona', 'Arkansas', 'California', 'Colorado', 'Connecticut', 'Delaware',
  'Florida', 'Georgia', 'Hawaii', 'Idaho', 'Illinois', 'Indiana', 'Iowa', 'Kansas', 'Kentucky',
  'Louisiana', 'Maine', 'Maryland', 'Massachusetts', 'Michigan', 'Minnesota', 'Mississippi', 'Missouri',
  'Montana', 'Nebraska', 'Nevada', 'New Hampshire', 'New Jersey', 'New Mexico', 'New York',
  'North Carolina', 'North Dakota', 'Ohio', 'Oklahoma', 'Oregon', 'Pennsylvania', 'Rhode Island',
  'South Carolina', 'South Dakota', 'Tennessee', 'Texas', 'Utah', 'Vermont', 'Virginia', 'Washington',
  'West Virginia', 'Wisconsin', 'Wyoming',
] as const satisfies readonly UsState[];

/**
 * A targeting's states as typed, comma-separated ("TX, Oklahoma"): each entry a code or a name, read
 * as the server reads it (any case, spaces collapsed) and given in the list's own spelling
 * ("tx" is TX); `unknown`: the entries that name no state.
 */
export function parseTargetStates(text: string): { states: UsState[]; unknown: string[] } {
  const states: UsState[] = [];
  const unknown: string[] = [];
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const key = entry.replace(/\s+/g, ' ').toLowerCase();
    const state = US_STATE_VALUES.find((s) => s.toLowerCase() === key);
    if (state) states.push(state);
    else unknown.push(entry);
  }
  return { states, unknown };
}

/** The message for states `parseTargetStates` did not know (the server's words). */
export const unknownStatesMessage = (unknown: readonly string[]): string =>
  `Unknown state${unknown.length === 1 ? '' : 's'} ${unknown.map((s) => `"${s}"`).join(', ')}: use a US state name or two-letter code`;

/** A state name or two-letter code as its code, else null. */
export function stateCode(text: string): string | null {
  const t = text.trim().replace(/\s+/g, ' ');
  const upper = t.toUpperCase();
  if (upper.length === 2 && STATE_CODES.has(upper)) return upper;
  return US_STATES[t.toLowerCase()] ?? null;
}

/**
 * The discovery box's text as city and state (seed 000 §5): 'City, State' splits on the comma;
 * 'City State' takes the last one or two words as the state when they name one; a lone state sets
 * only the state; anything else is a city. Null when nothing usable is left ('Invalid City/State').
 */
export function parseCityState(text: string): { city: string | null; state: string | null } | null {
  const t = text.trim().replace(/\s+/g, ' ');
  // A city has letters; "12345" or "," is not one.
  const city = (part: string) => {
    const c = part.trim().replace(/,+$/, '').trim();
    return /\p{L}/u.test(c) ? c : null;
  };
  const comma = t.indexOf(',');
  if (comma >= 0) {
    const parsed = { city: city(t.slice(0, comma)), state: stateCode(t.slice(comma + 1)) };
    return parsed.city || parsed.state ? parsed : null;
  }
  const whole = stateCode(t);
  if (whole) return { city: null, state: whole };
  const words = t.split(' ');
  // The state is the last two words ("New Mexico") or the last word ("Texas", "TX").
  for (const take of [2, 1]) {
    if (words.length <= take) continue;
    const state = stateCode(words.slice(-take).join(' '));
    if (state) return { city: city(words.slice(0, -take).join(' ')), state };
  }
  const only = city(t);
  return only ? { city: only, state: null } : null;
}

/** A step's delay as days, hours and minutes (seed 002 §9: days = minutes / 1440, then hours, then minutes). */
export function delayHint(minutes: number): string {
  const m = Math.max(0, Math.floor(minutes));
  if (m === 0) return 'No delay';
  const parts: [number, string][] = [
    [Math.floor(m / 1440), 'day'],
    [Math.floor((m % 1440) / 60), 'hour'],
    [m % 60, 'minute'],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`)
    .join(', ');
}

/** The add-step delay box: whole numbers, anything else is 0 (seed 002 §5). */
export const parseDelay = (text: string): number => {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** The target regions (seed 000 §3): discovery searches and the contact filter. */
export const REGIONS = [
  ['southwest', 'Southwest (all seven states)'],
  ['texas', 'Texas'],
  ['louisiana', 'Louisiana'],
  ['arkansas', 'Arkansas'],
  ['mississippi', 'Mississippi'],
  ['new-mexico', 'New Mexico'],
  ['oklahoma', 'Oklahoma'],
  ['arizona', 'Arizona'],
] as const satisfies readonly (readonly [NonNullable<ContactListFilter['region']>, string])[];
