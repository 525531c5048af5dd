import { type SQL, sql } from 'drizzle-orm';
import { GROUP_VIP_TOTALS } from '../promotions/vip.ts';
import { groupGateColumns } from '../responsible-gaming/rg.repo.ts';
import { postedTransferId, type TSidePart } from '../wallet/posting/statement.ts';

/**
 * The in-house bet group's own rows (bet-group.ts, ADR 023), as side parts of the wallet's read and
 * write statements: the bettors' seed pairs and what each bet reads, then the rounds, nonces and
 * recently played games each bet writes. SQL of the originals' tables only; the ledger's part is
 * the wallet's.
 */

/** A bet as the group's read asks about it. */
export type TBetWanted = { ord: number; member_id: string; game: string; key: string; tz: string };

/** What the read answers per bet (the gate's and VIP's columns besides). */
export type TBetRead = {
  ord: number;
  pair_id: string | null;
  server_seed: string;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: string;
  /** A round holds the bet's key already (a retry: the one-by-one path answers it). */
  taken: boolean;
  /** The member has an open round of this stepped game (the one-by-one path refuses it). */
  active: boolean;
  round_id: string;
  gate_due: boolean;
  /** The member's VIP totals before the group (their values null: no row yet, all zero). */
  vip: { r: unknown; b: unknown; sl: unknown; li: unknown; level: unknown };
} & Record<string, unknown>;

/**
 * The read's side part: locks the seed pair of every bettor (id order, before the wallet's
 * accounts) and reads, per bet, whether its key placed a round already, whether the member has an
 * open round of the game, the responsible-gaming gate with each limit's play, the member's VIP
 * totals (not locked: the write checks them) and a round id drawn for it.
 */
export function betReadSide(wanted: readonly TBetWanted[]): TSidePart {
  return {
    ctes: sql`w AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb)
            AS w(ord int, member_id bigint, game text, key text, tz text)),
        pairs AS (
          SELECT p.id, p.member_id, p.server_seed, p.server_seed_hash, p.client_seed, p.next_nonce
          FROM fairness_seed_pairs p
          WHERE p.member_id = ANY(${`{${wanted.map((w) => w.member_id).join(',')}}`}::bigint[])
            AND p.revealed_at IS NULL
          ORDER BY p.id FOR NO KEY UPDATE),
        bets AS (
          SELECT w.ord, pairs.id::text AS pair_id, pairs.server_seed, pairs.server_seed_hash, pairs.client_seed,
            pairs.next_nonce::text AS next_nonce,
            (SELECT true FROM game_rounds r WHERE r.member_id = w.member_id AND r.idempotency_key = w.key)
              IS NOT NULL AS taken,
            (SELECT true FROM game_rounds r
              WHERE r.member_id = w.member_id AND r.game_code = w.game AND r.status = 'active')
              IS NOT NULL AS active,
            nextval(pg_get_serial_sequence('game_rounds', 'id'))::text AS round_id,
            ${groupGateColumns(sql`w.member_id`, sql`w.tz`)},
            ${GROUP_VIP_TOTALS} AS vip
          FROM w LEFT JOIN pairs ON pairs.member_id = w.member_id
            LEFT JOIN member_vip v ON v.member_id = w.member_id)`,
    rows: sql`SELECT 'bet' AS what, to_jsonb(bets) AS row FROM bets`,
  };
}

/** A round the group's write inserts: settled (an instant bet) or active (a stepped start). */
export type TRoundInsert = {
  id: string;
  site_id: string;
  member_id: string;
  game_id: string;
  game_code: string;
  status: 'settled' | 'active';
  key: string;
  hash: string;
  stake: string;
  payout: string;
  num: string;
  den: string;
  multiplier: string;
  params: unknown;
  outcome: unknown;
  pair_id: string | null;
  nonce: string;
  bet_key: string;
  win_key: string | null;
};

/**
 * The write's side part: every round inserted (carrying its transfers' ids, read from the
 * transfers the same statement inserts), each nonce taken (only from the value the round took),
 * each game marked recently played, and the counters' part (`counts`: turnover and VIP totals).
 * Rows: 'round' per round stored, 'pair' per nonce taken.
 */
export function roundsSide(rounds: readonly TRoundInsert[], counts: { ctes: SQL; rows: SQL }): TSidePart {
  return {
    ctes: sql`rounds AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rounds)}::jsonb) AS r(id bigint, site_id bigint,
        member_id bigint, game_id bigint, game_code text, status text, key text, hash text, stake bigint,
        payout bigint, num numeric, den numeric, multiplier text, params jsonb, outcome jsonb, pair_id bigint,
        nonce bigint, bet_key text, win_key text)),
    inserted AS (
      INSERT INTO game_rounds (id, site_id, member_id, game_id, game_code, status, idempotency_key,
        request_hash, stake_minor, payout_minor, multiplier_num, multiplier_den, multiplier, params, steps,
        outcome, seed_pair_id, nonce, bet_transfer_id, win_transfer_id, settled_at)
      OVERRIDING SYSTEM VALUE
      SELECT r.id, r.site_id, r.member_id, r.game_id, r.game_code, r.status, r.key, r.hash, r.stake,
        r.payout, r.num, r.den, r.multiplier, r.params, '[]'::jsonb, r.outcome, r.pair_id, r.nonce,
        ${postedTransferId(sql`r.site_id`, sql`r.bet_key`)},
        ${postedTransferId(sql`r.site_id`, sql`r.win_key`)},
        CASE WHEN r.status = 'settled' THEN now() END
      FROM rounds r
      RETURNING id::text, params, outcome, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms),
    nonces AS (
      UPDATE fairness_seed_pairs p SET next_nonce = p.next_nonce + 1
      FROM rounds
      WHERE p.id = ANY(${`{${rounds.map((r) => r.pair_id).join(',')}}`}::bigint[])
        AND p.id = rounds.pair_id AND p.next_nonce = rounds.nonce
      RETURNING p.id),
    recent AS (
      INSERT INTO member_recent_games (member_id, game_id)
      SELECT member_id, game_id FROM rounds
      ON CONFLICT (member_id, game_id) DO UPDATE SET played_at = now()),
    ${counts.ctes}`,
    rows: sql`SELECT 'round' AS what, to_jsonb(inserted) AS row FROM inserted
    UNION ALL SELECT 'pair', jsonb_build_object('id', id::text) FROM nonces
    ${counts.rows}`,
  };
}
