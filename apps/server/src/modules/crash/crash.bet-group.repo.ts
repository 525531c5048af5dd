import { type SQL, sql } from 'drizzle-orm';
import { GROUP_VIP_TOTALS } from '../promotions/vip.ts';
import { groupGateColumns } from '../responsible-gaming/rg.repo.ts';
import { postedTransferId, type TSidePart } from '../wallet/posting/statement.ts';
import { betColumns } from './crash.repo.ts';

/**
 * The crash bet group's own rows (crash.bet-group.ts, ADR 026), as side parts of the wallet's read
 * and write statements: the rounds bet on and what each bet reads, then the bets inserted. SQL of
 * the crash tables only; the ledger's part is the wallet's.
 */

/** A bet as the group's read asks about it. */
export type TCrashBetWanted = { ord: number; round_id: string; member_id: string; key: string; tz: string };

/**
 * The read's side part: share-locks the rounds bet on (id order, before the wallet's accounts) and
 * reads per bet the round's state and end, whether its key placed a bet already, whether its member
 * bet in the round already, the member's client seed, the responsible-gaming gate with each limit's
 * play, the VIP totals and a bet id drawn for it.
 */
export function crashBetReadSide(wanted: readonly TCrashBetWanted[]): TSidePart {
  const roundIds = [...new Set(wanted.map((w) => w.round_id))];
  return {
    ctes: sql`w AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb)
            AS w(ord int, round_id bigint, member_id bigint, key text, tz text)),
        rounds AS (
          SELECT id, state, (extract(epoch FROM betting_ends_at) * 1000)::float8 AS ends_ms
          FROM crash_rounds
          WHERE id = ANY(${`{${roundIds.join(',')}}`}::bigint[])
          ORDER BY id FOR SHARE),
        bets AS (
          SELECT w.ord, r.state, r.ends_ms,
            (SELECT true FROM crash_bets b WHERE b.member_id = w.member_id AND b.idempotency_key = w.key)
              IS NOT NULL AS taken,
            (SELECT true FROM crash_bets b WHERE b.round_id = w.round_id AND b.member_id = w.member_id)
              IS NOT NULL AS in_round,
            (SELECT p.client_seed FROM fairness_seed_pairs p
              WHERE p.member_id = w.member_id AND p.revealed_at IS NULL) AS client_seed,
            nextval(pg_get_serial_sequence('crash_bets', 'id'))::text AS bet_id,
            ${groupGateColumns(sql`w.member_id`, sql`w.tz`)},
            ${GROUP_VIP_TOTALS} AS vip
          FROM w LEFT JOIN rounds r ON r.id = w.round_id
            LEFT JOIN member_vip v ON v.member_id = w.member_id)`,
    rows: sql`SELECT 'bet' AS what, to_jsonb(bets) AS row FROM bets`,
  };
}

/** A crash bet the group's write inserts. */
export type TCrashBetInsert = {
  id: string;
  round_id: string;
  site_id: string;
  member_id: string;
  stake: string;
  auto: number | null;
  key: string;
  hash: string;
  seed: string | null;
  created_at: string;
  bet_key: string;
};

/**
 * The write's side part: every bet inserted carrying its stake transfer's id (read from the
 * transfers the same statement inserts), and the counters' part (`counts`: turnover and VIP
 * totals). Rows: 'bet' per bet stored.
 */
export function crashBetsSide(bets: readonly TCrashBetInsert[], counts: { ctes: SQL; rows: SQL }): TSidePart {
  return {
    ctes: sql`bets AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(bets)}::jsonb) AS b(id bigint, round_id bigint,
            site_id bigint, member_id bigint, stake bigint, auto int, key text, hash text, seed text,
            created_at timestamptz, bet_key text)),
        inserted AS (
          INSERT INTO crash_bets (id, round_id, site_id, member_id, stake_minor, auto_cashout_hundredths,
            idempotency_key, request_hash, client_seed, created_at, bet_transfer_id)
          OVERRIDING SYSTEM VALUE
          SELECT b.id, b.round_id, b.site_id, b.member_id, b.stake, b.auto, b.key, b.hash, b.seed, b.created_at,
            ${postedTransferId(sql`b.site_id`, sql`b.bet_key`)}
          FROM bets b
          RETURNING ${betColumns}),
        ${counts.ctes}`,
    rows: sql`SELECT 'bet' AS what, to_jsonb(inserted) AS row FROM inserted
        ${counts.rows}`,
  };
}
