import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { preparedRowsOf } from '../../db/sql.ts';
import { notifyEach } from '../realtime/member-channel.ts';
import type { TSidePart } from '../wallet/posting/statement.ts';

/**
 * The sportsbook settle group's own rows (sports.settle-group.ts, ADR 027): the bets' new status
 * and payout with their pushes, as a side part of the wallet's write, and the pushes of bets
 * settled without money. SQL of the sportsbook tables only; the ledger's part is the wallet's.
 */

/** A bet's settlement as the group writes it. */
export type TSettledBet = { id: string; status: string; payout: string; seq: number };

type TPush = { channel: string; text: string };

/**
 * The write's side part: every bet's status, payout and settle sequence (settled now unless it
 * stays open) and each bet's push to its member's sockets (`pg_notify`, sent at COMMIT). Rows:
 * 'bets' and 'pushed' with their counts.
 */
export function settledBetsSide(bets: readonly TSettledBet[], pushes: readonly TPush[]): TSidePart {
  return {
    ctes: sql`bets AS (
            UPDATE sports_bets b SET status = n.status, payout_minor = n.payout, settle_seq = n.seq,
              settled_at = CASE WHEN n.status = 'open' THEN NULL ELSE now() END
            FROM jsonb_to_recordset(${JSON.stringify(bets)}::jsonb) AS n(id bigint, status text, payout bigint, seq int)
            WHERE b.id = n.id
            RETURNING b.id),
          pushed AS (${notifyEach(pushes)})`,
    rows: sql`SELECT 'bets' AS what, jsonb_build_object('n', (SELECT count(*) FROM bets)) AS row
          UNION ALL SELECT 'pushed', jsonb_build_object('n', (SELECT count(*) FROM pushed))`,
  };
}

/** Queues the pushes in one statement (sent at COMMIT). */
export async function queuePushes(tx: Tx, pushes: readonly TPush[]): Promise<void> {
  await preparedRowsOf(
    tx,
    'sorte_sports_settle_push',
    sql`WITH pushed AS (${notifyEach(pushes)}) SELECT count(*) AS n FROM pushed`,
  );
}
