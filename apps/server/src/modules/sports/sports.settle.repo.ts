import type { TSportsBet } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';

/**
 * The writes of a bet's life after placement: cash-out, (re)settlement and the collection of what a
 * resettlement could not take back. The service decides the outcome; these only talk to the database.
 */

const big = (value: bigint | string) => sql`${value.toString()}::bigint`;
const idArray = (ids: readonly (bigint | string)[]) => sql`${`{${ids.map(String).join(',')}}`}::bigint[]`;

/** The client's key a cash-out transfer was made under (to answer its retry again). */
export async function findCashOutClientKey(
  executor: Executor,
  siteId: bigint,
  betId: bigint,
): Promise<string | undefined> {
  const rows = await rowsOf<{ key: string }>(
    executor,
    sql`SELECT metadata->>'clientKey' AS key FROM wallet_transfers
          WHERE site_id = ${big(siteId)} AND idempotency_key = ${`sports-bet:${betId}:cash-out`}`,
  );
  return rows[0]?.key;
}

/** Holds the markets' prices still (FOR SHARE, ascending id) while a cash-out values the bet. */
export async function shareLockMarkets(tx: Tx, marketIds: readonly string[]): Promise<void> {
  await rowsOf(
    tx,
    sql`SELECT id FROM sports_markets WHERE id = ANY(${idArray(marketIds)}) ORDER BY id FOR SHARE`,
  );
}

export async function markBetCashedOut(tx: Tx, betId: string, payoutMinor: bigint): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_bets SET status = 'cashed_out', payout_minor = ${big(payoutMinor)}, settled_at = now()
          WHERE id = ${big(betId)} AND status = 'open'`,
  );
}

/** Leg statuses follow their selections' results (null → open: a result taken away reopens it). */
export async function syncLegStatuses(tx: Tx, betIds: readonly string[]): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_bet_legs l SET status = COALESCE(s.result, 'open')
        FROM sports_selections s WHERE s.id = l.selection_id AND l.bet_id = ANY(${idArray(betIds)})`,
  );
}

export async function updateBetSettlement(
  tx: Tx,
  betId: string,
  settlement: { status: TSportsBet['status']; payoutMinor: bigint; unrecoveredMinor: bigint; seq: number },
): Promise<void> {
  const { status } = settlement;
  await tx.execute(
    sql`UPDATE sports_bets
        SET status = ${status}, payout_minor = ${big(settlement.payoutMinor)},
            unrecovered_minor = unrecovered_minor + ${big(settlement.unrecoveredMinor)}, settle_seq = ${settlement.seq},
            settled_at = ${status === 'open' ? sql`NULL` : sql`now()`}
        WHERE id = ${big(betId)}`,
  );
}

/** The site's bets on which a player still owes a corrected payout (one bet, or up to 200). */
export async function findOwedBetIds(
  executor: Executor,
  siteId: bigint,
  betId: bigint | undefined,
): Promise<{ id: string }[]> {
  return rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text AS id FROM sports_bets
        WHERE site_id = ${big(siteId)} AND unrecovered_minor > 0
          ${betId === undefined ? sql`` : sql`AND id = ${big(betId)}`}
        ORDER BY id LIMIT 200`,
  );
}

export async function updateBetUnrecovered(tx: Tx, betId: string, leftMinor: bigint): Promise<void> {
  await tx.execute(
    sql`UPDATE sports_bets SET unrecovered_minor = ${big(leftMinor)} WHERE id = ${big(betId)}`,
  );
}

export type TOwedRow = {
  bet_id: string;
  member_id: string;
  username: string;
  owed: string;
  settled_at: string | Date | null;
};

export async function findOwedBets(executor: Executor, siteId: bigint): Promise<TOwedRow[]> {
  return rowsOf<TOwedRow>(
    executor,
    sql`SELECT b.id::text AS bet_id, b.member_id::text AS member_id, m.username,
               b.unrecovered_minor::text AS owed, b.settled_at
        FROM sports_bets b JOIN members m ON m.id = b.member_id
        WHERE b.site_id = ${big(siteId)} AND b.unrecovered_minor > 0 ORDER BY b.id LIMIT 500`,
  );
}

export async function findSitesOwed(
  executor: Executor,
): Promise<{ id: string; jurisdiction: TJurisdiction }[]> {
  return rowsOf<{ id: string; jurisdiction: TJurisdiction }>(
    executor,
    sql`SELECT DISTINCT s.id::text AS id, s.jurisdiction FROM sports_bets b JOIN sites s ON s.id = b.site_id
        WHERE b.unrecovered_minor > 0`,
  );
}
