import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { TPlayer } from '../originals/originals.repo.ts';
import {
  isProviderRecordId,
  providerCursorCreatedAt,
  providerRecordEntries,
} from '../providers/provider-rounds.repo.ts';
import { sportsCursorCreatedAt, sportsRecordEntries } from '../sports/sports.records.repo.ts';
import { isSportsRecordId } from '../sports/sports.records.ts';

/**
 * The game record: the player's in-house rounds (game_rounds), settled crash bets (crash_bets) and
 * third-party rounds (provider_rounds, modules/providers) in one list. All share one id space on
 * the wire so the cursor contract (a positive integer id) holds: a crash bet's record id is
 * CRASH_RECORD_ID_BASE + its bet id, a provider round's PROVIDER_RECORD_ID_BASE + its id. Rows are
 * ordered by (created_at, record id), newest first, a total order across the tables; a cursor is
 * the record id of a row, whose position is looked up from its own table.
 *
 * A crash bet still 'placed' is not a result and never appears. The crash point and round hash are
 * read only when the round has crashed, so a bet cashed out in a running round leaks neither.
 */

export const CRASH_RECORD_ID_BASE = 900_000_000_000_000_000n;
const CRASH_GAME_CODE = 'crash';

export const isCrashRecordId = (recordId: bigint) => recordId > CRASH_RECORD_ID_BASE;

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const big = (value: bigint) => sql`${value.toString()}::bigint`;
const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** "2.35" style hundredths as the record's 4-decimal multiplier text ("2.3500"). */
export function hundredthsText(hundredths: number, decimals: 2 | 4 = 4): string {
  const whole = Math.floor(hundredths / 100);
  const cents = String(hundredths % 100).padStart(2, '0');
  return decimals === 4 ? `${whole}.${cents}00` : `${whole}.${cents}`;
}

export type TRecordFilter = { since: Date | null; gameCode: string | undefined };

export type TRecordEntry = {
  recordId: bigint;
  kind: 'round' | 'crash' | 'provider' | 'sports';
  gameCode: string;
  gameName: string;
  providerName: string;
  createdAt: Date;
  stakeMinor: bigint;
  payoutMinor: bigint;
  multiplier: string;
  status: 'active' | 'settled';
};

type TEntryRaw = {
  record_id: string;
  kind: 'round' | 'crash' | 'provider' | 'sports';
  game_code: string;
  game_name: string;
  provider_name: string;
  created_ms: number;
  stake_minor: string;
  payout_minor: string;
  multiplier: string | null;
  cashout_hundredths: number | null;
  status: 'active' | 'settled';
};

function roundOwner(player: TPlayer): SQL {
  return player.kind === 'member'
    ? sql`gr.member_id = ${big(player.memberId)}`
    : sql`gr.demo_session_id = ${big(player.demoSessionId)}`;
}

/** The player's crash bets: a member's real-money ones or a demo session's fun-money ones. */
function crashOwner(player: TPlayer, alias: SQL = sql`cb`): SQL {
  return player.kind === 'member'
    ? sql`${alias}.member_id = ${big(player.memberId)}`
    : sql`${alias}.demo_session_id = ${big(player.demoSessionId)}`;
}

/** Only settled crash bets are results. */
function includesCrash(filter: TRecordFilter): boolean {
  return filter.gameCode === undefined || filter.gameCode === CRASH_GAME_CODE;
}

/** Each kind's rows under the filter, with common columns ending in (created_at, record_id). */
function entryBranches(player: TPlayer, filter: TRecordFilter): SQL[] {
  const roundWhere: SQL[] = [roundOwner(player)];
  if (filter.since) roundWhere.push(sql`gr.created_at >= ${filter.since.toISOString()}::timestamptz`);
  if (filter.gameCode !== undefined) roundWhere.push(sql`gr.game_code = ${filter.gameCode}`);
  const branches = [
    sql`SELECT gr.id AS record_id, 'round' AS kind, gr.game_code, g.name AS game_name,
      p.name AS provider_name, gr.created_at, gr.stake_minor, gr.payout_minor, gr.multiplier,
      NULL::integer AS cashout_hundredths, gr.status
    FROM game_rounds gr JOIN games g ON g.id = gr.game_id JOIN game_providers p ON p.id = g.provider_id
    WHERE ${sql.join(roundWhere, sql` AND `)}`,
  ];
  // Third-party rounds (modules/providers): members only, real money.
  if (player.kind === 'member') branches.push(providerRecordEntries(player.memberId, player.siteId, filter));
  // Sports bets (modules/sports): members only, real money.
  const sports =
    player.kind === 'member' ? sportsRecordEntries(player.memberId, player.siteId, filter) : null;
  if (sports) branches.push(sports);
  if (!includesCrash(filter)) return branches;
  const crashWhere: SQL[] = [
    crashOwner(player),
    sql`cb.site_id = ${big(player.siteId)}`,
    sql`cb.status IN ('cashed', 'lost')`,
  ];
  if (filter.since) crashWhere.push(sql`cb.created_at >= ${filter.since.toISOString()}::timestamptz`);
  branches.push(sql`SELECT ${big(CRASH_RECORD_ID_BASE)} + cb.id AS record_id, 'crash' AS kind, g.code AS game_code,
      g.name AS game_name, p.name AS provider_name, cb.created_at, cb.stake_minor, cb.payout_minor,
      NULL::text AS multiplier, cb.cashout_hundredths, 'settled' AS status
    FROM crash_bets cb JOIN games g ON g.code = ${CRASH_GAME_CODE} JOIN game_providers p ON p.id = g.provider_id
    WHERE ${sql.join(crashWhere, sql` AND `)}`);
  return branches;
}

