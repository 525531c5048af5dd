import { z } from 'zod';
import { ZAdminPage, ZAdminPageQuery } from './admin.ts';
import { ZMoney, ZMoneyInput } from './deposits.ts';
import { M, requiredString } from './validation.ts';

/**
 * Back-office data (issue 15): the dashboard, players (search, detail, actions), the wallet's
 * reconciliation, crash chain commitments and the mail outbox. Every figure comes from the ledger
 * (wallet_transfers) or the orders; money is a decimal string with two places ("1234.56").
 */

const ZDay = z
  .string({ error: M.wrongType })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.invalid' })
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)), { error: 'validation.invalid' });

/** Presets of the dashboard's period, counted in the site's time zone (today counts as one day). */
export const DASHBOARD_PRESETS = ['today', '7d', '30d'] as const;
export type TDashboardPreset = (typeof DASHBOARD_PRESETS)[number];

/** The longest period the dashboard sums at once (its daily series has one point per day). */
export const DASHBOARD_MAX_DAYS = 366;

/**
 * GET /api/admin/dashboard?preset=7d or ?from=2026-11-01&to=2026-11-25 (both days included, in the
 * site's time zone). Neither: the last 7 days. `format=csv`: the daily series as a CSV file.
 */
export const ZDashboardQuery = z.object({
  lang: z.string().max(16).optional(),
  preset: z.enum(DASHBOARD_PRESETS).optional(),
  from: ZDay.optional(),
  to: ZDay.optional(),
  format: z.enum(['json', 'csv']).optional(),
});
export type TDashboardQuery = z.infer<typeof ZDashboardQuery>;

const ZDashboardFigures = z.object({
  deposits: ZMoney.describe('paid deposits credited (ledger kind deposit)'),
  deposits_count: z.number().int(),
  withdrawals: ZMoney.describe('withdrawals paid out (withdrawal_payout, fees included)'),
  withdrawals_count: z.number().int(),
  bets: ZMoney.describe('stakes taken from players (cash and bonus)'),
  bets_bonus: ZMoney.describe('the part of the stakes paid with bonus money'),
  bets_count: z.number().int(),
  wins: ZMoney.describe('winnings paid to players'),
  refunds: ZMoney.describe('stakes given back (rolled-back rounds)'),
  ggr: ZMoney.describe('gross gaming revenue: bets − wins − refunds'),
  bonus_cost: ZMoney.describe('what promotions cost: net outflow of the promotions expense account'),
  ngr: ZMoney.describe('net gaming revenue: GGR − bonus cost'),
  corrections: ZMoney.describe('net manual balance corrections credited to players'),
  active_players: z.number().int().describe('players with at least one bet'),
  new_players: z.number().int().describe('sign-ups'),
  depositors: z.number().int().describe('players with at least one deposit'),
});
export type TDashboardFigures = z.infer<typeof ZDashboardFigures>;

export const ZDashboardResponse = z.object({
  site: z.string().describe('site code'),
  time_zone: z.string().describe('IANA zone the days are counted in'),
  from: z.string().describe('first day, YYYY-MM-DD'),
  to: z.string().describe('last day, YYYY-MM-DD (included)'),
  totals: ZDashboardFigures,
  daily: z.array(ZDashboardFigures.extend({ date: z.string().describe('YYYY-MM-DD') })),
});
export type TDashboardResponse = z.infer<typeof ZDashboardResponse>;

/** Which field the player search looks in (any: all of them). */
export const PLAYER_SEARCH_FIELDS = ['any', 'username', 'cpf', 'phone', 'email', 'address', 'name'] as const;
export type TPlayerSearchField = (typeof PLAYER_SEARCH_FIELDS)[number];

/**
 * GET /api/admin/players?q=&field=&status=: players of the operator's site whose field contains `q`
 * (case-insensitive; CPF and phone also match without punctuation; `address` is the IP address the
 * player signed up or logged in from). Paged (page, page_size, total) or CSV.
 */
export const ZPlayerSearchQuery = ZAdminPageQuery.extend({
  q: z
    .string()
    .trim()
    .max(100, { error: M.tooLong })
    .optional()
    .describe(
      'contains, any case; without the players.pii permission CPF, e-mail and phone match only as a whole value',
    ),
  field: z.enum(PLAYER_SEARCH_FIELDS).optional(),
  status: z.enum(['active', 'frozen']).optional(),
});
export type TPlayerSearchQuery = z.infer<typeof ZPlayerSearchQuery>;

