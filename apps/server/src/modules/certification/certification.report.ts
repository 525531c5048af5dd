import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  CERTIFICATION_CONFIDENCE,
  CERTIFIED_GAMES,
  type TCertificationGame,
  type TCertificationMode,
  type TCertificationResponse,
  type TCertifiedGame,
} from '@sorte/contract';
import { z } from 'zod';
import { AppError } from '../../errors.ts';

/** Where `npm run certify` writes the report (bench/certify), in the repository and the image. */
export const DEFAULT_REPORT_FILE = fileURLToPath(
  new URL('../../../../../docs/certification/report.json', import.meta.url),
);

/** The longest report file read: the full-size report is far below it; a bigger file is not ours. */
const REPORT_MAX_BYTES = 4 * 1024 * 1024;

const ZPValue = z.object({ pValue: z.number() });

/**
 * The parts of bench/certify's report.json the product shows. Only these fields are checked:
 * the tool may add others without breaking the server.
 */
const ZReportFile = z.object({
  label: z.string(),
  generatedAt: z.string(),
  commit: z.string(),
  dirtyWorkTree: z.boolean(),
  sizes: z.object({
    rounds: z.number(),
    streamBytes: z.number(),
    nistSequences: z.number(),
    nistBits: z.number(),
    dieharder: z.union([z.literal('all'), z.array(z.number())]),
  }),
  commands: z.array(z.string()),
  ent: z.object({ entropy: z.number(), chiSquarePValue: z.number() }),
  dieharder: z.object({
    passed: z.number(),
    weak: z.number(),
    failed: z.number(),
    results: z.array(z.unknown()),
  }),
  nist: z.array(z.object({ sequences: z.number(), verdict: z.string() })),
  enumeration: z.array(
    z.object({
      id: z.string(),
      exactRtp: z.number(),
      matches: z.boolean(),
      best: z.object({ rtp: z.number() }).optional(),
    }),
  ),
  modes: z.array(
    z.object({
      id: z.string(),
      game: z.string(),
      mode: z.string(),
      rounds: z.number(),
      chiSquare: ZPValue,
      runs: ZPValue,
      serial: ZPValue,
      rtp: z.object({ rtp: z.number(), low: z.number(), high: z.number() }),
      declaredRtp: z.number(),
      rtpWithinCi: z.boolean(),
    }),
  ),
  labStillMust: z.array(z.string()),
});
type TReportFile = z.infer<typeof ZReportFile>;

/** The report as the server serves it: the public figures plus the back office's extras. */
export type TLoadedReport = TCertificationResponse & { label: string; lab_still_must: string[] };

const isCertifiedGame = (game: string): game is TCertifiedGame =>
  (CERTIFIED_GAMES as readonly string[]).includes(game);

function gamesOf(file: TReportFile): TCertificationGame[] {
  const exact = new Map(file.enumeration.map((entry) => [entry.id, entry]));
  const byGame = new Map<TCertifiedGame, TCertificationMode[]>();
  for (const mode of file.modes) {
    if (!isCertifiedGame(mode.game)) continue;
    const enumerated = exact.get(mode.id);
    const modes = byGame.get(mode.game) ?? [];
    modes.push({
      id: mode.id,
      label: mode.mode,
      declared_rtp: mode.declaredRtp,
      enumerated_rtp: enumerated?.exactRtp ?? null,
      enumeration_matches: enumerated?.matches ?? null,
      best_strategy_rtp: enumerated?.best?.rtp ?? null,
      rounds: mode.rounds,
      measured_rtp: mode.rtp.rtp,
      ci_low: mode.rtp.low,
      ci_high: mode.rtp.high,
      declared_within_ci: mode.rtpWithinCi,
      chi_square_p: mode.chiSquare.pValue,
      runs_p: mode.runs.pValue,
      serial_p: mode.serial.pValue,
    });
    byGame.set(mode.game, modes);
  }
  return CERTIFIED_GAMES.flatMap((game) => {
    const modes = byGame.get(game);
    return modes ? [{ game, modes }] : [];
  });
}

/**
 * The report's own record of how it was made: a run at the full sizes is reproduced by the bare
 * `npm run certify`; any smaller run lists its flags after it (bench/certify/report.ts).
 */
const ranAtFullSizes = (file: TReportFile) => file.commands.includes('npm run certify');

export function toLoadedReport(file: TReportFile): TLoadedReport {
  return {
    commit: file.commit,
    dirty_work_tree: file.dirtyWorkTree,
    generated_at: file.generatedAt,
    confidence: CERTIFICATION_CONFIDENCE,
    sizes: {
      full_sizes: ranAtFullSizes(file),
      rounds_per_mode: file.sizes.rounds,
      stream_bytes: file.sizes.streamBytes,
      nist_sequences: file.sizes.nistSequences,
      nist_bits_per_sequence: file.sizes.nistBits,
      dieharder_tests: file.sizes.dieharder,
    },
    batteries: {
      dieharder: {
        results: file.dieharder.results.length,
        passed: file.dieharder.passed,
        weak: file.dieharder.weak,
        failed: file.dieharder.failed,
      },
      nist: {
        tests: file.nist.length,
        tests_passed: file.nist.filter((test) => test.verdict === 'PASSED').length,
        sequences: file.nist[0]?.sequences ?? 0,
      },
      ent: { entropy_bits_per_byte: file.ent.entropy, chi_square_p: file.ent.chiSquarePValue },
    },
    commands: file.commands,
    games: gamesOf(file),
    label: file.label,
    lab_still_must: file.labStillMust,
  };
}

async function readReport(path: string): Promise<TLoadedReport | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  if (text.length > REPORT_MAX_BYTES) return null;
  try {
    const parsed = ZReportFile.safeParse(JSON.parse(text));
    return parsed.success ? toLoadedReport(parsed.data) : null;
  } catch {
    return null;
  }
}

const cache = new Map<string, Promise<TLoadedReport | null>>();

/**
 * The report at `path`, read and checked once per process (it ships with the build and changes
 * only with a new one). A missing or unreadable report is CERTIFICATION_REPORT_MISSING, a 404:
 * the product says the figures are not there rather than failing.
 */
export async function getReport(path: string = DEFAULT_REPORT_FILE): Promise<TLoadedReport> {
  let loading = cache.get(path);
  if (!loading) {
    loading = readReport(path);
    cache.set(path, loading);
  }
  const report = await loading;
  if (!report) throw new AppError('CERTIFICATION_REPORT_MISSING');
  return report;
}

/** The public part of the report, optionally one game's figures only. */
export function publicFigures(report: TLoadedReport, game?: TCertifiedGame): TCertificationResponse {
  const { label: _label, lab_still_must: _lab, ...figures } = report;
  return game ? { ...figures, games: figures.games.filter((entry) => entry.game === game) } : figures;
}
