import { z } from 'zod';
import { PAYOUT_ADAPTERS } from './modules/payments/psp/payout-adapter.ts';

const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((value) => value === 'on' || value === 'true' || value === '1');

const positiveInt = (fallback: number, max: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);

/**
 * Process configuration, read once from the environment at boot. Everything has a safe default for
 * a local demo; a bad value stops the process with a message naming the variable.
 */
/** A 32-byte key as 64 hex digits or base64 (KYC_DOCUMENT_KEY and the retired ones). */
const DOCUMENT_KEY = /^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/;

export const ZConfig = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  /** Loopback by default; set 0.0.0.0 (or ::) in a container or behind a load balancer. */
  HOST: z.string().min(1).max(255).default('localhost'),
  /** PostgreSQL server; when absent the embedded PGlite database under DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Most PostgreSQL connections each server process opens (its pool; LISTEN connections aside).
   * Fewer than the clients waiting can be faster on a small machine shared with PostgreSQL: fewer
   * backends to wake and switch between (bench:bets, docs/bench-log/2026-11-29.md).
   */
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(20),
  /**
   * `pgbouncer`: DATABASE_URL goes through a pooler in transaction mode (PgBouncer before 1.21
   * keeps no prepared statement across transactions), so the pool sends unnamed statements, and
   * whatever needs a session of its own (LISTEN, the crash leader's advisory lock, the
   * migrations' lock) connects to DATABASE_DIRECT_URL (ADR 043).
   */
  DATABASE_POOLER: z.enum(['none', 'pgbouncer']).default('none'),
  /** PostgreSQL itself, not through the pooler: the session connections' URL (default DATABASE_URL). */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Read replicas (one host or several: standbys, or a primary) for the reads that may be a few
   * seconds old: the game record, transaction history, order centre, back-office reports and CSV
   * exports. Unset: every read on DATABASE_URL. PostgreSQL itself, not a pooler (ADR 044).
   */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** A read replica whose replay is more than this many seconds behind is skipped (reads go to the primary). */
  DATABASE_READ_MAX_LAG_S: z.coerce.number().min(0.1).max(3600).default(5),
  DATA_DIR: z.string().min(1).default('./data'),
  /** `CAPTCHA=off` turns the image challenge off (automated tests, local demos). */
  CAPTCHA: onOff.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Seconds a stopping process answers /readyz with 503 while still serving, before it closes, so
   * a load balancer's health check takes it out first (0: close at once; compose uses 4).
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(120).default(0),
  /** Lets a remote Prometheus scrape /metrics with `Authorization: Bearer <token>` (loopback needs none). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Trust X-Forwarded-* from a reverse proxy (needed for real client addresses behind one). */
  TRUST_PROXY: onOff.default(false),
  /**
   * Run the crash game's rounds once the server listens. Tests turn it off: every test app of a
   * process shares one database, and only the crash tests drive an engine (with their own clock).
   */
  CRASH_ENGINE: onOff.default(true),
  /**
   * Run the promotion jobs (cashback, rebates, grant expiry) every minute once the server listens;
   * each period runs once per site whatever the number of processes. Tests turn it off and run them.
   */
  PROMO_JOBS: onOff.default(true),
  /** Agency commission settlement and chat rains (issue 12); off in tests, which run them by hand. */
  COMMUNITY_JOBS: onOff.default(true),
  /** Seed the demo sites, players and operator at start (idempotent). */
  SEED_DEMO: onOff.default(true),
  /** The built player web app; served with an SPA fallback when the folder exists. */
  WEB_DIST: z.string().min(1).optional(),
  /**
   * The certification report the server serves (GET /api/originals/certification); default the
   * repository's docs/certification/report.json, which the Dockerfile copies into the image.
   */
  CERTIFICATION_REPORT_FILE: z.string().min(1).optional(),
  /**
   * The commit this server was built from, when the build cannot ask git itself (the Dockerfile
   * sets it from its BUILD_COMMIT build argument: the image holds no .git).
   */
  BUILD_COMMIT: z
    .string()
    .regex(/^[0-9a-f]{7,40}$/, 'must be a git commit hash (7 to 40 lowercase hex digits)')
    .optional(),
  /** Requests per minute per client address, for all routes and for the auth routes. */
  RATE_LIMIT_PER_MINUTE: positiveInt(600, 1_000_000),
  AUTH_RATE_LIMIT_PER_MINUTE: positiveInt(30, 1_000_000),
  /** Failed logins allowed within LOGIN_LOCK_MINUTES, per account name and per client address. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: positiveInt(5, 1000),
  LOGIN_MAX_FAILURES_PER_IP: positiveInt(30, 100_000),
  LOGIN_LOCK_MINUTES: positiveInt(15, 24 * 60),
  /** The server's public address (https in production); the PSP's callbacks are built on it. */
  PUBLIC_BASE_URL: z.url().optional(),
  /** The PSP's API Pix base URL, version path included (e.g. https://pix.example.com/api/v2). */
  PSP_BASE_URL: z.url().optional(),
  /** OAuth token URL; default /oauth/token on PSP_BASE_URL's host, as the standard's example. */
  PSP_TOKEN_URL: z.url().optional(),
  PSP_CLIENT_ID: z.string().min(1).optional(),
  PSP_CLIENT_SECRET: z.string().min(1).optional(),
  /** Only for a PSP that also signs callbacks like the sandbox; API Pix callbacks are unsigned. */
  PSP_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Our DICT key at the PSP (set with the other PSP_* variables for a real PSP). */
  PSP_PIX_KEY: z.string().min(1).max(77).optional(),
  /** Whose API sends Pix (withdrawals): not in the standard, one adapter per PSP. */
  PSP_PAYOUT_ADAPTER: z.enum(PAYOUT_ADAPTERS).optional(),
  /** mTLS client certificate and key (PEM), or a PKCS#12 file and its passphrase; the PSP's CA. */
  PSP_CERT_FILE: z.string().min(1).optional(),
  PSP_KEY_FILE: z.string().min(1).optional(),
  PSP_PFX_FILE: z.string().min(1).optional(),
  PSP_PFX_PASSPHRASE: z.string().min(1).optional(),
  PSP_CA_FILE: z.string().min(1).optional(),
  /** Where the PSP calls back (…/api/psp/webhook); default <PUBLIC_BASE_URL>/api/psp/webhook. */
  PSP_WEBHOOK_URL: z.url().optional(),
  /** Loopback port of the local PSP sandbox (used when no PSP is configured); 0 picks a free one. */
  PSP_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
  /** Third-party games: our id for the aggregator, in its callback paths /api/providers/<id>/wallet. */
  AGGREGATOR_ID: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be 2-32 lowercase letters, digits or dashes')
    .default('sorte-demo'),
  /** An external aggregator (with AGGREGATOR_SECRET); absent → the built-in demo aggregator. */
  AGGREGATOR_BASE_URL: z.url().optional(),
  /** HMAC-SHA256 key of the launch and wallet calls, shared with the aggregator. */
  AGGREGATOR_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Where the aggregator calls our wallet; default http://127.0.0.1:<PORT>/api/providers/<id>/wallet. */
  AGGREGATOR_WALLET_URL: z.url().optional(),
  /** Loopback port of the demo aggregator; 0 (default) picks a free one. */
  AGGREGATOR_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(0),
  /** The demo aggregator's address as players' browsers reach it (default its loopback URL). */
  AGGREGATOR_SANDBOX_PUBLIC_URL: z.url().optional(),
  /** SMTP server for mail (smtp:// or smtps://, credentials in the URL); unset → the local mail catcher. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** Sender address of the mail the server sends. */
  MAIL_FROM: z.string().min(3).max(254).default('Sorte <no-reply@sorte.localhost>'),
  /** Port of the local mail catcher's page (used when SMTP_URL is unset); 0 picks a free one. */
  MAIL_CATCHER_PORT: z.coerce.number().int().min(0).max(65_535).default(4020),
  /**
   * The national self-exclusion registry (SIGAP) for sites whose profile asks for it (br): base URL
   * and HTTP Basic credentials, all three or none; none → the local registry sandbox on loopback.
   */
  SELF_EXCLUSION_REGISTRY_URL: z.url().optional(),
  SELF_EXCLUSION_CLIENT_ID: z.string().min(1).max(200).optional(),
  SELF_EXCLUSION_CLIENT_SECRET: z.string().min(1).max(200).optional(),
  /** Port of the local registry sandbox's page (used when no registry is configured); 0 picks a free one. */
  REGISTRY_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4030),
  /**
   * The KYC (identity verification) provider: base URL, HTTP Basic credentials and the HMAC secret
   * of its webhooks, all four or none; none → the local KYC sandbox on loopback.
   */
  KYC_BASE_URL: z.url().optional(),
  KYC_CLIENT_ID: z.string().min(1).max(200).optional(),
  KYC_CLIENT_SECRET: z.string().min(1).max(200).optional(),
  KYC_WEBHOOK_SECRET: z.string().min(32).max(200).optional(),
  /** Where the provider sends its decisions; default <PUBLIC_BASE_URL>/api/kyc/webhook (the sandbox: loopback). */
  KYC_WEBHOOK_URL: z.url().optional(),
  /** Port of the local KYC sandbox (used when no provider is configured); 0 picks a free one. */
  KYC_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(4040),
  /**
   * AES-256-GCM key of identity documents at rest: 32 bytes as 64 hex digits or base64. Required
   * with a real KYC provider; without one a demo keeps a key in <DATA_DIR>/secrets/kyc-document.key.
   */
  KYC_DOCUMENT_KEY: z.string().regex(DOCUMENT_KEY, 'must be 32 bytes as 64 hex digits or base64').optional(),
  /**
   * Earlier KYC_DOCUMENT_KEYs, comma-separated, after a rotation: documents sealed under them still
   * open, and the kyc-documents-rekey job seals them again under KYC_DOCUMENT_KEY (drop a key from
   * here once the job logs none left under it).
   */
  KYC_DOCUMENT_KEYS_RETIRED: z
    .string()
    .refine(
      (text) => text.split(',').every((key) => DOCUMENT_KEY.test(key.trim())),
      'must be keys of 32 bytes (64 hex digits or base64), comma-separated',
    )
    .optional(),
  /** The local KYC sandbox's webhook key; `npm run serve` gives every worker the same (default: one per process). */
  KYC_SANDBOX_WEBHOOK_SECRET: z.string().min(32).max(200).optional(),
});
export type TConfig = z.infer<typeof ZConfig>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError naming every bad variable. Empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TConfig {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ZConfig.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') cleaned[key] = value.trim();
  }
  const result = ZConfig.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const pooled = [...poolerProblems(result.data), ...readReplicaProblems(result.data)];
  if (pooled.length > 0) throw new ConfigError(`Invalid configuration:\n${pooled.join('\n')}`);
  return result.data;
}

