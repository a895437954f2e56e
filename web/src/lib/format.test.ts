import { describe, expect, it } from 'vitest';

import { formatDate, formatDay, formatFullDateTime, formatRelativeTime, formatWhen, todayIso } from './format';

const NOW = Date.parse('2026-01-15T12:00:00Z');

describe('human dates', () => {
  it('says how long ago in words up to a week, then the date', () => {
    expect(formatRelativeTime('2026-01-15T11:59:40Z', NOW)).toBe('just now');
    expect(formatRelativeTime('2026-01-15T11:55:00Z', NOW)).toBe(new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-5, 'minute'));
    expect(formatRelativeTime('2026-01-15T09:00:00Z', NOW)).toBe(new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-3, 'hour'));
    expect(formatRelativeTime('2026-01-14T12:00:00Z', NOW)).toBe(new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-1, 'day'));
    expect(formatRelativeTime('2026-01-18T12:00:00Z', NOW)).toBe(new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(3, 'day'));
    const older = formatRelativeTime('2025-12-01T12:00:00Z', NOW);
    expect(older).toMatch(/2025/);
    expect(formatRelativeTime('2026-01-02T12:00:00Z', NOW)).not.toMatch(/2026/);
  });

  it('gives the full moment for titles and leaves bad input as it is', () => {
    expect(formatFullDateTime('2026-01-15T12:00:00Z')).toMatch(/2026/);
    expect(formatFullDateTime('soon')).toBe('soon');
    expect(formatRelativeTime('soon', NOW)).toBe('soon');
  });

  it('reads a calendar day without shifting it by the time zone', () => {
    expect(formatDay('2026-02-03')).toBe(
      new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(2026, 1, 3)),
    );
    expect(formatDay(null)).toBe('—');
    expect(formatDay('next week')).toBe('next week');
    expect(todayIso(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });
});

describe('formatWhen', () => {
  it('names the moment without seconds, the year only when it is not this one', () => {
    const now = new Date(2026, 10, 27, 9, 0);
    const thisYear = formatWhen(new Date(2026, 10, 24, 10, 29).toISOString(), now);
    expect(thisYear).toMatch(/Nov 24/);
    expect(thisYear).not.toMatch(/2026|:\d\d:\d\d/);
    expect(formatWhen(new Date(2025, 0, 2, 8, 5).toISOString(), now)).toMatch(/2025/);
    expect(formatWhen(null, now)).toBe('—');
  });
});

describe('formatDate', () => {
  it('names the day of a moment with its year, for table columns', () => {
    const at = new Date(2026, 0, 15, 10, 0);
    expect(formatDate(at.toISOString())).toBe(new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' }).format(at));
    expect(formatDate(at.toISOString())).toMatch(/2026/);
    expect(formatDate(null)).toBe('—');
    expect(formatDate('someday')).toBe('someday');
  });
});
