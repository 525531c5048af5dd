import { type SQL, sql } from 'drizzle-orm';

/**
 * Third-party rounds in the player's game record (the third branch of the union in
 * originals/crash-rounds.repo.ts). A provider round's record id is PROVIDER_RECORD_ID_BASE + its
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