export const ZPlayerRow = z.object({
  id: z.number().int(),
  username: z.string(),
  realname: z.string(),
  cpf: z.string().nullable().describe('masked (***.456.789-**) without the players.pii permission'),
  phone: z.string().describe('masked (+55 11 *****-4321) without the players.pii permission'),
  email: z.string().nullable().describe('masked (j***@d***.com) without the players.pii permission'),
  register_ip: z.string().nullable().describe('masked (203.0.*.*) without the players.pii permission'),
  status: z.enum(['active', 'frozen']),
  cash: ZMoney,
  bonus: ZMoney,
  created_at: z.string(),
  last_login_at: z.string().nullable(),
});
export type TPlayerRow = z.infer<typeof ZPlayerRow>;
export const ZPlayerSearchResponse = ZAdminPage(ZPlayerRow);
export type TPlayerSearchResponse = z.infer<typeof ZPlayerSearchResponse>;

export const ZPlayerParams = z.object({
  id: z.coerce.number({ error: M.wrongType }).int().positive().max(Number.MAX_SAFE_INTEGER),
});

export const ZAdminRgLimit = z.object({
  kind: z.string(),
  period: z.string(),
  value: z.string().nullable().describe('money limits "0.00", session time in minutes'),
  pending_value: z.string().nullable(),
  pending_remove: z.boolean(),
  pending_effective_at: z.string().nullable(),
});
export const ZAdminRgExclusion = z.object({
  kind: z.string(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  active: z.boolean(),
});

/** GET /api/admin/players/:id: profile, balances, responsible-gaming state and counters. */
export const ZPlayerDetail = z.object({
  profile: ZPlayerRow.extend({
    nickname: z.string().nullable(),
    birth_date: z.string().nullable(),
    lang: z.string(),
    level: z.number().int(),
    invite_code: z.string(),
    email_verified: z.boolean(),
    totp_enabled: z.boolean(),
    is_demo: z.boolean(),
  }),
  balances: z.object({
    cash: ZMoney,
    bonus: ZMoney,
    withdrawal_hold: ZMoney,
    wagering_required: ZMoney,
    withdrawable: ZMoney,
  }),
  totals: z.object({
    deposits: ZMoney,
    withdrawals: ZMoney,
    bets: ZMoney,
    wins: ZMoney,
  }),
  online_sessions: z.number().int(),
  rg: z.object({ limits: z.array(ZAdminRgLimit), exclusions: z.array(ZAdminRgExclusion) }),
});
export type TPlayerDetail = z.infer<typeof ZPlayerDetail>;

/** GET /api/admin/players/:id/transfers?kind=: the player's ledger, newest first. */
export const ZPlayerTransfersQuery = ZAdminPageQuery.extend({
  kind: z.string().max(32).optional(),
});
export const ZPlayerTransfer = z.object({
  id: z.number().int(),
  created_at: z.string(),
  kind: z.string(),
  account: z.enum(['cash', 'bonus', 'withdrawal_hold']),
  counterparty: z.string().describe('the other account: a system account or another of the player'),
  change: z.string().describe('signed: "+10.00" into the account, "-10.00" out of it'),
  balance_after: ZMoney,
  reference: z.string(),
  idempotency_key: z.string(),
});
export const ZPlayerTransfersResponse = ZAdminPage(ZPlayerTransfer);

/** GET /api/admin/players/:id/rounds: in-house, crash and provider rounds, newest first. */
export const ZPlayerRound = z.object({
  source: z.enum(['originals', 'crash', 'provider']),
  id: z.string(),
  game: z.string(),
  created_at: z.string(),
  status: z.string(),
  stake: ZMoney,
  payout: ZMoney,
  multiplier: z.string().nullable(),
});
export const ZPlayerRoundsResponse = ZAdminPage(ZPlayerRound);

export const ZPlayerSession = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  ended_at: z.string().nullable(),
  end_reason: z.string().nullable(),
  active: z.boolean(),
  restricted: z.boolean(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
});
export const ZPlayerSessionsResponse = ZAdminPage(ZPlayerSession);

export const ZPlayerNote = z.object({
  id: z.number().int(),
  created_at: z.string(),
  operator: z.string(),
  body: z.string(),
});
export const ZPlayerNotesResponse = ZAdminPage(ZPlayerNote);

/** POST /api/admin/players/:id/notes */
export const ZPlayerNoteRequest = z.object({ body: requiredString('note', 2000) });
export type TPlayerNoteRequest = z.infer<typeof ZPlayerNoteRequest>;

