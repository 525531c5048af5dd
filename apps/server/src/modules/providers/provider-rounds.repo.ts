import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * Third-party rounds in the player's game record (the third branch of the union in
 * records/game-record.repo.ts). A provider round's record id is PROVIDER_RECORD_ID_BASE + its
 * id, below the crash range. The stake shown is what stayed staked (refunds deducted); a round
 * rolled back in full moved no money and is not a result, so it does not appear. Only members
 * play third-party games for real money; fun money stays at the aggregator.
 */

export const PROVIDER_RECORD_ID_BASE = 800_000_000_000_000_000n;
const PROVIDER_RECORD_ID_END = 900_000_000_000_000_000n;

export const isProviderRecordId = (recordId: bigint) =>
  recordId > PROVIDER_RECORD_ID_BASE && recordId <= PROVIDER_RECORD_ID_END;

const big = (value: bigint) => sql`${value.toString()}::bigint`;

/** The member's provider rounds as record rows (the union's column list and order). */
export function providerRecordEntries(
  memberId: bigint,
  siteId: bigint,
  filter: { since: Date | null; gameCode: string | undefined },
): SQL {
  const where: SQL[] = [
    sql`pr.member_id = ${big(memberId)}`,
    sql`pr.site_id = ${big(siteId)}`,
    sql`pr.status <> 'rolled_back'`,
  ];
  if (filter.since) where.push(sql`pr.created_at >= ${filter.since.toISOString()}::timestamptz`);
  if (filter.gameCode !== undefined) where.push(sql`g.code = ${filter.gameCode}`);
  return sql`SELECT ${big(PROVIDER_RECORD_ID_BASE)} + pr.id AS record_id, 'provider' AS kind, g.code AS game_code,
      g.name AS game_name, p.name AS provider_name, pr.created_at, pr.stake_minor - pr.refunded_minor AS stake_minor,
      pr.payout_minor,
      CASE WHEN pr.stake_minor > pr.refunded_minor
        THEN to_char(round(pr.payout_minor::numeric / (pr.stake_minor - pr.refunded_minor), 4), 'FM999999999990.0000')
        ELSE '0.0000' END AS multiplier,
      NULL::integer AS cashout_hundredths,
      CASE WHEN pr.status = 'open' THEN 'active' ELSE 'settled' END AS status
    FROM provider_rounds pr JOIN games g ON g.id = pr.game_id JOIN game_providers p ON p.id = g.provider_id
    WHERE ${sql.join(where, sql` AND `)}`;
}

/** The created_at of the member's provider round behind a record id (NULL when not theirs). */
export function providerCursorCreatedAt(memberId: bigint, recordId: bigint): SQL {
  return sql`(SELECT px.created_at FROM provider_rounds px WHERE px.id = ${big(recordId - PROVIDER_RECORD_ID_BASE)}
    AND px.member_id = ${big(memberId)})`;
}

export type TProviderRecord = {
  recordId: bigint;
  roundRef: string;
  gameCode: string;
  gameName: string;
  providerName: string;
  stakeMinor: bigint;
  refundedMinor: bigint;
  payoutMinor: bigint;
  status: 'open' | 'settled' | 'rolled_back';
  createdAt: Date;
  settledAt: Date | null;
  /** The wallet calls of the round in arrival order (the provider's transaction ids). */
  transactions: { kind: 'bet' | 'win' | 'rollback'; ref: string; amountMinor: bigint; at: Date }[];
};

/** One of the member's provider rounds behind a record id, with its wallet calls (null when not theirs). */
export async function findProviderRecord(
  executor: Executor,
  member: { memberId: bigint; siteId: bigint },
  recordId: bigint,
): Promise<TProviderRecord | null> {
  if (!isProviderRecordId(recordId)) return null;
  const roundId = recordId - PROVIDER_RECORD_ID_BASE;
  const result = (await executor.execute(
    sql`SELECT pr.round_ref, g.code AS game_code, g.name AS game_name, p.name AS provider_name,
          pr.stake_minor::text AS stake_minor, pr.refunded_minor::text AS refunded_minor,
          pr.payout_minor::text AS payout_minor, pr.status, pr.created_at, pr.settled_at,
          coalesce((SELECT json_agg(json_build_object('kind', t.kind, 'ref', t.transaction_ref,
              'amount', t.amount_minor::text, 'at', t.created_at) ORDER BY t.id)
            FROM provider_transactions t WHERE t.round_id = pr.id AND t.kind <> 'tombstone'), '[]'::json) AS transactions
        FROM provider_rounds pr JOIN games g ON g.id = pr.game_id JOIN game_providers p ON p.id = g.provider_id
        WHERE pr.id = ${big(roundId)} AND pr.member_id = ${big(member.memberId)}
          AND pr.site_id = ${big(member.siteId)} AND pr.status <> 'rolled_back'`,
  )) as unknown as {
    rows: {
      round_ref: string;
      game_code: string;
      game_name: string;
      provider_name: string;
      stake_minor: string;
      refunded_minor: string;
      payout_minor: string;
      status: TProviderRecord['status'];
      created_at: string | Date;
      settled_at: string | Date | null;
      transactions: { kind: 'bet' | 'win' | 'rollback'; ref: string; amount: string; at: string }[] | string;
    }[];
  };
  const row = result.rows[0];
  if (!row) return null;
  const transactions = typeof row.transactions === 'string' ? JSON.parse(row.transactions) : row.transactions;
  return {
    recordId,
    roundRef: row.round_ref,
    gameCode: row.game_code,
    gameName: row.game_name,
    providerName: row.provider_name,
    stakeMinor: BigInt(row.stake_minor),
    refundedMinor: BigInt(row.refunded_minor),
    payoutMinor: BigInt(row.payout_minor),
    status: row.status,
    createdAt: new Date(row.created_at),
    settledAt: row.settled_at === null ? null : new Date(row.settled_at),
    transactions: (
      transactions as { kind: 'bet' | 'win' | 'rollback'; ref: string; amount: string; at: string }[]
    ).map((t) => ({ kind: t.kind, ref: t.ref, amountMinor: BigInt(t.amount), at: new Date(t.at) })),
  };
}
