import { z } from 'zod';
import { INSTANT_ORIGINALS, STEPPED_ORIGINALS } from './games.ts';

/**
 * The in-house games' certification figures (issue 37): what `npm run certify` measured, as the
 * latest report (`docs/certification/report.json`) holds them. Every rate is a fraction of the
 * stakes (0.99 = 99 %); every figure comes with the commit it was measured on and the sizes it
 * was measured at, so a smoke run at small sizes can never pass for a full one.
 */

export const CERTIFIED_GAMES = [...INSTANT_ORIGINALS, ...STEPPED_ORIGINALS, 'crash'] as const;
export type TCertifiedGame = (typeof CERTIFIED_GAMES)[number];

/** The confidence of every measured RTP interval in the report (99.9 %). */
export const CERTIFICATION_CONFIDENCE = 0.999;

/** GET /api/originals/certification?game=: one game's figures, or every game's. */
export const ZCertificationQuery = z.object({
  lang: z.string().max(32).optional(),
  game: z.enum(CERTIFIED_GAMES, { error: 'validation.invalid' }).optional(),
});
export type TCertificationQuery = z.infer<typeof ZCertificationQuery>;

/** One mode of a game (a dice target, a mines count, a plinko board …). */
export const ZCertificationMode = z.object({
  /** The report's id, `<game>:<mode>` (e.g. `dice:under-5000`). */
  id: z.string(),
  /** The report's own name of the mode (English, as the tool writes it). */
  label: z.string(),
  /** The RTP the game declares for this mode (its rules screen). */
  declared_rtp: z.number(),
  /** The RTP computed exactly over the mode's whole outcome space; null when not enumerated. */
  enumerated_rtp: z.number().nullable(),
  /** Whether the enumeration equals the declared RTP. */
  enumeration_matches: z.boolean().nullable(),
  /** Under the best strategy (Hi-Lo, Mines cash-out points); null for games without choices. */
  best_strategy_rtp: z.number().nullable(),
  /** Rounds played to measure this mode. */
  rounds: z.number().int().nonnegative(),
  measured_rtp: z.number(),
  /** The measured RTP's CERTIFICATION_CONFIDENCE interval. */
  ci_low: z.number(),
  ci_high: z.number(),
  /** Whether the declared RTP lies inside the measured interval. */
  declared_within_ci: z.boolean(),
  /** p-values of the outcome tests: χ² of the distribution, runs, lag-1 serial correlation. */
  chi_square_p: z.number(),
  runs_p: z.number(),
  serial_p: z.number(),
});
export type TCertificationMode = z.infer<typeof ZCertificationMode>;

export const ZCertificationGame = z.object({
  game: z.enum(CERTIFIED_GAMES),
  modes: z.array(ZCertificationMode),
});
export type TCertificationGame = z.infer<typeof ZCertificationGame>;

/** The sizes the figures were measured at. */
export const ZCertificationSizes = z.object({
  /** True only when the run used the full sizes the issue asks for (no smaller flags). */
  full_sizes: z.boolean(),
  rounds_per_mode: z.number().int().nonnegative(),
  stream_bytes: z.number().int().nonnegative(),
  nist_sequences: z.number().int().nonnegative(),
  nist_bits_per_sequence: z.number().int().nonnegative(),
  /** Dieharder tests run: `all` (-a) or their numbers. */
  dieharder_tests: z.union([z.literal('all'), z.array(z.number().int())]),
});

/** The raw generator's batteries (one byte stream feeds every game). */
export const ZCertificationBatteries = z.object({
  dieharder: z.object({
    results: z.number().int(),
    passed: z.number().int(),
    weak: z.number().int(),
    failed: z.number().int(),
  }),
  nist: z.object({
    tests: z.number().int(),
    tests_passed: z.number().int(),
    sequences: z.number().int(),
  }),
  ent: z.object({ entropy_bits_per_byte: z.number(), chi_square_p: z.number() }),
});

/** The latest report's figures (GET /api/originals/certification). */
export const ZCertificationResponse = z.object({
  /** The commit the figures were measured on. */
  commit: z.string(),
  /** The report was made from a work tree with uncommitted changes. */
  dirty_work_tree: z.boolean(),
  generated_at: z.string(),
  confidence: z.number(),
  sizes: ZCertificationSizes,
  batteries: ZCertificationBatteries,
  /** The commands that reproduce the report. */
  commands: z.array(z.string()),
  games: z.array(ZCertificationGame),
});
export type TCertificationResponse = z.infer<typeof ZCertificationResponse>;

/**
 * Where the running server's commit comes from: `env` (BUILD_COMMIT, set by the Dockerfile from
 * its build argument), `build` (`git rev-parse HEAD` when `npm run build` bundled the server),
 * `git` (the source tree the server runs from, read at start), or `unknown`.
 */
export const BUILD_COMMIT_SOURCES = ['env', 'build', 'git', 'unknown'] as const;

/** The running server's build, for matching it against the certified commit. */
export const ZBuildInfo = z.object({
  commit: z.string().nullable(),
  commit_source: z.enum(BUILD_COMMIT_SOURCES),
  /** The source tree had uncommitted changes (known for `build` and `git` only). */
  dirty: z.boolean().nullable(),
  /**
   * SHA-256 (hex) of the served player bundle's asset manifest (Vite's `.vite/manifest.json`,
   * which names every asset by the hash of its content), or of its `index.html` when the bundle
   * has no manifest; null when no web bundle is served.
   */
  web_manifest_sha256: z.string().nullable(),
  /** The file hashed, relative to the web bundle's folder. */
  web_manifest_file: z.string().nullable(),
});
export type TBuildInfo = z.infer<typeof ZBuildInfo>;

/** GET /api/admin/certification: the report for the back office, and the running build. */
export const ZAdminCertificationResponse = z.object({
  report: ZCertificationResponse.extend({
    /** The report's own heading line (says when it is a smoke run). */
    label: z.string(),
    /** What a lab still has to do itself. */
    lab_still_must: z.array(z.string()),
  }),
  build: ZBuildInfo,
  /** The build's commit is the report's: null when the build's commit is unknown. */
  commit_matches: z.boolean().nullable(),
});
export type TAdminCertificationResponse = z.infer<typeof ZAdminCertificationResponse>;
