/** Small display formatters shared by the screens. */

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString() : value.toFixed(1);
}

/*
 * Human dates, one set for the record pages and the palette: Intl in the browser's locale and
 * time zone. `now` is a parameter so tests can pin it.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const parse = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** "Tue, Nov 24, 2026, 10:29 AM": the full moment, for a `title` or a detail line. */
export function formatFullDateTime(iso: string): string {
  const date = parse(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}

/**
 * How long ago (or until) in words: "just now", "5 minutes ago", "in 3 hours", "yesterday", up to
 * a week away; beyond that the date ("Nov 24" this year, "Nov 24, 2025" another year) and time.
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const date = parse(iso);
  if (!date) return iso;
  const diff = date.getTime() - now;
  const abs = Math.abs(diff);
  if (abs < MINUTE) return 'just now';
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  if (abs < HOUR) return rtf.format(Math.round(diff / MINUTE), 'minute');
  if (abs < DAY) return rtf.format(Math.round(diff / HOUR), 'hour');
  if (abs < 7 * DAY) return rtf.format(Math.round(diff / DAY), 'day');
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return new Intl.DateTimeFormat(undefined, {
    year: sameYear ? undefined : 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}

/** A calendar day (`YYYY-MM-DD`, no time zone) as "Mon, Feb 2, 2026"; other text as it is. */
export function formatDay(day: string | null | undefined): string {
  if (!day) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}

/** Today as `YYYY-MM-DD` in the browser's time zone. */
export function todayIso(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/*
 * Typed days, for the date picker: the field shows a day in the browser's numeric order
 * (12/03/2026 in en-US, 03/12/2026 in en-GB, 03.12.2026 in de) and reads that or ISO 2026-12-03
 * back; forms and the api keep `YYYY-MM-DD`. Latin digits and no bidi marks, so what is shown
 * can be typed back.
 */

const BIDI_MARKS = /[\u200e\u200f\u061c]/g;
const numericDay = () =>
  new Intl.DateTimeFormat(undefined, { year: 'numeric', month: '2-digit', day: '2-digit', numberingSystem: 'latn' });
type DayField = 'year' | 'month' | 'day';
const isDayField = (type: string): type is DayField => type === 'year' || type === 'month' || type === 'day';
/** A sample day's parts in the locale's order (month, literal, day, literal, year in en-US). */
const dayParts = () => numericDay().formatToParts(new Date(2000, 0, 2));

/** A `YYYY-MM-DD` day as a local Date (midnight), or null when it is not a real day. */
export function dateOfDay(day: string): Date | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  // Date rolls Feb 30 over into March: only a day that reads back the same is real.
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

/** The local day of `date` as `YYYY-MM-DD`. */
export const dayOf = (date: Date): string => todayIso(date);

/** A `YYYY-MM-DD` day as typed in the browser's locale ("12/03/2026"); '' when it is not a day. */
export function formatDayInput(day: string): string {
  const date = dateOfDay(day);
  return date ? numericDay().format(date).replace(BIDI_MARKS, '') : '';
}

/** How a day is typed in the browser's locale: "MM/DD/YYYY", "DD.MM.YYYY". */
export function dayInputPattern(): string {
  const names: Record<DayField, string> = { year: 'YYYY', month: 'MM', day: 'DD' };
  return dayParts()
    .map((p) => (isDayField(p.type) ? names[p.type] : p.value))
    .join('')
    .replace(BIDI_MARKS, '');
}

/**
 * A typed day as `YYYY-MM-DD`: ISO (2026-12-03) or the locale's numeric form (12/3/2026 in en-US,
 * any separators, a four-digit year); null when it is neither or not a real day.
 */
export function parseDayInput(text: string): string | null {
  const typed = text.replace(BIDI_MARKS, '').trim();
  if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(typed)) {
    const date = dateOfDay(typed);
    return date ? dayOf(date) : null;
  }
  const m = /^(\d{1,4})[^\p{L}\d]+(\d{1,4})[^\p{L}\d]+(\d{1,4})[^\p{L}\d]*$/u.exec(typed);
  if (!m) return null;
  const typedBy = new Map(
    dayParts()
      .map((p) => p.type)
      .filter(isDayField)
      .map((field, i) => [field, m[i + 1] ?? ''] as const),
  );
  const [year = '', month = '', day = ''] = [typedBy.get('year'), typedBy.get('month'), typedBy.get('day')];
  if (year.length !== 4) return null;
  const date = dateOfDay(`${year}-${month}-${day}`);
  return date ? dayOf(date) : null;
}

/** A file size in binary units, as limits are stated: "15 MB", "340 KB", "12 B". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [size, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${Number.isInteger(size) || size >= 100 ? Math.round(size) : size.toFixed(1)} ${unit}`;
}

/** "Tue, Nov 24, 10:29 AM" in the browser's time zone; the year only when it is not this year. */
export function formatWhen(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    ...(at.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** "Jan 15, 2026": the day of a moment, for a table's date columns; '—' when there is none. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = parse(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}
