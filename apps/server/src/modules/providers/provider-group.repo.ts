import { type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { preparedRowsOf } from '../../db/sql.ts';
import { GROUP_VIP_TOTALS } from '../promotions/promotions.repo.ts';
import { groupGateColumns } from '../responsible-gaming/rg.repo.ts';
import { postedTransferId, stakeRefundFacts, type TSidePart } from '../wallet/posting/statement.ts';

/**
 * The provider wallet's own rows in a group's wallet statements (providers.bet-group.ts, ADR 038):
 * the transactions and rounds a group of calls names, locked before the members' accounts (the
 * order the one-by-one call takes them in: its transaction ids, then its round), and what the
 * group writes of them beside the transfers. SQL only; the group decides.
 */

/** What one call of a group names, for the read. */
export type TCallTarget = {
  ord: number;
  aggregator: string;
  refs: readonly string[];
  roundRef: string;
  memberId: bigint;
  /** A bet: it may open a round and its stake counts towards the member's VIP totals. */
  bet: boolean;
};

/** A provider_transactions row as the group reads it (locked), with its stake's facts for a bet. */
export type TTxRead = {
  id: string;
  aggregator: string;
  transaction_ref: string;
  kind: 'bet' | 'win' | 'rollback' | 'tombstone';
  member_id: string;
  round_id: string | null;
  amount_minor: string;
  request_hash: string;
  rolled_back_by: string | null;
  response: Record<string, unknown>;
  /** Of a bet's stake transfer: whether it took a bonus part, fed a grant, and its wagering change. */
  stake: { bonus: boolean; fed: boolean; wagering: string } | null;
};

/** A provider_rounds row as the group reads it (locked), with how many wins it paid. */
export type TRoundRead = {
  id: string;
  aggregator: string;
  round_ref: string;
  member_id: string;
  stake_minor: string;
  payout_minor: string;
  refunded_minor: string;
  status: 'open' | 'settled' | 'rolled_back';
  wins: number;
};

/** Per call: a round id drawn for a bet that may open its round, and the bettor's VIP totals. */
export type TCallRead = {
  ord: number;
  round_id: string | null;
  vip: { r: unknown; b: unknown; sl: unknown; li: unknown; level: unknown };
};

/**
 * The read's side part: the named transactions (id order), then the named rounds (id order), both
 * FOR NO KEY UPDATE, then per call its drawn round id and VIP totals (not locked: the write checks
 * them). `readLedger` puts these rows before the accounts it locks (ADR 029).
 */
export function callsReadPart(targets: readonly TCallTarget[]): TSidePart {
  const refs = targets.flatMap((t) => t.refs.map((ref) => ({ aggregator: t.aggregator, ref })));
  const rounds = targets.map((t) => ({ aggregator: t.aggregator, ref: t.roundRef }));
  const calls = targets.map((t) => ({ ord: t.ord, member_id: String(t.memberId), bet: t.bet }));
  return {
    ctes: sql`pw_refs AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(refs)}::jsonb) AS w(aggregator text, ref text)),
        pw_rounds AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(rounds)}::jsonb) AS w(aggregator text, ref text)),
        pw_calls AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(calls)}::jsonb) AS w(ord int, member_id bigint, bet boolean)),
        p_tx AS (
          SELECT t.id::text, t.aggregator, t.transaction_ref, t.kind, t.member_id::text, t.round_id::text,
            t.amount_minor::text, t.request_hash, t.rolled_back_by::text, t.response,
            CASE WHEN t.kind = 'bet' AND t.transfer_id IS NOT NULL THEN ${stakeRefundFacts(sql`t.transfer_id`)} END AS stake
          FROM provider_transactions t
          WHERE (t.aggregator, t.transaction_ref) IN (SELECT aggregator, ref FROM pw_refs)
          ORDER BY t.id FOR NO KEY UPDATE OF t),
        p_rounds AS (
          SELECT r.id::text, r.aggregator, r.round_ref, r.member_id::text, r.stake_minor::text,
            r.payout_minor::text, r.refunded_minor::text, r.status,
            (SELECT count(*)::int FROM provider_transactions x WHERE x.round_id = r.id AND x.kind = 'win') AS wins
          FROM provider_rounds r
          WHERE (r.aggregator, r.round_ref) IN (SELECT aggregator, ref FROM pw_rounds)
          ORDER BY r.id FOR NO KEY UPDATE OF r),
        p_calls AS (
          SELECT c.ord,
            CASE WHEN c.bet THEN nextval(pg_get_serial_sequence('provider_rounds', 'id'))::text END AS round_id,
            ${GROUP_VIP_TOTALS} AS vip
          FROM pw_calls c LEFT JOIN member_vip v ON v.member_id = c.member_id)`,
    rows: sql`SELECT 'p_tx' AS what, to_jsonb(p_tx) AS row FROM p_tx
        UNION ALL SELECT 'p_round', to_jsonb(p_rounds) FROM p_rounds
        UNION ALL SELECT 'p_call', to_jsonb(p_calls) FROM p_calls`,
  };
}

/** ONE statement, after the accounts are held: the play gate of each bettor (`groupGateColumns`). */
export async function readGates(
  tx: Tx,
  bettors: readonly { ord: number; memberId: bigint; timeZone: string }[],
): Promise<Record<string, unknown>[]> {
  const wanted = bettors.map((b) => ({ ord: b.ord, member_id: String(b.memberId), tz: b.timeZone }));
  return preparedRowsOf<Record<string, unknown>>(
    tx,
    'sorte_provider_group_gates',
    sql`SELECT w.ord, ${groupGateColumns(sql`w.member_id`, sql`w.tz`)}
        FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(ord int, member_id bigint, tz text)`,
  );
}

/** A round a group's bet opens. */
export type TRoundInsert = {
  id: string;
  aggregator: string;
  round_ref: string;
  site_id: string;
  member_id: string;
  game_id: string;
  session_id: string;
  stake: string;
  closed: boolean;
};

/** A round a group's call moves: its totals as they were read (locked) and as they become. */
export type TRoundUpdate = {
  id: string;
  stake: string;
  payout: string;
  refunded: string;
  /** The status it takes (null: it keeps its own); a closing status stamps settled_at. */
  status: string | null;
};

/** A provider_transactions row a group inserts; `transfer_key` names the transfer it carries. */
export type TTxInsert = {
  ord: number;
  aggregator: string;
  ref: string;
  kind: 'bet' | 'win' | 'rollback' | 'tombstone';
  site_id: string;
  member_id: string;
  round_id: string | null;
  reference_ref: string | null;
  amount: string;
  hash: string;
  transfer_key: string | null;
  response: Record<string, unknown>;
};

/** What a group writes of its own rows. */
export type TCallWrites = {
  roundsNew: TRoundInsert[];
  roundsMoved: TRoundUpdate[];
  transactions: TTxInsert[];
  /** Bets a rollback of the group undoes: the bet's row id and the rollback's transaction id. */
  undone: { bet_id: string; aggregator: string; rollback_ref: string }[];
};

/**
 * The write's side part (`writePosting`): the rounds opened, the rounds moved, the transactions
 * inserted (each carrying the id of the transfer the statement inserts under its key), the bets
 * undone pointed at their rollback; its rows name every row written, so the group checks them.
 */
export function callsWritePart(writes: TCallWrites, counts: { ctes: SQL; rows: SQL }): TSidePart {
  return {
    ctes: sql`pw_new AS (
        INSERT INTO provider_rounds (id, aggregator, round_ref, site_id, member_id, game_id, session_id,
          stake_minor, status, settled_at)
        OVERRIDING SYSTEM VALUE
        SELECT r.id, r.aggregator, r.round_ref, r.site_id, r.member_id, r.game_id, r.session_id, r.stake,
          CASE WHEN r.closed THEN 'settled' ELSE 'open' END, CASE WHEN r.closed THEN now() END
        FROM jsonb_to_recordset(${JSON.stringify(writes.roundsNew)}::jsonb) AS r(id bigint, aggregator text,
          round_ref text, site_id bigint, member_id bigint, game_id bigint, session_id bigint, stake bigint,
          closed boolean)
        RETURNING id),
      pw_moved AS (
        UPDATE provider_rounds p SET stake_minor = m.stake, payout_minor = m.payout, refunded_minor = m.refunded,
          status = coalesce(m.status, p.status),
          settled_at = CASE WHEN m.status IS NOT NULL AND m.status <> 'open' THEN now() ELSE p.settled_at END
        FROM jsonb_to_recordset(${JSON.stringify(writes.roundsMoved)}::jsonb) AS m(id bigint, stake bigint,
          payout bigint, refunded bigint, status text)
        WHERE p.id = m.id
        RETURNING p.id),
      pw_tx AS (
        INSERT INTO provider_transactions (aggregator, transaction_ref, kind, site_id, member_id, round_id,
          reference_ref, amount_minor, request_hash, transfer_id, response)
        SELECT t.aggregator, t.ref, t.kind, t.site_id, t.member_id, t.round_id, t.reference_ref, t.amount,
          t.hash, ${postedTransferId(sql`t.site_id`, sql`t.transfer_key`)}, t.response
        FROM jsonb_to_recordset(${JSON.stringify(writes.transactions)}::jsonb) AS t(ord int, aggregator text,
          ref text, kind text, site_id bigint, member_id bigint, round_id bigint, reference_ref text,
          amount bigint, hash text, transfer_key text, response jsonb)
        ORDER BY t.ord
        RETURNING id, aggregator, transaction_ref, response),
      pw_undone AS (
        UPDATE provider_transactions b SET rolled_back_by = w.id
        FROM jsonb_to_recordset(${JSON.stringify(writes.undone)}::jsonb) AS u(bet_id bigint, aggregator text,
          rollback_ref text)
          JOIN pw_tx w ON w.aggregator = u.aggregator AND w.transaction_ref = u.rollback_ref
        WHERE b.id = u.bet_id AND b.rolled_back_by IS NULL
        RETURNING b.id),
      ${counts.ctes}`,
    rows: sql`SELECT 'pw_tx' AS what, jsonb_build_object('aggregator', aggregator, 'ref', transaction_ref,
          'response', response) AS row FROM pw_tx
      UNION ALL SELECT 'pw_round', jsonb_build_object('id', id::text) FROM pw_new
      UNION ALL SELECT 'pw_round', jsonb_build_object('id', id::text) FROM pw_moved
      UNION ALL SELECT 'pw_undone', jsonb_build_object('id', id::text) FROM pw_undone
      ${counts.rows}`,
  };
}
