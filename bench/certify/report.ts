import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DieharderResult, EntResult, NistTestResult } from './batteries.ts';
import type { EnumeratedMode } from './enumeration.ts';
import type { ModeFigures } from './outcomes.ts';
import type { PartResult } from './parts.ts';
import { FULL, type Options } from './sizes.ts';

/** What a lab still has to do itself: the pack is the operator's evidence, not the certificate. */
export const LAB_STILL_MUST = [
  'Source review of packages/fairness (the float stream, every outcome mapping and paytable) and of the server paths that call it.',
  'Seeding review: server seeds from the platform CSPRNG (Web Crypto), the commitment/reveal flow, the crash hash chain and its salt ceremony (ADR 008).',
  "The deployed build's signature: hash the shipped server and fairness bundle and match it to the certified commit.",
  'The 7 NIST SP 800-22 tests the npm package does not implement (non-overlapping and overlapping templates, universal, linear complexity, serial, random excursions and its variant), on the same stream.',
  'Re-run at full sizes on the lab side: this pack is reproducible from the commit with the commands below.',
  'The demo aggregator blackjack best-strategy RTP (not in this pack yet).',
];

export interface ReportInput {
  commit: string;
  dirty: boolean;
  options: Options;
  parts: {
    enumeration: PartResult<EnumeratedMode[]>;
    stream: PartResult<{ bytes: number }>;
    ent: PartResult<EntResult>;
    dieharder: PartResult<{ results: DieharderResult[]; rewinds: number }>;
    nist: PartResult<NistTestResult[]>;
  };
  modes: ModeFigures[];
  outcomesSeconds: number;
}

export function buildReport(input: ReportInput) {
  const { options, parts } = input;
  const full = JSON.stringify(options.sizes) === JSON.stringify(FULL);
  const dieharder = parts.dieharder.result;
  const count = (a: string) => dieharder.results.filter((r) => r.assessment === a).length;
  const flags = full ? '' : ` -- ${cliFlags(options)}`;
  return {
    title: 'Sorte in-house games: certification pack',
    label: full
      ? 'Full sizes (as the issue asks).'
      : 'SMOKE RUN at small sizes: these figures show the pipeline works; they are NOT certification figures.',
    generatedAt: new Date().toISOString(),
    commit: input.commit,
    dirtyWorkTree: input.dirty,
    sizes: options.sizes,
    threads: options.threads,
    commands: ['npm ci', `npm run certify${flags}`],
    seconds: {
      enumeration: parts.enumeration.seconds,
      stream: parts.stream.seconds,
      ent: parts.ent.seconds,
      dieharder: parts.dieharder.seconds,
      nist: parts.nist.seconds,
      outcomesAndRtp: input.outcomesSeconds,
    },
    stream: {
      bytes: parts.stream.result.bytes,
      rule: 'HMAC-SHA256(serverSeed, "clientSeed:nonce:round"), rounds 0–1 per nonce',
    },
    ent: parts.ent.result,
    dieharder: {
      tests: options.sizes.dieharder,
      passed: count('PASSED'),
      weak: count('WEAK'),
      failed: count('FAILED'),
      fileRewinds: dieharder.rewinds,
      results: dieharder.results,
    },
    nist: parts.nist.result.map(({ pValues, ...rest }) => ({ ...rest, pValues })),
    enumeration: parts.enumeration.result,
    modes: input.modes,
    labStillMust: LAB_STILL_MUST,
  };
}

export type Report = ReturnType<typeof buildReport>;

function cliFlags(options: Options): string {
  const s = options.sizes;
  if (options.quick) return '--quick';
  const d = s.dieharder === 'all' ? 'all' : s.dieharder.join(',');
  return `--rounds ${s.rounds} --stream-mib ${s.streamBytes >> 20} --nist-sequences ${s.nistSequences} --nist-bits ${s.nistBits} --dieharder ${d}`;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(4)} %` : 'n/a');
const p = (x: number) => (x < 0.0001 ? x.toExponential(2) : x.toFixed(4));

function gameSection(report: Report, game: string): string[] {
  const modes = report.modes.filter((m) => m.game === game);
  const exact = new Map(report.enumeration.map((e) => [e.id, e]));
  const lines = [
    `### ${game}`,
    '',
    '| mode | declared | exact (enumerated) | best strategy | empirical RTP [99.9 % CI] | in CI | χ² p (df) | runs p | serial r (p) | floors |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const m of modes) {
    const e = exact.get(m.id)!;
    const floors = Object.entries(e.floors)
      .map(([profile, f]) => `${profile} ${f.meets ? '≥' : '<'} ${pct(f.floor)}`)
      .join(', ');
    lines.push(
      `| ${m.mode} | ${pct(m.declaredRtp)} | ${pct(e.exactRtp)}${e.matches ? ' ✓' : ''} | ${e.best ? pct(e.best.rtp) : '—'} | ${pct(m.rtp.rtp)} [${pct(m.rtp.low)}, ${pct(m.rtp.high)}] | ${m.rtpWithinCi ? 'yes' : 'NO'} | ${p(m.chiSquare.pValue)} (${m.chiSquare.degreesOfFreedom}) | ${p(m.runs.pValue)} | ${m.serial.r.toFixed(5)} (${p(m.serial.pValue)}) | ${floors} |`,
    );
  }
  const best = modes.map((m) => exact.get(m.id)?.best?.strategy).find(Boolean);
  if (best) lines.push('', `Best strategy: ${best}.`);
  return [...lines, ''];
}

