import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDieharder, parseEnt, runNist } from './batteries.ts';
import { runEnumeration } from './enumeration.ts';
import { GAME_MODES } from './modes.ts';
import { runOutcomes } from './outcomes.ts';
import { Parts } from './parts.ts';
import { chunksOf, mergeAll, runChunks } from './pool.ts';
import { buildReport, renderMarkdown } from './report.ts';
import { simulateChunk } from './simulate.ts';
import { QUICK } from './sizes.ts';
import { addRound, emptyTally, runsTest, serialCorrelation } from './stats.ts';
import { writeStream } from './stream.ts';

/** A smoke of the certification pipeline at tiny sizes (the real run is `npm run certify`). */
const work = mkdtempSync(join(tmpdir(), 'sorte-certify-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('certification pack (smoke)', () => {
  it('certifies all ten games', () => {
    expect(new Set(GAME_MODES.map((m) => m.game)).size).toBe(10);
  });

  it('merges chunk tallies as one pass over the same rounds', () => {
    const whole = simulateChunk('dice:under-5000', 0, 600);
    const parts = chunksOf('dice:under-5000', 600, 4).map((c) => simulateChunk(c.modeId, c.from, c.count));
    const { sumPay, sumPay2, ...merged } = mergeAll(parts, whole.counts.length);
    const { sumPay: wholePay, sumPay2: wholePay2, ...wholeRest } = whole;
    // Counts, runs and products are exact; payout sums differ only by float addition order.
    expect(merged).toEqual(wholeRest);
    expect(sumPay).toBeCloseTo(wholePay, 9);
    expect(sumPay2).toBeCloseTo(wholePay2, 9);
  });

  it('flags a sequence that alternates (runs) or repeats (serial correlation)', () => {
    const alternating = emptyTally(2);
    for (let i = 0; i < 400; i++) addRound(alternating, i % 2, i % 2 === 0 ? 2 : 0);
    expect(runsTest(alternating).pValue).toBeLessThan(1e-6);
    expect(serialCorrelation(alternating).pValue).toBeLessThan(1e-6);
  });

  it('matches every declared RTP by enumeration and meets every profile floor', () => {
    const rows = runEnumeration(false).filter((r) => r.game !== 'slot');
    expect(rows.filter((r) => !r.matches).map((r) => r.id)).toEqual([]);
    expect(rows.every((r) => Object.values(r.floors).every((f) => f.meets))).toBe(true);
  });

  it('plays every mode, stores each part, and writes a report labelled as a smoke', async () => {
    const parts = new Parts(join(work, 'run'), false);
    const modes = await runOutcomes(parts, 300, 0);
    expect(modes).toHaveLength(GAME_MODES.length);
    expect(modes.every((m) => m.result.rounds === 300)).toBe(true);
    expect(parts.has('modes/crash:200')).toBe(true);
    const file = join(work, 'stream.bin');
    writeStream(file, 2 * 8_192);
    const nist = runNist(file, 2, 1 << 16);
    expect(nist.map((n) => n.test)).toContain('monobitTest');
    const part = <T>(name: string, result: T) => ({ name, seconds: 0, cached: false, result });
    const report = buildReport({
      commit: 'test',
      dirty: true,
      options: { sizes: QUICK, threads: 0, out: work, work, fresh: true, quick: true },
      parts: {
        enumeration: part('enumeration', runEnumeration(false)),
        stream: part('stream', { bytes: 16_384 }),
        ent: part('ent', parseEnt(ENT_SAMPLE)),
        dieharder: part('dieharder', { results: parseDieharder(DIEHARDER_SAMPLE), rewinds: 0 }),
        nist: part('nist', nist),
      },
      modes: modes.map((m) => m.result),
      outcomesSeconds: 1,
    });
    expect(report.label).toMatch(/SMOKE/);
    expect(report.dieharder).toMatchObject({ passed: 1, weak: 1, failed: 0 });
    expect(renderMarkdown(report)).toContain('### hilo');
  });

  it('runs chunks on worker threads with the same result as in this thread', async () => {
    const chunks = chunksOf('keno:5', 200, 2);
    const threaded = await runChunks(chunks, 2);
    const local = await runChunks(chunks, 0);
    expect(threaded).toEqual(local);
  });

  it('reads a stored part back instead of redoing it', async () => {
    const parts = new Parts(join(work, 'resume'), false);
    let calls = 0;
    await parts.run('x', () => ++calls);
    const again = await parts.run('x', () => ++calls);
    expect({ calls, cached: again.cached, result: again.result }).toEqual({
      calls: 1,
      cached: true,
      result: 1,
    });
    expect(JSON.parse(readFileSync(parts.file('x'), 'utf8')).result).toBe(1);
  });
});

const ENT_SAMPLE =
  '0,File-bytes,Entropy,Chi-square,Mean,Monte-Carlo-Pi,Serial-Correlation\n1,8388608,7.999977,265.21,127.4871,3.142036,-0.000152\n';
const DIEHARDER_SAMPLE = `#=============================================================================#
        test_name   |ntup| tsamples |psamples|  p-value |Assessment
#=============================================================================#
   diehard_birthdays|   0|       100|     100|0.67747319|  PASSED  
         sts_monobit|   1|    100000|     100|0.00002333|   WEAK   
`;