/** The union of every kind under the filter, as rows with a common (created_at, record_id). */
function entriesQuery(player: TPlayer, filter: TRecordFilter): SQL {
  return sql.join(entryBranches(player, filter), sql` UNION ALL `);
}

/** The exact created_at of the player's row with this record id (NULL when it is not theirs). */
function cursorCreatedAt(player: TPlayer, recordId: bigint): SQL {
  if (isCrashRecordId(recordId)) {
    return sql`(SELECT cx.created_at FROM crash_bets cx WHERE cx.id = ${big(recordId - CRASH_RECORD_ID_BASE)}
      AND ${crashOwner(player, sql`cx`)})`;
  }
  if (isProviderRecordId(recordId)) {
    return player.kind === 'member'
      ? providerCursorCreatedAt(player.memberId, recordId)
      : sql`NULL::timestamptz`;
  }
  if (isSportsRecordId(recordId)) {
    return player.kind === 'member'
      ? sportsCursorCreatedAt(player.memberId, recordId)
      : sql`NULL::timestamptz`;
  }
  return sql`(SELECT gr.created_at FROM game_rounds gr WHERE gr.id = ${big(recordId)} AND ${roundOwner(player)})`;
}

function beyond(player: TPlayer, side: { olderThan: bigint } | { newerThan: bigint }): SQL {
  if ('olderThan' in side) {
    return sql`(e.created_at, e.record_id) < (${cursorCreatedAt(player, side.olderThan)}, ${big(side.olderThan)})`;
  }
  return sql`(e.created_at, e.record_id) > (${cursorCreatedAt(player, side.newerThan)}, ${big(side.newerThan)})`;
}

function entryOf(r: TEntryRaw): TRecordEntry {
  const multiplier =
    r.kind === 'crash'
      ? r.cashout_hundredths === null
        ? '0.0000'
        : hundredthsText(Number(r.cashout_hundredths))
      : (r.multiplier ?? '0.0000');
  return {
    recordId: BigInt(r.record_id),
    kind: r.kind,
    gameCode: r.game_code,
    gameName: r.game_name,
    providerName: r.provider_name,
    createdAt: new Date(Math.round(Number(r.created_ms))),
    stakeMinor: BigInt(r.stake_minor),
    payoutMinor: BigInt(r.payout_minor),
    multiplier,
    status: r.status,
  };
}

/** A keyset page of the record, newest first. `afterId` pages towards newer rows. */
export async function findRecordPage(
  executor: Executor,
  player: TPlayer,
  input: TRecordFilter & { beforeId: bigint | undefined; afterId: bigint | undefined; limit: number },
): Promise<TRecordEntry[]> {
  const newer = input.afterId !== undefined;
  const where =
    input.afterId !== undefined
      ? beyond(player, { newerThan: input.afterId })
      : input.beforeId !== undefined
        ? beyond(player, { olderThan: input.beforeId })
        : sql`true`;
  const order = newer ? sql`e.created_at ASC, e.record_id ASC` : sql`e.created_at DESC, e.record_id DESC`;
  const limit = Math.min(Math.max(input.limit, 1), 100);
  // Each kind's newest (or next) rows first, so a long history is read from its index only as far
  // as one page, not sorted whole under a LIMIT over the union.
  const pages = entryBranches(player, input).map(
    (branch) => sql`(SELECT * FROM (${branch}) e WHERE ${where} ORDER BY ${order} LIMIT ${limit})`,
  );
  const rows = await rowsOf<TEntryRaw>(
    executor,
    sql`SELECT e.record_id::text AS record_id, e.kind, e.game_code, e.game_name, e.provider_name,
          ${epochMs(sql`e.created_at`)} AS created_ms, e.stake_minor::text AS stake_minor,
          e.payout_minor::text AS payout_minor, e.multiplier, e.cashout_hundredths, e.status
        FROM (${sql.join(pages, sql` UNION ALL `)}) e
        ORDER BY ${order}
        LIMIT ${limit}`,
  );
  const entries = rows.map(entryOf);
  return newer ? entries.reverse() : entries;
}

