import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { insertOutbox, type TIdentifierKind, type TOutboxKind } from './aml.repo.ts';

/** Test and benchmark fixtures of AML screening (ADR 040): events as the outbox holds them, the ledger, alerts. */

/** An outbox row as a committed deposit, withdrawal or login writes it; `at` backdates it. */
export async function outboxEvent(
  db: Db,
  event: {
    siteId: bigint;
    memberId: bigint;
    kind: TOutboxKind;
    amountMinor?: bigint;
    reference?: string;
    identifiers?: Partial<Record<TIdentifierKind, string>>;
    at?: Date;
    screened?: boolean;
  },
): Promise<void> {
  const reference = event.reference ?? `${event.kind}:${randomUUID().slice(0, 12)}`;
  await insertOutbox(db, {
    siteId: event.siteId,
    memberId: event.memberId,
    kind: event.kind,
    amountMinor: event.amountMinor ?? 0n,
    reference,
    identifiers: event.identifiers ?? {},
  });
  if (event.at || event.screened) {
    await db.execute(
      sql`UPDATE aml_outbox SET created_at = ${(event.at ?? new Date()).toISOString()}::timestamptz,
            screened_at = ${event.screened ? sql`now()` : sql`NULL`}
          WHERE id = (SELECT max(id) FROM aml_outbox WHERE member_id = ${event.memberId.toString()}::bigint AND reference = ${reference})`,
    );
  }
}

/** A stake or a win of `reference` in the ledger (the wallet's own transfer). */
export async function play(
  db: Db,
  siteId: bigint,
  memberId: bigint,
  kind: 'bet' | 'win',
  amountMinor: bigint,
  reference: string,
): Promise<void> {
  await openMemberAccounts(db, { siteId, memberId });
  await transfer(db, {
    siteId,
    kind,
    from: kind === 'bet' ? { memberId, account: 'cash' } : { system: 'house' },
    to: kind === 'bet' ? { system: 'house' } : { memberId, account: 'cash' },
    amountMinor,
    idempotencyKey: `aml-test:${kind}:${randomUUID()}`,
    reference,
  });
}

export type TAlertFact = { rule: string; dedupe_key: string; case_id: string; created_at: string };

export async function alertsOf(db: Db, memberId: bigint): Promise<TAlertFact[]> {
  return rowsOf<TAlertFact>(
    db,
    sql`SELECT rule, dedupe_key, case_id::text AS case_id, created_at::text AS created_at
        FROM aml_alerts WHERE member_id = ${memberId.toString()}::bigint ORDER BY id`,
  );
}

export async function rulesHit(db: Db, memberId: bigint): Promise<string[]> {
  return [...new Set((await alertsOf(db, memberId)).map((alert) => alert.rule))].sort();
}

export async function outboxOf(db: Db, memberId: bigint) {
  return rowsOf<{ id: string; kind: string; amount_minor: string; reference: string; identifiers: unknown }>(
    db,
    sql`SELECT id::text AS id, kind, amount_minor::text AS amount_minor, reference, identifiers
        FROM aml_outbox o WHERE member_id = ${memberId.toString()}::bigint ORDER BY o.id`,
  );
}

export async function setPep(db: Db, siteId: bigint, memberId: bigint): Promise<void> {
  await db.execute(
    sql`INSERT INTO member_kyc (member_id, site_id, pep) VALUES (${memberId.toString()}::bigint, ${siteId.toString()}::bigint, true)
        ON CONFLICT (member_id) DO UPDATE SET pep = true`,
  );
}

export async function backdateMember(db: Db, memberId: bigint, days: number): Promise<void> {
  await db.execute(
    sql`UPDATE members SET created_at = now() - ${`${days} days`}::interval WHERE id = ${memberId.toString()}::bigint`,
  );
}

/** A pending deposit order, as createRecharge leaves it once the PSP made the charge. */
export async function pendingOrder(db: Db, siteId: bigint, memberId: bigint, amountMinor: bigint) {
  const suffix = randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase();
  const orderNo = `R${suffix}`;
  const txid = `T${suffix}AML`;
  await db.execute(
    sql`INSERT INTO deposit_orders (site_id, member_id, order_no, amount_minor, payment_method, channel, txid,
                                    pix_copy_paste, expires_at)
        VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, ${orderNo}, ${amountMinor.toString()}::bigint,
                'pix', 'pix', ${txid}, 'copy-paste', now() + interval '1 hour')`,
  );
  return { orderNo, txid };
}
