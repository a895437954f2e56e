import { afterEach, describe, expect, it, vi } from 'vitest';

import { dateOfDay, dayInputPattern, formatBytes, formatDayInput, parseDayInput } from './format';

// The date picker's text follows the browser's locale; these pin one to check each order.
const RealDateTimeFormat = Intl.DateTimeFormat;
const inLocale = (locale: string) =>
  vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (_locales?: string | string[], options?: Intl.DateTimeFormatOptions) {
    return new RealDateTimeFormat(locale, options);
  } as typeof Intl.DateTimeFormat);

afterEach(() => vi.restoreAllMocks());

describe('typed days', () => {
  it('reads and writes month-first days in en-US', () => {
    inLocale('en-US');
    expect(dayInputPattern()).toBe('MM/DD/YYYY');
    expect(formatDayInput('2026-12-03')).toBe('12/03/2026');
    expect(parseDayInput('12/3/2026')).toBe('2026-12-03');
    expect(parseDayInput(' 12-03-2026 ')).toBe('2026-12-03');
  });

  it('reads and writes day-first days in de-DE and en-GB', () => {
    inLocale('de-DE');
    expect(dayInputPattern()).toBe('DD.MM.YYYY');
    expect(formatDayInput('2026-12-03')).toBe('03.12.2026');
    expect(parseDayInput('3.12.2026')).toBe('2026-12-03');
    vi.restoreAllMocks();
    inLocale('en-GB');
    expect(parseDayInput('03/12/2026')).toBe('2026-12-03');
  });

  it('always takes ISO, and refuses what is not a real day', () => {
    inLocale('de-DE');
    expect(parseDayInput('2026-12-03')).toBe('2026-12-03');
    expect(parseDayInput('2026-2-3')).toBe('2026-02-03');
    expect(parseDayInput('2026-02-30')).toBeNull();
    expect(parseDayInput('31.02.2026')).toBeNull();
    expect(parseDayInput('3.12.26')).toBeNull();
    expect(parseDayInput('3.12.2026 tomorrow')).toBeNull();
    expect(parseDayInput('')).toBeNull();
    expect(formatDayInput('')).toBe('');
    expect(dateOfDay('2024-02-29')).toEqual(new Date(2024, 1, 29));
    expect(dateOfDay('2025-02-29')).toBeNull();
  });
});

describe('formatBytes', () => {
  it('states sizes in binary units, as the api’s limits are', () => {
    expect(formatBytes(15 * 1024 * 1024)).toBe('15 MB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatBytes(340 * 1024)).toBe('340 KB');
    expect(formatBytes(12)).toBe('12 B');
  });
});