/** One entry of the operators' audit log. */
export const ZAuditEntry = z.object({
  id: z.number().int(),
  created_at: z.string(),
  operator: z.string(),
  action: z.string(),
  entity: z.string().nullable(),
  entity_id: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export const ZPlayerAuditResponse = ZAdminPage(ZAuditEntry);

/** POST /api/admin/players/:id/freeze and /unfreeze: a mandatory reason, kept in the audit log. */
export const ZPlayerStatusRequest = z.object({ reason: requiredString('reason', 500) });
export type TPlayerStatusRequest = z.infer<typeof ZPlayerStatusRequest>;
export const ZPlayerStatusResponse = z.object({
  id: z.number().int(),
  status: z.enum(['active', 'frozen']),
  sessions_ended: z.number().int(),
});

/**
 * POST /api/admin/players/:id/adjust-balance: a correcting ledger transfer between the player's
 * cash and the site's suspense account (credit: to the player; debit: from the player). The reason
 * is mandatory; `idempotency_key` makes a retried click post it once.
 */
export const ZBalanceAdjustRequest = z.object({
  direction: z.enum(['credit', 'debit'], { error: M.required('type') }),
  amount: ZMoneyInput('amount'),
  reason: requiredString('reason', 500),
  idempotency_key: z
    .string({ error: M.required('idempotency_key') })
    .regex(/^[A-Za-z0-9_.:-]{8,64}$/, { error: 'validation.invalid' }),
});
export type TBalanceAdjustRequest = z.input<typeof ZBalanceAdjustRequest>;
export const ZBalanceAdjustResponse = z.object({
  transfer_id: z.number().int(),
  direction: z.enum(['credit', 'debit']),
  amount: ZMoney,
  cash_after: ZMoney,
  replayed: z.boolean(),
});
export type TBalanceAdjustResponse = z.infer<typeof ZBalanceAdjustResponse>;

/** GET /api/admin/reconciliation: the wallet's invariants checked for the operator's site. */
export const ZReconciliationResponse = z.object({
  ok: z.boolean(),
  checked_at: z.string(),
  accounts: z.number().int(),
  transfers: z.number().int(),
  balance_sum: z.string().describe('sum of every balance of the site: must be "0.00"'),
  player_balances: z.object({ cash: ZMoney, bonus: ZMoney, withdrawal_hold: ZMoney }),
  system_balances: z.record(z.string(), ZMoney),
  drift: z.array(
    z.object({
      check: z.string(),
      description: z.string(),
      account_id: z.string().nullable(),
      transfer_id: z.string().nullable(),
      expected: z.string().nullable(),
      actual: z.string().nullable(),
    }),
  ),
});
export type TReconciliationResponse = z.infer<typeof ZReconciliationResponse>;

/** GET /api/admin/crash/chains: the published commitments (never the secret terminal seed). */
export const ZCrashChainRow = z.object({
  id: z.number().int(),
  terminating_hash: z.string(),
  public_salt: z.string().nullable().describe("null until the first round fixes it from the players' seeds"),
  salt_source: z.string().describe("'bets' (from players' client seeds) or 'server' (older chains)"),
  salt_fixed_at: z.string().nullable(),
  length: z.number().int(),
  position: z.number().int().describe('rounds played so far'),
  created_at: z.string(),
  first_round_at: z.string().nullable(),
  last_round_at: z.string().nullable(),
});
export const ZCrashChainsAdminResponse = ZAdminPage(ZCrashChainRow);

export const ZCrashChainParams = z.object({
  id: z.coerce.number({ error: M.wrongType }).int().positive().max(Number.MAX_SAFE_INTEGER),
});
/** GET /api/admin/crash/chains/:id/rounds: round hashes and results only once crashed. */
export const ZCrashRoundAdminRow = z.object({
  id: z.number().int(),
  position: z.number().int(),
  state: z.string(),
  hash_commitment: z.string(),
  round_hash: z.string().nullable(),
  crash_point: z.string().nullable(),
  created_at: z.string(),
  crashed_at: z.string().nullable(),
  bets: z.number().int(),
});
export const ZCrashRoundsAdminResponse = ZAdminPage(ZCrashRoundAdminRow);

/** GET /api/admin/mail-outbox?status=&q=: mail of the site, newest first; codes in bodies masked. */
export const ZMailOutboxQuery = ZAdminPageQuery.extend({
  status: z.enum(['pending', 'sent', 'failed']).optional(),
  q: z.string().trim().max(100, { error: M.tooLong }).optional(),
});
export const ZMailOutboxRow = z.object({
  id: z.number().int(),
  created_at: z.string(),
  to_address: z.string(),
  username: z.string().nullable(),
  subject: z.string(),
  body: z.string().describe('the text, with one-time codes masked'),
  status: z.string(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
});
export const ZMailOutboxResponse = ZAdminPage(ZMailOutboxRow);
