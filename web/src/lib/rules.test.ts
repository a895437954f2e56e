import { describe, expect, expectTypeOf, it } from 'vitest';

import type { UsState } from '@/types/api';

import {
  delayHint,
  formatOpenRate,
  parseCityState,
  parseDelay,
  parseTargetStates,
  unknownStatesMessage,
  US_STATE_VALUES,
  US_STATES,
  compatibilityLabel,
  contactTier,
  formatDollars,
  formatMillions,
  formatRevenue,
  formatThousands,
  isExecutive,
  leadPriority,
  scoreBand,
  scoreLabel,
  statusLabel,
} from './rules';

describe('seed display rules', () => {
  it('colours scores: 80+ green, 60–79 yellow, else red', () => {
    expect([100, 80, 79, 60, 59, 0].map(scoreBand)).toEqual(['green', 'green', 'yellow', 'yellow', 'red', 'red']);
  });

  it('labels contact scores at 90, 80 and 70', () => {
    expect([90, 89, 80, 79, 70, 69].map(scoreLabel)).toEqual([
      'Excellent',
      'Very Good',
      'Very Good',
      'Good',
      'Good',
      'Fair',
    ]);
  });

  it('marks lead cards 80+ high priority and 70–79 medium', () => {
    expect([80, 79, 70, 69].map(leadPriority)).toEqual(['high', 'medium', 'medium', null]);
  });

  it('labels compatibility: 75+ High, 50–74 Medium, below Low', () => {
    expect([75, 74, 50, 49].map(compatibilityLabel)).toEqual(['High', 'Medium', 'Medium', 'Low']);
  });

  it('puts contacts in tiers by title', () => {
    expect(contactTier('CEO')).toBe('executive');
    expect(contactTier('Co-Founder')).toBe('executive');
    expect(contactTier('Vice President of Sales')).toBe('executive');
    expect(contactTier('VP Operations')).toBe('leadership');
    expect(contactTier('Sales Director')).toBe('leadership');
    expect(contactTier('Office Manager')).toBe('leadership');
    expect(contactTier('Estimator')).toBe('staff');
    expect(contactTier(null)).toBe('staff');
  });

  it("tags 'Executive' only for ceo or president", () => {
    expect(isExecutive('President')).toBe(true);
    expect(isExecutive('CEO & Founder')).toBe(true);
    expect(isExecutive('Founder')).toBe(false);
  });

  it('formats revenue in millions with one decimal, else Not disclosed', () => {
    expect(formatRevenue('5200000')).toBe('$5.2M');
    expect(formatRevenue('12000000')).toBe('$12.0M');
    expect(formatRevenue(null)).toBe('Not disclosed');
  });

  it('formats whole dollars, $K stage values and $M totals', () => {
    expect(formatDollars('52000')).toBe('$52,000');
    expect(formatThousands(52_499)).toBe('$52K');
    expect(formatMillions(1_250_000)).toBe('$1.3M');
  });

  it('shows statuses in upper case with spaces', () => {
    expect(statusLabel('not_interested')).toBe('NOT INTERESTED');
  });
});

describe('discovery city/state box (seed 000 §5)', () => {
  it.each([
    ['Dallas, TX', { city: 'Dallas', state: 'TX' }],
    ['Dallas Texas', { city: 'Dallas', state: 'TX' }],
    ['Santa Fe New Mexico', { city: 'Santa Fe', state: 'NM' }],
    ['  oklahoma  ', { city: null, state: 'OK' }],
    ['az', { city: null, state: 'AZ' }],
    ['Little Rock', { city: 'Little Rock', state: null }],
    ['Phoenix, Atlantis', { city: 'Phoenix', state: null }],
    [', Louisiana', { city: null, state: 'LA' }],
  ])('%s', (text, expected) => {
    expect(parseCityState(text)).toEqual(expected);
  });

  it.each(['12345', ',', '', '  '])('%j is not a place', (text) => {
    expect(parseCityState(text)).toBeNull();
  });

  it('knows all 50 states', () => {
    expect(Object.keys(US_STATES)).toHaveLength(50);
    expect(new Set(Object.values(US_STATES)).size).toBe(50);
  });
});

describe('sequence step delay (seed 002 §5, §9)', () => {
  it.each([
    [0, 'No delay'],
    [45, '45 minutes'],
    [60, '1 hour'],
    [1440, '1 day'],
    [1505, '1 day, 1 hour, 5 minutes'],
    [4380, '3 days, 1 hour'],
  ])('%i minutes reads %s', (minutes, text) => {
    expect(delayHint(minutes)).toBe(text);
  });

  it('reads whole numbers and falls back to 0', () => {
    expect(parseDelay('90')).toBe(90);
    expect(parseDelay('12.7')).toBe(12);
    expect(parseDelay('soon')).toBe(0);
    expect(parseDelay('-5')).toBe(0);
  });
});

describe('open rate', () => {
  it('says "Not tracked" when no email carried the pixel, and the rate otherwise', () => {
    expect(formatOpenRate(0, { openTracked: 0 })).toBe('Not tracked');
    expect(formatOpenRate(50, { openTracked: 2 })).toBe('50%');
    expect(formatOpenRate(12.5, undefined)).toBe('12.5%');
  });
});

describe('targeting states', () => {
  it('lists every state the targeting takes, each once', () => {
    expectTypeOf<(typeof US_STATE_VALUES)[number]>().toEqualTypeOf<UsState>();
    expect(new Set(US_STATE_VALUES).size).toBe(100);
    expect(US_STATE_VALUES.filter((s) => s.length === 2).sort()).toEqual(Object.values(US_STATES).sort());
  });

  it('reads codes and names in any case, in the list\'s own spelling', () => {
    expect(parseTargetStates('TX, Oklahoma')).toEqual({ states: ['TX', 'Oklahoma'], unknown: [] });
    expect(parseTargetStates(' tx ,new   mexico,, ')).toEqual({ states: ['TX', 'New Mexico'], unknown: [] });
    expect(parseTargetStates('')).toEqual({ states: [], unknown: [] });
  });

  it('tells the entries that name no state', () => {
    expect(parseTargetStates('TX, Texass, ZZ')).toEqual({ states: ['TX'], unknown: ['Texass', 'ZZ'] });
    expect(unknownStatesMessage(['Texass'])).toBe('Unknown state "Texass": use a US state name or two-letter code');
    expect(unknownStatesMessage(['Texass', 'ZZ'])).toBe('Unknown states "Texass", "ZZ": use a US state name or two-letter code');
  });
});
