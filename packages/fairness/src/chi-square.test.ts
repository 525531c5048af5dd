import { describe, expect, it } from 'vitest';
import { chiSquareCritical99, chiSquareTest } from './chi-square.ts';

describe('chi-square', () => {
  it('uses the table for small df and a close approximation above 30', () => {
    expect(chiSquareCritical99(1)).toBeCloseTo(6.635, 3);
    expect(chiSquareCritical99(36)).toBeCloseTo(58.619, 0);
    expect(chiSquareCritical99(99)).toBeCloseTo(134.642, 0);
  });

  it('passes counts that match and fails counts that are biased', () => {
    const fair = chiSquareTest([1010, 990, 1005, 995], [0.25, 0.25, 0.25, 0.25]);
    expect(fair.passes).toBe(true);
    const biased = chiSquareTest([1200, 900, 950, 950], [0.25, 0.25, 0.25, 0.25]);
    expect(biased.passes).toBe(false);
  });

  it('merges bins whose expected count is too small', () => {
    const result = chiSquareTest([1, 0, 500, 499], [0.001, 0.001, 0.499, 0.499]);
    expect(result.degreesOfFreedom).toBe(1);
  });
});
