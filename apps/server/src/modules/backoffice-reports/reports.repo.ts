import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern, isoOf, rowsOf } from '../../db/sql.ts';
import type { TPaging } from './reports.format.ts';

/**
 * The SQL of the back-office reports. Every query reads raw SQL with values cast to text in SQL, so
 * PGlite and PostgreSQL give the same strings (no driver-specific Date or bigint parsing).
 */

/** LIMIT/OFFSET of a page. */
export function limitOffset(paging: TPaging): SQL {
  return sql`LIMIT ${paging.pageSize} OFFSET ${(paging.page - 1) * paging.pageSize}`;
}

/** What the site's players hold, per account kind. */
export async function sumPlayerBalances(executor: Executor, siteId: bigint) {
  const [players] = await rowsOf<{ cash: unknown; bonus: unknown; withdrawal_hold: unknown }>(
    executor,
    sql`SELECT COALESCE(sum(balance_minor) FILTER (WHERE kind = 'cash'), 0)::text AS cash,
               COALESCE(sum(balance_minor) FILTER (WHERE kind = 'bonus'), 0)::text AS bonus,
               COALESCE(sum(balance_minor) FILTER (WHERE kind = 'withdrawal_hold'), 0)::text AS withdrawal_hold
        FROM wallet_accounts WHERE site_id = ${siteId.toString()}::bigint AND member_id IS NOT NULL`,
  );
  return players;
}

