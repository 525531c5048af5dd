import { describe, expect, it } from 'vitest';
import { formatMultiplier, toJson } from './originals.games.ts';
import { rangeStart } from './rounds.service.ts';

describe('game record ranges', () => {
  const now = new Date('2026-11-23T02:30:00Z');

  it('counts days from UTC midnight on international sites', () => {
    expect(rangeStart('today', 'intl', now)?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(rangeStart('3days', 'intl', now)?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(rangeStart('7days', 'intl', now)?.toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(rangeStart('all', 'intl', now)).toBeNull();
  });

  it('counts days from Brasília midnight on Brazilian sites', () => {
    // 02:30 UTC is still 23:30 of the day before in Brasília.
    expect(rangeStart('today', 'br', now)?.toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(rangeStart('3days', 'br', now)?.toISOString()).toBe('2026-11-20T03:00:00.000Z');
  });
});

describe('round display helpers', () => {
  it('floors multipliers to four decimals', () => {
    expect(formatMultiplier({ num: 99n, den: 50n })).toBe('1.9800');
    expect(formatMultiplier({ num: 33n, den: 32n })).toBe('1.0312');
    expect(formatMultiplier({ num: 0n, den: 1n })).toBe('0.0000');
    expect(formatMultiplier({ num: 100_000_000n, den: 100n })).toBe('1000000.0000');
  });

  it('turns bigints into decimal strings at any depth', () => {
    expect(toJson({ a: 1n, b: [{ c: 2n }], d: 'x', e: null })).toEqual({
      a: '1',
      b: [{ c: '2' }],
      d: 'x',
      e: null,
    });
  });
});
