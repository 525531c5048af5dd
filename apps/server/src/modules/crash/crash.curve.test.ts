import { crashPointHundredths, createHashChain, isCashOutWinning } from '@sorte/fairness';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatHundredths,
  hasCrashed,
  MAX_RUNNING_MS,
  multiplierAt,
  parseHundredths,
  tickMultiplierAt,
} from './crash.curve.ts';
import { forwardHashes } from './crash.engine.ts';

describe('crash curve', () => {
  it('starts at 1.00×, doubles after about 11.55 s and never decreases', () => {
    expect(multiplierAt(0)).toBe(100);
    expect(multiplierAt(-5)).toBe(100);
    expect(multiplierAt(11_552)).toBe(199);
    expect(multiplierAt(11_553)).toBe(200);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_RUNNING_MS }), fc.integer({ min: 0, max: 5_000 }), (t, d) => {
        expect(multiplierAt(t + d)).toBeGreaterThanOrEqual(multiplierAt(t));
      }),
    );
  });

  it('crashes every possible crash point within the longest round', () => {
    expect(hasCrashed(MAX_RUNNING_MS, 100_000_000)).toBe(true);
    expect(hasCrashed(0, 100)).toBe(true);
    expect(hasCrashed(0, 101)).toBe(false);
  });

  it('pays a cash-out at the current tick only below the crash point', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60_000 }), fc.integer({ min: 101, max: 10_000 }), (t, crash) => {
        const tick = tickMultiplierAt(t, 100);
        expect(tick).toBeLessThanOrEqual(multiplierAt(t));
        // Before the crash instant the tick multiplier is a winning cash-out under the fairness rule.
        if (!hasCrashed(t, crash) && tick >= 101) expect(isCashOutWinning(tick, crash)).toBe(true);
      }),
    );
  });

  it('formats and parses multipliers in hundredths', () => {
    expect(formatHundredths(237)).toBe('2.37');
    expect(formatHundredths(100_000_000)).toBe('1000000.00');
    expect(parseHundredths('2.37')).toBe(237);
    expect(parseHundredths('2.3')).toBe(230);
    expect(parseHundredths('2')).toBe(200);
    expect(parseHundredths('2.375')).toBeNull();
    expect(parseHundredths('-1')).toBeNull();
  });

  it('orders the chain as @sorte/fairness does (round p plays forward[length − p])', () => {
    const seed = 'a'.repeat(64);
    const chain = createHashChain(seed, 20);
    const forward = forwardHashes(seed, 20);
    expect(forward[20]).toBe(chain.terminatingHash);
    for (let p = 1; p <= 20; p++) expect(forward[20 - p]).toBe(chain.hashes[p - 1]);
    expect(crashPointHundredths(forward[19]!, 'salt')).toBeGreaterThanOrEqual(100);
  });
});
