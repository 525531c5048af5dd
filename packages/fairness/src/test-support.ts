import type { Multiplier } from './multiplier.ts';
import { createFloatStream, type FloatSource } from './seeds.ts';

/** Fixed seeds for the distribution tests: results are reproducible, and a real bias still fails them. */
export const TEST_SERVER_SEED = '8b1f3c0a5e7d9b2f4a6c8e0d1b3f5a7c9e2d4b6f8a0c1e3d5f7b9a2c4e6d8f0b';

/** The float stream of bet `nonce` under the test seeds. */
export function testFloats(nonce: number, clientSeed = 'distribution-test'): FloatSource {
  return createFloatStream({ serverSeed: TEST_SERVER_SEED, clientSeed, nonce });
}

/** A float source that replays fixed values, to hit exact boundaries. */
export function fixedFloats(values: readonly number[]): FloatSource {
  let i = 0;
  return () => {
    const value = values[i++];
    if (value === undefined) throw new Error('fixedFloats ran out of values');
    return value;
  };
}

/** Exact sum of fractions, reduced at the end: used to prove RTPs without float rounding. */
export class ExactSum {
  num = 0n;
  den = 1n;

  add(m: Multiplier, weightNum = 1n, weightDen = 1n): void {
    const num = m.num * weightNum;
    const den = m.den * weightDen;
    this.num = this.num * den + num * this.den;
    this.den *= den;
    const g = gcd(this.num, this.den);
    this.num /= g;
    this.den /= g;
  }

  equals(num: bigint, den: bigint): boolean {
    return this.num * den === num * this.den;
  }

  toNumber(): number {
    return Number(this.num) / Number(this.den);
  }
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x === 0n ? 1n : x;
}
