import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * SQL of the live feed: reads of crash_bets and game_rounds (written by the crash and originals
 * modules) joined with members for the name shown masked. Only real-money rows (member_id set), and
 * a crash point only once its round has crashed. Bigints travel as text, times as epoch ms.
 */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const id = (value: bigint) => sql`${value.toString()}::bigint`;

export type TRoundBetRow = {
  memberId: bigint;
  username: string;
  stakeMinor: bigint;
  status: 'placed' | 'cashed' | 'lost';
  cashoutHundredths: number | null;
  payoutMinor: bigint;
};

/** The round's real-money bets on the site, biggest stake first (at most `limit`), and their totals. */
export async function findRoundBets(
  executor: Executor,
  siteId: bigint,
  roundId: bigint,
  limit: number,
): Promise<{ rows: TRoundBetRow[]; count: number; totalMinor: bigint }> {
  const rows = await rowsOf<{
    member_id: string;
    username: string;
    stake_minor: string;
    status: TRoundBetRow['status'];
    cashout_hundredths: number | null;
    payout_minor: string;
  }>(
    executor,
    sql`SELECT b.member_id::text, m.username, b.stake_minor::text, b.status, b.cashout_hundredths,
               b.payout_minor::text
        FROM crash_bets b JOIN members m ON m.id = b.member_id
        WHERE b.round_id = ${id(roundId)} AND b.site_id = ${id(siteId)} AND b.member_id IS NOT NULL
        ORDER BY b.stake_minor DESC, b.id LIMIT ${limit}`,
  );
  const [totals] = await rowsOf<{ count: number; total: string }>(
    executor,
    sql`SELECT count(*)::int AS count, coalesce(sum(stake_minor), 0)::text AS total FROM crash_bets
        WHERE round_id = ${id(roundId)} AND site_id = ${id(siteId)} AND member_id IS NOT NULL`,
  );
  return {
    rows: rows.map((r) => ({
      memberId: BigInt(r.member_id),
      username: r.username,
      stakeMinor: BigInt(r.stake_minor),
      status: r.status,
      cashoutHundredths: r.cashout_hundredths === null ? null : Number(r.cashout_hundredths),
      payoutMinor: BigInt(r.payout_minor),
    })),
    count: Number(totals?.count ?? 0),
    totalMinor: BigInt(totals?.total ?? '0'),
  };
}

export type TOwnCrashBetRow = {
  roundId: bigint;
  stakeMinor: bigint;
  status: 'placed' | 'cashed' | 'lost';
  cashoutHundredths: number | null;
  crashHundredths: number | null;
  payoutMinor: bigint;
  createdAt: number;
};

/** The owner's last crash bets, newest first, with the crash point of rounds that have crashed. */
export async function findOwnCrashBets(
  executor: Executor,
  owner: { memberId: bigint } | { demoSessionId: bigint },
  limit: number,
): Promise<TOwnCrashBetRow[]> {
  const ownerFilter =
    'memberId' in owner
      ? sql`b.member_id = ${id(owner.memberId)}`
      : sql`b.demo_session_id = ${id(owner.demoSessionId)}`;
  const rows = await rowsOf<{
    round_id: string;
    stake_minor: string;
    status: TOwnCrashBetRow['status'];
    cashout_hundredths: number | null;
    crash_hundredths: number | null;
    payout_minor: string;
    created_ms: number;
  }>(
    executor,
    sql`SELECT b.round_id::text, b.stake_minor::text, b.status, b.cashout_hundredths,
               CASE WHEN r.state = 'crashed' THEN r.crash_hundredths END AS crash_hundredths,
               b.payout_minor::text, (extract(epoch from b.created_at) * 1000)::float8 AS created_ms
        FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id
        WHERE ${ownerFilter} ORDER BY b.id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    roundId: BigInt(r.round_id),
    stakeMinor: BigInt(r.stake_minor),
    status: r.status,
    cashoutHundredths: r.cashout_hundredths === null ? null : Number(r.cashout_hundredths),
    crashHundredths: r.crash_hundredths === null ? null : Number(r.crash_hundredths),
    payoutMinor: BigInt(r.payout_minor),
    createdAt: Math.round(Number(r.created_ms)),
  }));
}

export type TWinRow = {
  id: string;
  gameCode: string;
  gameName: string;
  username: string;
  stakeMinor: bigint;
  payoutMinor: bigint;
  /** The multiplier as text with 2+ places ("2.0000" for in-house rounds, hundredths for crash). */
  multiplier: string;
  at: number;
};

/**
 * The latest real-money wins (payout above stake) on the site's in-house games: settled rounds of
 * the instant games and crash cash-outs, newest first. `gameCode` narrows to one game.
 */
export async function findRecentWins(
  executor: Executor,
  siteId: bigint,
  gameCode: string | null,
  limit: number,
): Promise<TWinRow[]> {
  const wantRounds = gameCode === null || gameCode !== 'crash';
  const wantCrash = gameCode === null || gameCode === 'crash';
  const parts: SQL[] = [];
  if (wantRounds) {
    parts.push(sql`(SELECT 'round:' || g.id::text AS id, g.game_code, coalesce(gm.name, g.game_code) AS game_name,
               m.username, g.stake_minor::text AS stake_minor, g.payout_minor::text AS payout_minor,
               g.multiplier, (extract(epoch from g.settled_at) * 1000)::float8 AS at_ms
        FROM game_rounds g JOIN members m ON m.id = g.member_id LEFT JOIN games gm ON gm.id = g.game_id
        WHERE g.site_id = ${id(siteId)} AND g.member_id IS NOT NULL AND g.status = 'settled'
          AND g.payout_minor > g.stake_minor ${gameCode ? sql`AND g.game_code = ${gameCode}` : sql``}
        ORDER BY g.settled_at DESC LIMIT ${limit})`);
  }
  if (wantCrash) {
    parts.push(sql`(SELECT 'crash:' || b.id::text AS id, 'crash' AS game_code, 'Crash' AS game_name, m.username,
               b.stake_minor::text AS stake_minor, b.payout_minor::text AS payout_minor,
               (b.cashout_hundredths / 100.0)::numeric(12, 2)::text AS multiplier,
               (extract(epoch from b.settled_at) * 1000)::float8 AS at_ms
        FROM crash_bets b JOIN members m ON m.id = b.member_id
        WHERE b.site_id = ${id(siteId)} AND b.member_id IS NOT NULL AND b.status = 'cashed'
        ORDER BY b.settled_at DESC LIMIT ${limit})`);
  }
  const rows = await rowsOf<{
    id: string;
    game_code: string;
    game_name: string;
    username: string;
    stake_minor: string;
    payout_minor: string;
    multiplier: string;
    at_ms: number;
  }>(
    executor,
    sql`SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) wins ORDER BY at_ms DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    gameCode: r.game_code,
    gameName: r.game_name,
    username: r.username,
    stakeMinor: BigInt(r.stake_minor),
    payoutMinor: BigInt(r.payout_minor),
    multiplier: r.multiplier,
    at: Math.round(Number(r.at_ms)),
  }));
}
