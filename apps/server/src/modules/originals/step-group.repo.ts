import { sql } from 'drizzle-orm';
import type { TGameRoundRow } from '../games/games.schema.ts';
import { postedTransferId, stakeTookBonus, type TSidePart } from '../wallet/posting/statement.ts';

/**
 * The stepped rounds' group's own rows (step-group.ts), as side parts of the wallet's read and
 * write statements: each open round the steps are on, locked with its seeds and game, then each
 * round as its step leaves it. SQL of the originals' tables only; the ledger's part is the wallet's.
 */

/** A step as the group's read asks about it: its round, and the member it must belong to. */
export type TStepWanted = { ord: number; round_id: string; site_id: string; member_id: string };

/** What the read answers per step: the round (null: not the member's), its seeds, game and stake. */
export type TStepRead = {
  ord: number;
  round: Record<string, unknown> | null;
  game_name: string | null;
  provider_name: string | null;
  server_seed: string | null;
  server_seed_hash: string | null;
  client_seed: string | null;
  pair_revealed: boolean | null;
  /** The round's stake took a bonus part (its win splits back into grants: one by one). */
  stake_took_bonus: boolean | null;
};

/**
 * The read's side part: locks every step's round that is its member's (id order, before the
 * wallet's accounts, as a step one by one locks its round first) and reads its seed pair, its
 * game's names and whether its stake took a bonus part.
 */
export function stepsReadSide(wanted: readonly TStepWanted[]): TSidePart {
  return {
    ctes: sql`step_wanted AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb)
            AS step_wanted(ord int, round_id bigint, site_id bigint, member_id bigint)),
        step_locked AS (
          SELECT r.* FROM game_rounds r
          WHERE r.id = ANY(${`{${wanted.map((w) => w.round_id).join(',')}}`}::bigint[])
            AND EXISTS (SELECT 1 FROM step_wanted sw WHERE sw.round_id = r.id AND sw.member_id = r.member_id
                          AND sw.site_id = r.site_id)
          ORDER BY r.id FOR NO KEY UPDATE),
        step_reads AS (
          SELECT sw.ord, to_jsonb(l) AS round, g.name AS game_name, gp.name AS provider_name,
            p.server_seed, p.server_seed_hash, p.client_seed, p.revealed_at IS NOT NULL AS pair_revealed,
            ${stakeTookBonus(sql`l.bet_transfer_id`)} AS stake_took_bonus
          FROM step_wanted sw LEFT JOIN step_locked l ON l.id = sw.round_id AND l.member_id = sw.member_id
            LEFT JOIN games g ON g.id = l.game_id
            LEFT JOIN game_providers gp ON gp.id = g.provider_id
            LEFT JOIN fairness_seed_pairs p ON p.id = l.seed_pair_id)`,
    rows: sql`SELECT 'step' AS what, to_jsonb(step_reads) AS row FROM step_reads`,
  };
}

/** A round as its step leaves it: settled (its win's key, if one is paid) or moved on. */
export type TStepUpdate = {
  id: string;
  site_id: string;
  settle: boolean;
  payout: string;
  num: string;
  den: string;
  multiplier: string;
  params: unknown;
  steps: unknown;
  outcome: unknown;
  win_key: string | null;
};

/**
 * The write's side part: every round updated from the value its step decided, only while still
 * active (the read locked it), a settled one carrying its win's transfer id, read from the
 * transfers the same statement inserts. Rows: 'round' per round updated, as stored.
 */
export function stepsWriteSide(updates: readonly TStepUpdate[]): TSidePart {
  return {
    ctes: sql`step_updates AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS su(id bigint, site_id bigint,
        settle boolean, payout bigint, num numeric, den numeric, multiplier text, params jsonb, steps jsonb,
        outcome jsonb, win_key text)),
    stepped_rounds AS (
      UPDATE game_rounds r SET
        status = CASE WHEN su.settle THEN 'settled' ELSE r.status END,
        settled_at = CASE WHEN su.settle THEN now() ELSE r.settled_at END,
        payout_minor = su.payout, multiplier_num = su.num, multiplier_den = su.den,
        multiplier = su.multiplier, params = su.params, steps = su.steps, outcome = su.outcome,
        win_transfer_id = CASE WHEN su.settle THEN ${postedTransferId(sql`su.site_id`, sql`su.win_key`)}
                               ELSE r.win_transfer_id END
      FROM step_updates su WHERE r.id = su.id AND r.status = 'active'
      RETURNING r.*)`,
    rows: sql`SELECT 'round' AS what, to_jsonb(stepped_rounds) AS row FROM stepped_rounds`,
  };
}

const big = (value: unknown): bigint => BigInt(String(value));
const bigOrNull = (value: unknown): bigint | null =>
  value === null || value === undefined ? null : BigInt(String(value));
const dateOrNull = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(String(value));

/** A `game_rounds` row as `to_jsonb` writes it, as the schema types it. */
export function roundRowOf(row: Record<string, unknown>): TGameRoundRow {
  return {
    id: big(row.id),
    siteId: big(row.site_id),
    memberId: bigOrNull(row.member_id),
    demoSessionId: bigOrNull(row.demo_session_id),
    gameId: big(row.game_id),
    gameCode: String(row.game_code),
    status: row.status === 'settled' ? 'settled' : 'active',
    idempotencyKey: String(row.idempotency_key),
    requestHash: String(row.request_hash),
    stakeMinor: big(row.stake_minor),
    payoutMinor: big(row.payout_minor),
    multiplierNum: String(row.multiplier_num),
    multiplierDen: String(row.multiplier_den),
    multiplier: String(row.multiplier),
    params: row.params as Record<string, unknown>,
    steps: row.steps as unknown[],
    outcome: (row.outcome ?? null) as Record<string, unknown> | null,
    seedPairId: big(row.seed_pair_id),
    nonce: big(row.nonce),
    betTransferId: bigOrNull(row.bet_transfer_id),
    winTransferId: bigOrNull(row.win_transfer_id),
    createdAt: new Date(String(row.created_at)),
    settledAt: dateOrNull(row.settled_at),
  };
}