export async function recordEntryExists(
  executor: Executor,
  player: TPlayer,
  filter: TRecordFilter,
  side: { olderThan: bigint } | { newerThan: bigint },
): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM (${entriesQuery(player, filter)}) e WHERE ${beyond(player, side)} LIMIT 1`,
  );
  return rows.length > 0;
}

export async function sumRecord(
  executor: Executor,
  player: TPlayer,
  filter: TRecordFilter,
): Promise<{ count: number; stakeMinor: bigint; winLossMinor: bigint }> {
  const [row] = await rowsOf<{ n: number; stake: string; win_loss: string }>(
    executor,
    sql`SELECT count(*)::int AS n, coalesce(sum(e.stake_minor), 0)::text AS stake,
          coalesce(sum(e.payout_minor - e.stake_minor), 0)::text AS win_loss
        FROM (${entriesQuery(player, filter)}) e`,
  );
  return {
    count: Number(row?.n ?? 0),
    stakeMinor: BigInt(row?.stake ?? '0'),
    winLossMinor: BigInt(row?.win_loss ?? '0'),
  };
}

export type TCrashRecord = {
  recordId: bigint;
  gameName: string;
  stakeMinor: bigint;
  payoutMinor: bigint;
  autoCashoutHundredths: number | null;
  cashoutHundredths: number | null;
  status: 'cashed' | 'lost';
  createdAt: Date;
  settledAt: Date | null;
  roundId: bigint;
  position: number;
  hashCommitment: string;
  terminatingHash: string;
  publicSalt: string;
  /** 'bets': the salt ceremony (ADR 008) from `saltSeeds`; 'server': a chain from before it. */
  saltSource: 'bets' | 'server';
  saltSeeds: string[];
  chainLength: number;
  /** Present only once the round has crashed. */
  crashed: { roundHash: string; crashHundredths: number; crashedAt: Date } | null;
};

/** One settled crash bet of the player, with the round's evidence (its secrets only once crashed). */
export async function findCrashRecord(
  executor: Executor,
  player: TPlayer,
  recordId: bigint,
): Promise<TCrashRecord | null> {
  if (!isCrashRecordId(recordId)) return null;
  const [r] = await rowsOf<{
    bet_id: string;
    game_name: string;
    stake_minor: string;
    payout_minor: string;
    auto_cashout_hundredths: number | null;
    cashout_hundredths: number | null;
    status: 'cashed' | 'lost';
    created_ms: number;
    settled_ms: number | null;
    round_id: string;
    position: number;
    hash_commitment: string;
    terminating_hash: string;
    public_salt: string | null;
    salt_source: 'bets' | 'server';
    salt_inputs: { client_seed: string }[] | string | null;
    length: number;
    round_hash: string | null;
    crash_hundredths: number | null;
    crashed_ms: number | null;
  }>(
    executor,
    sql`SELECT cb.id::text AS bet_id, g.name AS game_name, cb.stake_minor::text AS stake_minor,
          cb.payout_minor::text AS payout_minor, cb.auto_cashout_hundredths, cb.cashout_hundredths, cb.status,
          ${epochMs(sql`cb.created_at`)} AS created_ms, ${epochMs(sql`cb.settled_at`)} AS settled_ms,
          r.id::text AS round_id, r.position, r.hash_commitment, c.terminating_hash, c.public_salt,
          c.salt_source, c.salt_inputs, c.length,
          CASE WHEN r.state = 'crashed' THEN r.round_hash END AS round_hash,
          CASE WHEN r.state = 'crashed' THEN r.crash_hundredths END AS crash_hundredths,
          ${epochMs(sql`r.crashed_at`)} AS crashed_ms
        FROM crash_bets cb
        JOIN crash_rounds r ON r.id = cb.round_id
        JOIN crash_chains c ON c.id = r.chain_id
        JOIN games g ON g.code = ${CRASH_GAME_CODE}
        WHERE cb.id = ${big(recordId - CRASH_RECORD_ID_BASE)} AND ${crashOwner(player)}
          AND cb.site_id = ${big(player.siteId)} AND cb.status IN ('cashed', 'lost')`,
  );
  if (!r) return null;
  const msDate = (ms: number | null) => (ms === null ? null : new Date(Math.round(Number(ms))));
  return {
    recordId,
    gameName: r.game_name,
    stakeMinor: BigInt(r.stake_minor),
    payoutMinor: BigInt(r.payout_minor),
    autoCashoutHundredths: r.auto_cashout_hundredths === null ? null : Number(r.auto_cashout_hundredths),
    cashoutHundredths: r.cashout_hundredths === null ? null : Number(r.cashout_hundredths),
    status: r.status,
    createdAt: new Date(Math.round(Number(r.created_ms))),
    settledAt: msDate(r.settled_ms),
    roundId: BigInt(r.round_id),
    position: Number(r.position),
    hashCommitment: r.hash_commitment,
    terminatingHash: r.terminating_hash,
    // A settled bet's round ran, so its chain's salt was fixed.
    publicSalt: r.public_salt ?? '',
    saltSource: r.salt_source,
    saltSeeds: (
      (typeof r.salt_inputs === 'string' ? JSON.parse(r.salt_inputs) : (r.salt_inputs ?? [])) as {
        client_seed: string;
      }[]
    ).map((input) => input.client_seed),
    chainLength: Number(r.length),
    crashed:
      r.round_hash !== null && r.crash_hundredths !== null && r.crashed_ms !== null
        ? {
            roundHash: r.round_hash,
            crashHundredths: Number(r.crash_hundredths),
            crashedAt: new Date(Math.round(Number(r.crashed_ms))),
          }
        : null,
  };
}