export async function findCrashChainsPage(executor: Executor, paging: TPaging) {
  const [count] = await rowsOf<{ n: unknown }>(executor, sql`SELECT count(*)::text AS n FROM crash_chains`);
  const rows = await rowsOf<{
    id: unknown;
    terminating_hash: string;
    public_salt: string | null;
    salt_source: string;
    salt_fixed_at: string | null;
    length: unknown;
    position: unknown;
    created_at: string;
    first_round_at: string | null;
    last_round_at: string | null;
  }>(
    executor,
    sql`SELECT c.id::text AS id, c.terminating_hash, c.public_salt, c.salt_source,
          ${isoOf('c.salt_fixed_at')} AS salt_fixed_at, c.length::text AS length,
          c.position::text AS position, ${isoOf('c.created_at')} AS created_at,
          (SELECT ${isoOf('min(r.created_at)')} FROM crash_rounds r WHERE r.chain_id = c.id) AS first_round_at,
          (SELECT ${isoOf('max(r.created_at)')} FROM crash_rounds r WHERE r.chain_id = c.id) AS last_round_at
        FROM crash_chains c ORDER BY c.id DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

export async function crashChainExists(executor: Executor, chainId: number): Promise<boolean> {
  const [chain] = await rowsOf<{ id: unknown }>(
    executor,
    sql`SELECT id::text AS id FROM crash_chains WHERE id = ${String(chainId)}::bigint`,
  );
  return chain !== undefined;
}

export async function findCrashRoundsPage(executor: Executor, chainId: number, paging: TPaging) {
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM crash_rounds WHERE chain_id = ${String(chainId)}::bigint`,
  );
  const rows = await rowsOf<{
    id: unknown;
    position: unknown;
    state: string;
    hash_commitment: string;
    round_hash: string | null;
    crash_point: string | null;
    created_at: string;
    crashed_at: string | null;
    bets: unknown;
  }>(
    executor,
    sql`SELECT r.id::text AS id, r.position::text AS position, r.state, r.hash_commitment,
          CASE WHEN r.state = 'crashed' THEN r.round_hash END AS round_hash,
          CASE WHEN r.state = 'crashed' THEN to_char(r.crash_hundredths / 100.0, 'FM999999990.00') END AS crash_point,
          ${isoOf('r.created_at')} AS created_at, ${isoOf('r.crashed_at')} AS crashed_at,
          (SELECT count(*) FROM crash_bets b WHERE b.round_id = r.id)::text AS bets
        FROM crash_rounds r WHERE r.chain_id = ${String(chainId)}::bigint
        ORDER BY r.position DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

/** The site's mail, newest first, by status and recipient/subject/username text. */
export async function findMailPage(
  executor: Executor,
  siteId: bigint,
  filter: { status?: string | undefined; q?: string | undefined },
  paging: TPaging,
) {
  const conditions = [sql`o.site_id = ${siteId.toString()}::bigint`];
  if (filter.status) conditions.push(sql`o.status = ${filter.status}`);
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(
      sql`(o.to_address ILIKE ${pattern} OR o.subject ILIKE ${pattern} OR m.username ILIKE ${pattern})`,
    );
  }
  const where = sql.join(conditions, sql` AND `);
  const from = sql`FROM mail_outbox o LEFT JOIN members m ON m.id = o.member_id WHERE ${where}`;
  const [count] = await rowsOf<{ n: unknown }>(executor, sql`SELECT count(*)::text AS n ${from}`);
  const rows = await rowsOf<{
    id: unknown;
    created_at: string;
    to_address: string;
    username: string | null;
    subject: string;
    body_text: string;
    status: string;
    attempts: unknown;
    last_error: string | null;
    sent_at: string | null;
  }>(
    executor,
    sql`SELECT o.id::text AS id, ${isoOf('o.created_at')} AS created_at, o.to_address, m.username, o.subject,
          o.body_text, o.status, o.attempts::text AS attempts, o.last_error, ${isoOf('o.sent_at')} AS sent_at
        ${from} ORDER BY o.id DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

export type TFigureRow = {
  day: string | null;
  deposits: unknown;
  deposits_count: unknown;
  withdrawals: unknown;
  withdrawals_count: unknown;
  bets: unknown;
  bets_bonus: unknown;
  bets_count: unknown;
  wins: unknown;
  refunds: unknown;
  bonus_cost: unknown;
  corrections: unknown;
  active_players: unknown;
  depositors: unknown;
};

/**
 * A site's figures per local day of the period and for the whole period (`day` null), and its
 * sign-ups likewise.
 */
export async function findDashboardFigures(
  executor: Executor,
  siteId: string,
  period: { from: string; to: string; timeZone: string },
): Promise<{ figures: TFigureRow[]; signups: { day: string | null; n: unknown }[] }> {
  const { from, to, timeZone } = period;
  // Local midnight of the first day and of the day after the last, as instants.
  const lo = sql`((${from}::date)::timestamp AT TIME ZONE ${timeZone})`;
  const hi = sql`(((${to}::date) + 1)::timestamp AT TIME ZONE ${timeZone})`;

  // One scan of the period's transfers; GROUPING SETS gives each day and the whole period (distinct
  // player counts of the period are not the sum of the days').
  const figures = await rowsOf<TFigureRow>(
    executor,
    sql`WITH moves AS (
          SELECT t.kind, t.amount_minor AS amount,
                 da.kind AS debit_kind, da.member_id AS debit_member,
                 ca.kind AS credit_kind, ca.member_id AS credit_member,
                 to_char((t.created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day
          FROM wallet_transfers t
          JOIN wallet_accounts da ON da.id = t.debit_account_id
          JOIN wallet_accounts ca ON ca.id = t.credit_account_id
          WHERE t.site_id = ${siteId}::bigint AND t.created_at >= ${lo} AND t.created_at < ${hi})
        SELECT day,
          COALESCE(sum(amount) FILTER (WHERE kind = 'deposit' AND credit_member IS NOT NULL), 0)::text AS deposits,
          count(*) FILTER (WHERE kind = 'deposit' AND credit_member IS NOT NULL)::text AS deposits_count,
          COALESCE(sum(amount) FILTER (WHERE kind = 'withdrawal_payout'), 0)::text AS withdrawals,
          count(*) FILTER (WHERE kind = 'withdrawal_payout')::text AS withdrawals_count,
          COALESCE(sum(amount) FILTER (WHERE kind = 'bet' AND debit_member IS NOT NULL), 0)::text AS bets,
          COALESCE(sum(amount) FILTER (WHERE kind = 'bet' AND debit_kind = 'bonus'), 0)::text AS bets_bonus,
          count(*) FILTER (WHERE kind = 'bet' AND debit_member IS NOT NULL)::text AS bets_count,
          (COALESCE(sum(amount) FILTER (WHERE kind = 'win' AND credit_member IS NOT NULL), 0)
           - COALESCE(sum(amount) FILTER (WHERE kind = 'win_reversal' AND debit_member IS NOT NULL), 0))::text AS wins,
          COALESCE(sum(amount) FILTER (WHERE kind = 'refund' AND credit_member IS NOT NULL), 0)::text AS refunds,
          COALESCE(sum(CASE WHEN debit_kind = 'promotions_expense' THEN amount
                            WHEN credit_kind = 'promotions_expense' THEN -amount ELSE 0 END), 0)::text AS bonus_cost,
          COALESCE(sum(CASE WHEN kind <> 'correction' THEN 0
                            WHEN credit_member IS NOT NULL THEN amount
                            WHEN debit_member IS NOT NULL THEN -amount ELSE 0 END), 0)::text AS corrections,
          count(DISTINCT debit_member) FILTER (WHERE kind = 'bet')::text AS active_players,
          count(DISTINCT credit_member) FILTER (WHERE kind = 'deposit')::text AS depositors
        FROM moves
        GROUP BY GROUPING SETS ((day), ())`,
  );
  const signups = await rowsOf<{ day: string | null; n: unknown }>(
    executor,
    sql`SELECT day, count(*)::text AS n FROM (
          SELECT to_char((created_at AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS day
          FROM members
          WHERE site_id = ${siteId}::bigint AND created_at >= ${lo} AND created_at < ${hi}) joined
        GROUP BY GROUPING SETS ((day), ())`,
  );

  return { figures, signups };
}