/** A transaction-mode pooler needs a server behind it and a direct URL for the session connections. */
function poolerProblems(config: TConfig): string[] {
  if (config.DATABASE_POOLER === 'none') return [];
  return [
    ...(config.DATABASE_URL ? [] : ["  DATABASE_URL: required with DATABASE_POOLER (the pooler's URL)"]),
    ...(config.DATABASE_DIRECT_URL
      ? []
      : [
          '  DATABASE_DIRECT_URL: required with DATABASE_POOLER (PostgreSQL itself, for LISTEN and advisory locks)',
        ]),
  ];
}

/** Read replicas are PostgreSQL standbys: the embedded database has none to read from. */
function readReplicaProblems(config: TConfig): string[] {
  if (!config.DATABASE_READ_URL || config.DATABASE_URL) return [];
  return [
    '  DATABASE_READ_URL: needs DATABASE_URL (read replicas are standbys of a PostgreSQL server; the embedded database has none)',
  ];
}

/** The configuration tests start from: quiet, captcha on, generous request limits. */
export function testConfig(overrides: Partial<TConfig> = {}): TConfig {
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'off' }),
    RATE_LIMIT_PER_MINUTE: 100_000,
    AUTH_RATE_LIMIT_PER_MINUTE: 100_000,
    // Every suite of a run logs in from 127.0.0.1 on one database: the per-address lock would
    // otherwise trip on the sum of all suites' wrong passwords (tests of it set their own).
    LOGIN_MAX_FAILURES_PER_IP: 100_000,
    CRASH_ENGINE: false,
    PROMO_JOBS: false,
    COMMUNITY_JOBS: false,
    ...overrides,
  };
}
