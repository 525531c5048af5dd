import { diceMultiplier } from '@sorte/fairness';
import { describe, expect, it } from 'vitest';
import { formatMinorText, multiplierText, toMinor, winningRolls } from './dice-play.tsx';

describe('dice table figures', () => {
  it('counts winning rolls on both sides of the target', () => {
    expect(winningRolls('under', 5000)).toBe(5000);
    expect(winningRolls('over', 5000)).toBe(4999);
  });

  it('shows the same multiplier the server pays, floored to 4 decimals', () => {
    for (const [direction, target] of [
      ['under', 5000],
      ['over', 4999],
      ['under', 100],
      ['under', 9800],
      ['over', 1234],
    ] as const) {
      const exact = diceMultiplier({ direction, target });
      const tenThousandths = (exact.num * 10_000n) / exact.den;
      const expected = `${tenThousandths / 10_000n}.${(tenThousandths % 10_000n).toString().padStart(4, '0')}`;
      expect(multiplierText(winningRolls(direction, target))).toBe(expected);
    }
  });

  it('reads stakes as integer centavos and refuses anything else', () => {
    expect(toMinor('1.5')).toBe(150n);
    expect(toMinor('0.10')).toBe(10n);
    expect(toMinor('0')).toBeNull();
    expect(toMinor('1.234')).toBeNull();
    expect(toMinor('-1')).toBeNull();
    expect(formatMinorText(19_800n)).toBe('198.00');
  });
});
