import { sql } from 'drizzle-orm';
import { postedTransferId, stakeTookBonus, type TSidePart } from '../wallet/posting/statement.ts';
import { betColumnsOf, roundColumns } from './crash.repo.ts';

/**
 * The crash settle groups' own rows (crash.settle-group.ts: the auto cash-outs due at a tick and
 * the players' presses of "cash out"), as side parts of the wallet's read and write statements.
 * SQL of the crash tables only; the ledger's part is the wallet's.
 */

/**
 * The auto cash-outs' read: locks the bets still placed among `betIds` (id order, before the
 * wallet's accounts) and whether each stake took a bonus part. Rows: 'open' per bet.
 */
export function openBetsSide(betIds: readonly bigint[]): TSidePart {
  return {
    ctes: sql`open AS (
          SELECT c.id::text AS id, ${stakeTookBonus(sql`c.bet_transfer_id`)} AS bonus
          FROM crash_bets c
          WHERE c.id = ANY(${`{${betIds.join(',')}}`}::bigint[]) AND c.status = 'placed'
            AND c.bet_transfer_id IS NOT NULL
          ORDER BY c.id FOR NO KEY UPDATE OF c)`,
    rows: sql`SELECT 'open' AS what, to_jsonb(open) AS row FROM open`,
  };
}

/** A bet the win's write marks cashed, from the status it was read in. */
export type TCashedBet = {
  id: string;
  site_id: string;
  at: number;
  payout: string;
  win_key: string | null;
  settled_at: string;
  from_status: string;
};

/**
 * The win's write: marks every bet cashed carrying its win transfer's id (read from the transfers
 * the same statement inserts), each only from the status it was read in. Rows: 'bet' per bet.
 */
export function cashedBetsSide(cashed: readonly TCashedBet[]): TSidePart {
  return {
    ctes: sql`cashed AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(cashed)}::jsonb)
            AS c(id bigint, site_id bigint, at int, payout bigint, win_key text, settled_at timestamptz,
              from_status text)),
        updated AS (
          UPDATE crash_bets b SET status = 'cashed', cashout_hundredths = c.at, payout_minor = c.payout,
            settled_at = c.settled_at,
            win_transfer_id = ${postedTransferId(sql`c.site_id`, sql`c.win_key`)}
          FROM cashed c WHERE b.id = c.id AND b.status = c.from_status
          RETURNING ${betColumnsOf(sql`b`)})`,
    rows: sql`SELECT 'bet' AS what, to_jsonb(updated) AS row FROM updated`,
  };
}

/** A press as the group's read asks about it. */
export type TPressWanted = { round_id: string; member_id: string };

/**
 * The presses' read: share-locks the rounds pressed on (id order), locks the members' bets of them
 * (id order), before the wallet's accounts. Rows: 'round' per round, 'bet' per bet with `bonus`.
 */
export function pressesSide(wanted: readonly TPressWanted[]): TSidePart {
  return {
    ctes: sql`w AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(round_id bigint, member_id bigint)),
        rounds AS (
          SELECT ${roundColumns} FROM crash_rounds WHERE id IN (SELECT round_id FROM w)
          ORDER BY crash_rounds.id FOR SHARE),
        bets AS (
          SELECT ${betColumnsOf(sql`c`)}, ${stakeTookBonus(sql`c.bet_transfer_id`)} AS bonus
          FROM crash_bets c
          WHERE (c.round_id, c.member_id) IN (SELECT round_id, member_id FROM w)
            AND c.bet_transfer_id IS NOT NULL
          ORDER BY c.id FOR NO KEY UPDATE OF c)`,
    rows: sql`SELECT 'round' AS what, to_jsonb(rounds) AS row FROM rounds
        UNION ALL SELECT 'bet', to_jsonb(bets) FROM bets`,
  };
}
