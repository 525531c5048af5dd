import { type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { inSnapshot, rowsOf } from '../../db/sql.ts';

/**
 * The ledger's invariants (architecture.md §3), checked from the raw tables in one consistent
 * snapshot. Drift is reported as data, never thrown: the admin job and the tests decide what to do.
 * Each check reports at most MAX_DRIFT_ROWS rows so a badly broken ledger still yields a report.
 */
export const DRIFT_CHECKS = {
  /** Sum over a site of (stored player balances + derived system balances) is not zero. */
  SITE_SUM_NONZERO: 'the balances of a site do not sum to zero',
  /** A player account's stored balance differs from credits − debits of its transfers. */
  BALANCE_MISMATCH: 'a stored balance differs from the sum of its transfers',
  /** A player account is negative (stored or by its transfers). */
  NEGATIVE_BALANCE: 'a player balance is negative',
  /** A transfer's account belongs to another site, or a player account to another site's member. */
  CROSS_SITE: 'a transfer or account crosses sites',
  /** A cash account's wagering requirement differs from the sum of its transfers' wagering deltas. */
  WAGERING_MISMATCH: 'a wagering requirement differs from its transfers',
  /** A hold's resolution moves another amount or account than the hold, or resolves a non-hold. */
  HOLD_MISMATCH: 'a withdrawal hold resolution does not match its hold',
  /**
   * A bonus account moved only by grants differs from the sum of its member's active grants, or a
   * grant's balance differs from the ledger transfers naming it (metadata.grantId) on the bonus account.
   */
  BONUS_GRANT_MISMATCH: 'a bonus grant balance differs from the ledger',
  /**
   * A member's play hours (staked, returned, reversed per UTC hour: the responsible-gaming limits'
   * sums, migration 0051) differ from the ledger's transfers of that hour. Reported in the staked
   * column when it differs, else returned, else reversed; `accountId` is the member's cash account.
   */
  PLAY_HOURS_MISMATCH: "a member's play hours differ from the ledger",
} as const;
export type TDriftCheck = keyof typeof DRIFT_CHECKS;

export const MAX_DRIFT_ROWS = 1000;

export interface Drift {
  check: TDriftCheck;
  siteId: bigint;
  accountId: bigint | null;
  transferId: bigint | null;
  /** What the ledger (transfers) says, and what is stored / observed. */
  expectedMinor: bigint | null;
  actualMinor: bigint | null;
}

export interface ReconcileReport {
  ok: boolean;
  checkedAt: Date;
  accounts: number;
  transfers: number;
  /** Per site: sum of all balances (must be 0). */
  sites: { siteId: bigint; balanceSumMinor: bigint }[];
  drift: Drift[];
}

type RawDrift = {
  site_id: unknown;
  account_id: unknown;
  transfer_id: unknown;
  expected: unknown;
  actual: unknown;
};

const big = (value: unknown): bigint | null =>
  value === null || value === undefined ? null : BigInt(String(value));

/** Checks every invariant of the ledger (all sites, or one) and reports drift. */
export async function reconcile(
  executor: Executor,
  options: { siteId?: bigint } = {},
): Promise<ReconcileReport> {
  return inSnapshot(executor, (tx) => check(tx, options.siteId ?? null));
}

async function check(tx: Tx, siteId: bigint | null): Promise<ReconcileReport> {
  const scope = scopeOf(siteId);
  const sites = await siteSums(tx, scope);
  const drift: Drift[] = sites
    .filter((s) => s.balanceSumMinor !== 0n)
    .map((s) => ({
      check: 'SITE_SUM_NONZERO',
      siteId: s.siteId,
      accountId: null,
      transferId: null,
      expectedMinor: 0n,
      actualMinor: s.balanceSumMinor,
    }));
  for (const [name, query] of DRIFT_QUERIES) {
    for (const r of await rowsOf<RawDrift>(tx, query(scope))) {
      drift.push({
        check: name,
        siteId: big(r.site_id) ?? 0n,
        accountId: big(r.account_id),
        transferId: big(r.transfer_id),
        expectedMinor: big(r.expected),
        actualMinor: big(r.actual),
      });
    }
  }
  const counts = await rowsOf<{ accounts: unknown; transfers: unknown }>(
    tx,
    sql`SELECT (SELECT count(*) FROM wallet_accounts WHERE ${scope.siteFilter('site_id')})::text AS accounts,
               (SELECT count(*) FROM wallet_transfers WHERE ${scope.siteFilter('site_id')})::text AS transfers`,
  );
  return {
    ok: drift.length === 0,
    checkedAt: new Date(),
    accounts: Number(counts[0]?.accounts ?? 0),
    transfers: Number(counts[0]?.transfers ?? 0),
    sites,
    drift,
  };
}

/** What every check's query is built from: the site filter, and the ledger's view of balances. */
type TCheckScope = { siteFilter: (column: string) => SQL; ledger: SQL };

function scopeOf(siteId: bigint | null): TCheckScope {
  const site = siteId === null ? null : siteId.toString();
  const siteFilter = (column: string) =>
    sql`(${site}::bigint IS NULL OR ${sql.raw(column)} = ${site}::bigint)`;
  // Credits − debits per account, the ledger's view of every balance.
  const ledger = sql`ledger AS (
      SELECT account_id, sum(delta) AS total FROM (
        SELECT credit_account_id AS account_id, amount_minor AS delta FROM wallet_transfers
          WHERE ${siteFilter('site_id')}
        UNION ALL
        SELECT debit_account_id, -amount_minor FROM wallet_transfers WHERE ${siteFilter('site_id')}
      ) flows GROUP BY account_id)`;
  return { siteFilter, ledger };
}

/** Per site, the sum of its stored player balances and derived system balances (must be 0). */
async function siteSums(
  tx: Tx,
  { siteFilter, ledger }: TCheckScope,
): Promise<{ siteId: bigint; balanceSumMinor: bigint }[]> {
  const rows = await rowsOf<{ site_id: unknown; total: unknown }>(
    tx,
    sql`WITH ${ledger}
        SELECT a.site_id, sum(CASE WHEN a.member_id IS NULL THEN COALESCE(l.total, 0) ELSE a.balance_minor END)::text AS total
        FROM wallet_accounts a LEFT JOIN ledger l ON l.account_id = a.id
        WHERE ${siteFilter('a.site_id')}
        GROUP BY a.site_id ORDER BY a.site_id`,
  );
  return rows.map((r) => ({ siteId: big(r.site_id) ?? 0n, balanceSumMinor: big(r.total) ?? 0n }));
}

/** The query of each check's drift rows (at most MAX_DRIFT_ROWS each), in the order they run. */
const DRIFT_QUERIES: [Exclude<TDriftCheck, 'SITE_SUM_NONZERO'>, (scope: TCheckScope) => SQL][] = [
  ['BALANCE_MISMATCH', balanceMismatch],
  ['NEGATIVE_BALANCE', negativeBalance],
  ['CROSS_SITE', crossSite],
  ['WAGERING_MISMATCH', wageringMismatch],
  ['HOLD_MISMATCH', holdMismatch],
  ['BONUS_GRANT_MISMATCH', bonusGrantMismatch],
  ['PLAY_HOURS_MISMATCH', playHoursMismatch],
];

/** BALANCE_MISMATCH: a stored balance differs from the sum of its transfers. */
function balanceMismatch({ siteFilter, ledger }: TCheckScope): SQL {
  return sql`WITH ${ledger}
      SELECT a.site_id, a.id AS account_id, NULL AS transfer_id,
             COALESCE(l.total, 0)::text AS expected, a.balance_minor::text AS actual
      FROM wallet_accounts a LEFT JOIN ledger l ON l.account_id = a.id
      WHERE a.member_id IS NOT NULL AND ${siteFilter('a.site_id')}
        AND a.balance_minor IS DISTINCT FROM COALESCE(l.total, 0)
      ORDER BY a.id LIMIT ${MAX_DRIFT_ROWS}`;
}

/** NEGATIVE_BALANCE: a player balance is negative. */
function negativeBalance({ siteFilter, ledger }: TCheckScope): SQL {
  return sql`WITH ${ledger}
      SELECT a.site_id, a.id AS account_id, NULL AS transfer_id,
             0 AS expected, LEAST(a.balance_minor, COALESCE(l.total, 0))::text AS actual
      FROM wallet_accounts a LEFT JOIN ledger l ON l.account_id = a.id
      WHERE a.member_id IS NOT NULL AND ${siteFilter('a.site_id')}
        AND (a.balance_minor < 0 OR COALESCE(l.total, 0) < 0)
      ORDER BY a.id LIMIT ${MAX_DRIFT_ROWS}`;
}

/** CROSS_SITE: a transfer or account crosses sites. */
function crossSite({ siteFilter }: TCheckScope): SQL {
  return sql`SELECT t.site_id, a.id AS account_id, t.id AS transfer_id,
             t.site_id::text AS expected, a.site_id::text AS actual
      FROM wallet_transfers t
      JOIN wallet_accounts a ON a.id IN (t.debit_account_id, t.credit_account_id)
      WHERE a.site_id <> t.site_id AND ${siteFilter('t.site_id')}
      UNION ALL
      SELECT a.site_id, a.id, NULL, a.site_id::text, m.site_id::text
      FROM wallet_accounts a JOIN members m ON m.id = a.member_id
      WHERE m.site_id <> a.site_id AND ${siteFilter('a.site_id')}
      LIMIT ${MAX_DRIFT_ROWS}`;
}

/** WAGERING_MISMATCH: a wagering requirement differs from its transfers. */
function wageringMismatch({ siteFilter }: TCheckScope): SQL {
  return sql`SELECT a.site_id, a.id AS account_id, NULL AS transfer_id,
             COALESCE(w.total, 0)::text AS expected, a.wagering_required_minor::text AS actual
      FROM wallet_accounts a
      LEFT JOIN (SELECT wagering_account_id, sum(wagering_delta_minor) AS total FROM wallet_transfers
                 WHERE wagering_account_id IS NOT NULL GROUP BY wagering_account_id) w
        ON w.wagering_account_id = a.id
      WHERE a.kind = 'cash' AND ${siteFilter('a.site_id')}
        AND (a.wagering_required_minor IS DISTINCT FROM COALESCE(w.total, 0) OR a.wagering_required_minor < 0)
      ORDER BY a.id LIMIT ${MAX_DRIFT_ROWS}`;
}

/** HOLD_MISMATCH: a withdrawal hold resolution does not match its hold. */
function holdMismatch({ siteFilter }: TCheckScope): SQL {
  return sql`SELECT r.site_id, r.debit_account_id AS account_id, r.id AS transfer_id,
             h.amount_minor::text AS expected, r.amount_minor::text AS actual
      FROM wallet_transfers r JOIN wallet_transfers h ON h.id = r.hold_transfer_id
      WHERE ${siteFilter('r.site_id')}
        AND (h.kind <> 'withdrawal_hold' OR h.amount_minor <> r.amount_minor
             OR h.credit_account_id <> r.debit_account_id OR h.site_id <> r.site_id)
      ORDER BY r.id LIMIT ${MAX_DRIFT_ROWS}`;
}

/** BONUS_GRANT_MISMATCH: a bonus grant balance differs from the ledger. */
function bonusGrantMismatch({ siteFilter }: TCheckScope): SQL {
  return sql`SELECT a.site_id, a.id AS account_id, NULL AS transfer_id,
             a.balance_minor::text AS expected, COALESCE(g.total, 0)::text AS actual
      FROM wallet_accounts a
      LEFT JOIN (SELECT member_id, sum(balance_minor) AS total FROM bonus_grants
                 WHERE status = 'active' GROUP BY member_id) g ON g.member_id = a.member_id
      WHERE a.kind = 'bonus' AND ${siteFilter('a.site_id')}
        AND a.balance_minor <> COALESCE(g.total, 0)
        -- Accounts credited outside grants (before grants existed) are checked per grant only.
        AND NOT EXISTS (SELECT 1 FROM wallet_transfers u
                        WHERE a.id IN (u.debit_account_id, u.credit_account_id) AND NOT (u.metadata ? 'grantId'))
      UNION ALL
      SELECT g.site_id, NULL, g.id, COALESCE(l.total, 0)::text, g.balance_minor::text
      FROM bonus_grants g
      JOIN wallet_accounts a ON a.member_id = g.member_id AND a.kind = 'bonus'
      LEFT JOIN (
        SELECT grant_id, sum(delta) AS total FROM (
          SELECT (t.metadata->>'grantId')::bigint AS grant_id,
                 CASE WHEN t.credit_account_id = b.id THEN t.amount_minor ELSE -t.amount_minor END AS delta
          FROM wallet_transfers t
          JOIN wallet_accounts b ON b.kind = 'bonus' AND b.id IN (t.debit_account_id, t.credit_account_id)
          WHERE t.metadata ? 'grantId' AND ${siteFilter('t.site_id')}
        ) moves GROUP BY grant_id) l ON l.grant_id = g.id
      WHERE g.campaign_code <> 'legacy' AND ${siteFilter('g.site_id')}
        AND g.balance_minor <> COALESCE(l.total, 0)
      LIMIT ${MAX_DRIFT_ROWS}`;
}

/**
 * PLAY_HOURS_MISMATCH: a member's play hours differ from the ledger. Both sides of the site's
 * members only: the back office reconciles one site at a time.
 */
function playHoursMismatch({ siteFilter }: TCheckScope): SQL {
  return sql`WITH ledger AS (
        SELECT p.member_id, p.hour, sum(p.staked_minor) AS staked, sum(p.returned_minor) AS returned,
               sum(p.reversed_minor) AS reversed
        FROM wallet_play_moves p JOIN members m ON m.id = p.member_id
        WHERE ${siteFilter('m.site_id')}
        GROUP BY p.member_id, p.hour),
      kept AS (
        SELECT h.* FROM member_play_hours h JOIN members m ON m.id = h.member_id
        WHERE ${siteFilter('m.site_id')})
      SELECT m.site_id,
        (SELECT c.id FROM wallet_accounts c WHERE c.member_id = m.id AND c.kind = 'cash') AS account_id,
        NULL AS transfer_id,
        (CASE WHEN l.staked IS DISTINCT FROM k.staked_minor THEN coalesce(l.staked, 0)
              WHEN l.returned IS DISTINCT FROM k.returned_minor THEN coalesce(l.returned, 0)
              ELSE coalesce(l.reversed, 0) END)::text AS expected,
        (CASE WHEN l.staked IS DISTINCT FROM k.staked_minor THEN coalesce(k.staked_minor, 0)
              WHEN l.returned IS DISTINCT FROM k.returned_minor THEN coalesce(k.returned_minor, 0)
              ELSE coalesce(k.reversed_minor, 0) END)::text AS actual
      FROM kept k FULL JOIN ledger l ON l.member_id = k.member_id AND l.hour = k.hour
      JOIN members m ON m.id = coalesce(k.member_id, l.member_id)
      WHERE (l.staked, l.returned, l.reversed) IS DISTINCT FROM (k.staked_minor, k.returned_minor, k.reversed_minor)
      LIMIT ${MAX_DRIFT_ROWS}`;
}
