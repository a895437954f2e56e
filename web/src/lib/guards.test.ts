import { describe, expect, it } from 'vitest';

import { isOneOf } from './guards';

describe('isOneOf', () => {
  const COLOURS = ['red', 'green'] as const;

  it('accepts a value of the list and narrows it', () => {
    const text: string = 'green';
    if (!isOneOf(COLOURS, text)) throw new Error('expected a colour');
    const colour: (typeof COLOURS)[number] = text;
    expect(colour).toBe('green');
  });

  it('rejects anything else', () => {
    expect(isOneOf(COLOURS, 'blue')).toBe(false);
    expect(isOneOf(COLOURS, '')).toBe(false);
    expect(isOneOf(COLOURS, null)).toBe(false);
    expect(isOneOf(COLOURS, undefined)).toBe(false);
  });
});
