import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import randomnessModule from 'randomness';
import { chiSquare, chiSquarePValue } from './stats.ts';

/**
 * The standard batteries on the raw stream file:
 * - dieharder (Debian package `dieharder`, every test with `-a`, the file read raw with `-g 201`);
 * - ent (Debian package `ent`): entropy, χ² of the bytes, mean, Monte-Carlo π, serial correlation;
 * - NIST SP 800-22 through the npm package `randomness` (maintained, MIT, no native code, runs on
 *   this machine's Node; Debian ships no build of the NIST suite and PyPI is out of reach here). It
 *   implements 8 of the 15 tests; the report lists the other 7 as still to run at the lab.
 */

export interface DieharderResult {
  test: string;
  ntup: number;
  tsamples: number;
  psamples: number;
  pValue: number;
  assessment: string;
}

/** Debian tools the pack needs: installed with apt-get when missing and we are root, else explained. */
export function ensureTool(binary: string, debianPackage: string): void {
  if (spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${binary} is missing: run \`sudo apt-get install -y ${debianPackage}\` and try again.`);
  }
  console.log(`certify: installing ${debianPackage} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', debianPackage], { stdio: 'inherit', env });
  if (install.status !== 0) throw new Error(`apt-get could not install ${debianPackage}.`);
}

/** Parses dieharder's table rows: `name| ntup| tsamples| psamples| p-value| assessment`. */
export function parseDieharder(output: string): DieharderResult[] {
  const rows: DieharderResult[] = [];
  for (const line of output.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || cells[0]!.startsWith('#') || cells[0] === 'test_name') continue;
    const pValue = Number(cells[4]);
    if (!Number.isFinite(pValue)) continue;
    rows.push({
      test: cells[0]!,
      ntup: Number(cells[1]),
      tsamples: Number(cells[2]),
      psamples: Number(cells[3]),
      pValue,
      assessment: cells[5]!,
    });
  }
  return rows;
}

/** dieharder on the file: every test (`-a`), or the listed test numbers (`-d n`) at small sizes. */
export function runDieharder(
  file: string,
  tests: 'all' | number[],
): { results: DieharderResult[]; rewinds: number } {
  ensureTool('dieharder', 'dieharder');
  const runs = tests === 'all' ? [['-a']] : tests.map((d) => ['-d', String(d)]);
  const results: DieharderResult[] = [];
  let rewinds = 0;
  for (const args of runs) {
    const run = spawnSync('dieharder', [...args, '-g', '201', '-f', file], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    if (run.status !== 0) throw new Error(`dieharder failed: ${run.stderr}`);
    results.push(...parseDieharder(run.stdout));
    rewinds += Number(/rewound (\d+) times/.exec(run.stdout + run.stderr)?.[1] ?? 0);
  }
  return { results, rewinds };
}

export interface EntResult {
  bytes: number;
  entropy: number;
  chiSquare: number;
  chiSquarePValue: number;
  mean: number;
  monteCarloPi: number;
  serialCorrelation: number;
}

/** Parses `ent -t` (terse CSV): a header row `0,File-bytes,…` and a value row `1,…`. */
export function parseEnt(output: string): EntResult {
  const row = output.split('\n').find((line) => line.startsWith('1,'));
  if (!row) throw new Error(`ent gave no result: ${output}`);
  const [, bytes, entropy, chi, mean, pi, serial] = row.split(',').map(Number);
  return {
    bytes: bytes!,
    entropy: entropy!,
    chiSquare: chi!,
    // 256 byte values: 255 degrees of freedom.
    chiSquarePValue: chiSquarePValue(chi!, 255),
    mean: mean!,
    monteCarloPi: pi!,
    serialCorrelation: serial!,
  };
}

export function runEnt(file: string): EntResult {
  ensureTool('ent', 'ent');
  const run = spawnSync('ent', ['-t', file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ent failed: ${run.stderr}`);
  return parseEnt(run.stdout);
}

type NistTest = (bits: Uint8Array) => [boolean, number, ...unknown[]];
// The package is CommonJS; under some loaders its default export arrives wrapped once more.
const wrapped = randomnessModule as unknown as { default?: Record<string, NistTest> };
export const NIST_TESTS: Record<string, NistTest> = wrapped.default ?? (randomnessModule as never);

export interface NistTestResult {
  test: string;
  sequences: number;
  passed: number;
  /** SP 800-22 §4.2.1: the pass proportion must be within p̂ ± 3·√(p̂(1−p̂)/m), p̂ = 0.99. */
  minimumPassing: number;
  /** SP 800-22 §4.2.2: χ² of the p-values over 10 bins, uniform when ≥ 0.0001; null below 55 sequences. */
  uniformityP: number | null;
  pValues: number[];
  verdict: 'PASSED' | 'FAILED';
}

/** `sequences` consecutive sequences of `bits` bits (a power of two: the package's FFT needs it). */
export function runNist(file: string, sequences: number, bits: number): NistTestResult[] {
  const data = readFileSync(file);
  const bytesPer = bits / 8;
  if (data.length < sequences * bytesPer) throw new Error('The stream file is too short for the NIST run.');
  const m = sequences;
  const minimumPassing = Math.ceil(m * (0.99 - 3 * Math.sqrt((0.99 * 0.01) / m)));
  return Object.entries(NIST_TESTS).map(([test, run]) => {
    const pValues: number[] = [];
    for (let s = 0; s < m; s++) pValues.push(run(data.subarray(s * bytesPer, (s + 1) * bytesPer))[1]);
    const passed = pValues.filter((p) => p >= 0.01).length;
    const bins = new Array<number>(10).fill(0);
    for (const p of pValues) bins[Math.min(9, Math.floor(p * 10))]!++;
    // The standard asks for at least 55 sequences before the p-values' uniformity means anything.
    const uniformityP = m < 55 ? null : chiSquare(bins, new Array<number>(10).fill(0.1)).pValue;
    const ok = passed >= minimumPassing && (uniformityP === null || uniformityP >= 0.0001);
    return {
      test,
      sequences: m,
      passed,
      minimumPassing,
      uniformityP,
      pValues,
      verdict: ok ? 'PASSED' : 'FAILED',
    };
  });
}
