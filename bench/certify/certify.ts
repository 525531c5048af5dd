import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '@sorte/fairness';
import { runDieharder, runEnt, runNist } from './batteries.ts';
import { runEnumeration } from './enumeration.ts';
import { runOutcomes } from './outcomes.ts';
import { Parts } from './parts.ts';
import { buildReport, printSummary, writeReport } from './report.ts';
import { type Options, parseOptions } from './sizes.ts';
import { writeStream } from './stream.ts';

/**
 * `npm run certify`: the certification pack of the in-house games (issue 37). Parts, each stored as
 * it finishes and reused by a later run of the same commit and sizes:
 *   enumeration → raw stream → ent, dieharder, NIST SP 800-22 → outcomes and RTP per mode → report.
 */
export function commitOf(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

export async function certify(options: Options) {
  const { commit, dirty } = commitOf();
  const sizesKey = sha256Hex(JSON.stringify(options.sizes)).slice(0, 10);
  const parts = new Parts(join(options.work, `${commit.slice(0, 12)}-${sizesKey}`), options.fresh || dirty);
  const { sizes } = options;
  const enumeration = await parts.run('enumeration', () => runEnumeration(sizes.enumerateSlot));
  const file = join(parts.folder, 'stream.bin');
  const needed = Math.max(sizes.streamBytes, (sizes.nistSequences * sizes.nistBits) / 8);
  const stream = await parts.run('stream', () => {
    writeStream(file, needed, (n) => {
      if (n % (64 << 20) === 0) console.log(`certify: stream: ${n >> 20} MiB of ${needed >> 20}`);
    });
    return { file, bytes: needed };
  });
  if (!existsSync(file) || statSync(file).size !== needed) {
    throw new Error('The stored stream file is gone or short: run again with --fresh.');
  }
  const ent = await parts.run('ent', () => runEnt(file));
  const dieharder = await parts.run('dieharder', () => runDieharder(file, sizes.dieharder));
  const nist = await parts.run('nist', () => runNist(file, sizes.nistSequences, sizes.nistBits));
  const outcomesStarted = performance.now();
  const modes = await runOutcomes(parts, sizes.rounds, options.threads);
  const outcomesSeconds = modes.some((m) => !m.cached)
    ? (performance.now() - outcomesStarted) / 1000
    : Math.max(...modes.map((m) => m.seconds));
  const report = buildReport({
    commit,
    dirty,
    options,
    parts: { enumeration, stream, ent, dieharder, nist },
    modes: modes.map((m) => m.result),
    outcomesSeconds,
  });
  mkdirSync(options.out, { recursive: true });
  writeReport(report, options.out);
  printSummary(report);
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  certify(parseOptions(process.argv.slice(2))).catch((error: unknown) => {
    console.error(`certify: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