export function renderMarkdown(report: Report): string {
  const games = [...new Set(report.modes.map((m) => m.game))];
  const d = report.dieharder;
  const lines = [
    `# ${report.title}`,
    '',
    `> **${report.label}**`,
    '',
    `Generated ${report.generatedAt} from commit \`${report.commit}\`${report.dirtyWorkTree ? ' (with uncommitted changes)' : ''}; ${report.threads} threads. Machine-readable: \`report.json\`.`,
    '',
    '## Reproduce',
    '',
    '```sh',
    ...report.commands,
    '```',
    '',
    `Sizes: ${report.sizes.rounds.toLocaleString('en')} rounds per mode; raw stream ${(report.stream.bytes / 2 ** 20).toFixed(0)} MiB (${report.stream.rule}); NIST ${report.sizes.nistSequences} sequences × ${report.sizes.nistBits.toLocaleString('en')} bits; dieharder ${report.sizes.dieharder === 'all' ? 'all tests (-a)' : `tests ${report.sizes.dieharder.join(', ')}`}.`,
    '',
    '| part | seconds |',
    '|---|---|',
    ...Object.entries(report.seconds).map(([k, s]) => `| ${k} | ${s.toFixed(1)} |`),
    '',
    '## Raw generator',
    '',
    `**ent** (Debian \`ent\`): ${report.ent.bytes.toLocaleString('en')} bytes, entropy ${report.ent.entropy.toFixed(6)} bits/byte, χ² ${report.ent.chiSquare.toFixed(2)} (p ${p(report.ent.chiSquarePValue)}), mean ${report.ent.mean.toFixed(4)}, π ${report.ent.monteCarloPi.toFixed(6)}, serial correlation ${report.ent.serialCorrelation.toFixed(6)}.`,
    '',
    `**dieharder** (Debian \`dieharder\`, \`-g 201\` raw file): ${d.passed} passed, ${d.weak} weak, ${d.failed} failed of ${d.results.length}; the file was rewound ${d.fileRewinds} times${d.fileRewinds > 0 ? ' — a rewound file repeats its data, so failures at this size say the file is too short, not that the generator fails' : ''}.`,
    '',
    '| test | ntup | tsamples | psamples | p-value | assessment |',
    '|---|---|---|---|---|---|',
    ...d.results.map(
      (r) => `| ${r.test} | ${r.ntup} | ${r.tsamples} | ${r.psamples} | ${p(r.pValue)} | ${r.assessment} |`,
    ),
    '',
    '**NIST SP 800-22** (npm `randomness`, 8 of the 15 tests): pass proportion at α = 0.01 and uniformity of the p-values (§4.2).',
    '',
    '| test | passed / sequences | minimum | uniformity p | verdict |',
    '|---|---|---|---|---|',
    ...report.nist.map(
      (n) =>
        `| ${n.test} | ${n.passed} / ${n.sequences} | ${n.minimumPassing} | ${n.uniformityP === null ? 'n/a (< 55 sequences)' : p(n.uniformityP)} | ${n.verdict} |`,
    ),
    '',
    '## Games',
    '',
    'Per mode: declared RTP, exact RTP by enumerating the paytable with exact fractions (✓ = equal to 10⁻¹²), the best strategy for games with choices, the empirical RTP of the rounds played with its 99.9 % confidence interval, and the outcome tests (χ² of the outcome distribution, runs test on rounds returning at least the stake, lag-1 serial correlation of the outcome). Payouts are multipliers of the stake before centavo rounding and the max-win cap (ADR 009 covers the rounding).',
    '',
    ...games.flatMap((g) => gameSection(report, g)),
    '## What a lab still has to do',
    '',
    ...report.labStillMust.map((s) => `- ${s}`),
    '',
  ];
  return lines.join('\n');
}

export function writeReport(report: Report, folder: string): void {
  writeFileSync(join(folder, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(folder, 'README.md'), renderMarkdown(report));
}

/** One line per game: modes, worst p-values, RTP checks, so a run ends with a readable verdict. */
export function printSummary(report: Report): void {
  const games = [...new Set(report.modes.map((m) => m.game))];
  const rows = games.map((game) => {
    const modes = report.modes.filter((m) => m.game === game);
    const enumerated = report.enumeration.filter((e) => e.game === game);
    return {
      game,
      modes: modes.length,
      rounds: modes.reduce((a, m) => a + m.rounds, 0),
      'min χ² p': Number(Math.min(...modes.map((m) => m.chiSquare.pValue)).toFixed(4)),
      'min runs p': Number(Math.min(...modes.map((m) => m.runs.pValue)).toFixed(4)),
      'min serial p': Number(Math.min(...modes.map((m) => m.serial.pValue)).toFixed(4)),
      'RTP in 99.9 % CI': `${modes.filter((m) => m.rtpWithinCi).length}/${modes.length}`,
      'exact = declared': `${enumerated.filter((e) => e.matches).length}/${enumerated.length}`,
      'floors met': enumerated.every((e) => Object.values(e.floors).every((f) => f.meets)) ? 'yes' : 'NO',
    };
  });
  console.log(report.label);
  console.table(rows);
  console.log(
    `dieharder ${report.dieharder.passed}/${report.dieharder.results.length} passed (${report.dieharder.weak} weak, ${report.dieharder.failed} failed, ${report.dieharder.fileRewinds} rewinds); NIST ${report.nist.filter((n) => n.verdict === 'PASSED').length}/${report.nist.length} tests passed; ent entropy ${report.ent.entropy.toFixed(6)}`,
  );
}
