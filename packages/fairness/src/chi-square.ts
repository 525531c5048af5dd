/**
 * Pearson's chi-square goodness-of-fit, small enough to keep stats libraries out of the package.
 * Used by the distribution tests and available to the server's self-checks.
 */

/** Upper 1% points of the chi-square distribution for 1–30 degrees of freedom (standard tables). */
const CRITICAL_99 = [
  6.635, 9.21, 11.345, 13.277, 15.086, 16.812, 18.475, 20.09, 21.666, 23.209, 24.725, 26.217, 27.688, 29.141,
  30.578, 32.0, 33.409, 34.805, 36.191, 37.566, 38.932, 40.289, 41.638, 42.98, 44.314, 45.642, 46.963, 48.278,
  49.588, 50.892,
];

/** z for the upper 1% tail of the standard normal. */
const Z_99 = 2.326_347_874;

/**
 * The 99% critical value: a table for df ≤ 30, above that the Wilson–Hilferty cube approximation,
 * which is within 0.1% of the exact quantile there.
 */
export function chiSquareCritical99(degreesOfFreedom: number): number {
  if (!Number.isInteger(degreesOfFreedom) || degreesOfFreedom < 1) throw new RangeError('df must be ≥ 1');
  if (degreesOfFreedom <= 30) return CRITICAL_99[degreesOfFreedom - 1]!;
  const k = degreesOfFreedom;
  const term = 1 - 2 / (9 * k) + Z_99 * Math.sqrt(2 / (9 * k));
  return k * term ** 3;
}

export interface ChiSquareResult {
  statistic: number;
  degreesOfFreedom: number;
  critical: number;
  /** True when the observed counts are consistent with the expected distribution at the 99% level. */
  passes: boolean;
}

/**
 * Compares observed counts with expected probabilities. Adjacent bins whose expected count is below
 * `minExpected` are merged first (the chi-square approximation needs about 5 per bin).
 */
export function chiSquareTest(
  observed: readonly number[],
  probabilities: readonly number[],
  minExpected = 5,
) {
  if (observed.length !== probabilities.length)
    throw new RangeError('Bins and probabilities differ in length.');
  const total = observed.reduce((a, b) => a + b, 0);
  const bins: { observed: number; expected: number }[] = [];
  let pending = { observed: 0, expected: 0 };
  for (let i = 0; i < observed.length; i++) {
    pending.observed += observed[i]!;
    pending.expected += probabilities[i]! * total;
    if (pending.expected >= minExpected) {
      bins.push(pending);
      pending = { observed: 0, expected: 0 };
    }
  }
  if (pending.expected > 0 || pending.observed > 0) {
    const last = bins.at(-1);
    if (last) {
      last.observed += pending.observed;
      last.expected += pending.expected;
    } else {
      bins.push(pending);
    }
  }
  let statistic = 0;
  for (const bin of bins) statistic += (bin.observed - bin.expected) ** 2 / bin.expected;
  const degreesOfFreedom = Math.max(1, bins.length - 1);
  const critical = chiSquareCritical99(degreesOfFreedom);
  return { statistic, degreesOfFreedom, critical, passes: statistic <= critical } satisfies ChiSquareResult;
}
