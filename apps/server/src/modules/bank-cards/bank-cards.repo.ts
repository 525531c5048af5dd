import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { memberBankCards, type TBankCardRow } from './bank-cards.schema.ts';

/**
 * SQL of the bank cards. Every function takes the executor (database or open transaction) it runs
 * in. `members.cpf` (migration 0004) has no Drizzle column yet, so it is read and written in SQL.
 */

/** Key space of our advisory locks (two-int form), so they never meet another module's keys. */
const CPF_LOCK_SPACE = 727003;

async function rowsOf<T>(executor: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Locks the member's row for the rest of the transaction and returns the member's CPF (null when
 * none is bound), or undefined when the member is not on this site. Adding and removing cards
 * take this lock first, so one member's concurrent requests cannot both pass the card limit or
 * both become the default card. NO KEY UPDATE, not UPDATE: rows that reference the member (a
 * withdrawal order being written under a share lock of the card) take KEY SHARE on this row, and
 * must not wait for us while we wait for their card lock (that would be a deadlock).
 */
export async function lockMember(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
): Promise<{ cpf: string | null } | undefined> {
  const rows = await rowsOf<{ cpf: string | null }>(
    tx,
    sql`SELECT cpf FROM members WHERE id = ${memberId.toString()}::bigint
        AND site_id = ${siteId.toString()}::bigint FOR NO KEY UPDATE`,
  );
  return rows[0];
}

/** The member's bound CPF (11 digits) or null. For the withdrawal and deposit flows too. */
export async function findMemberCpf(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<string | null> {
  const rows = await rowsOf<{ cpf: string | null }>(
    executor,
    sql`SELECT cpf FROM members WHERE id = ${memberId.toString()}::bigint
        AND site_id = ${siteId.toString()}::bigint`,
  );
  return rows[0]?.cpf ?? null;
}

/**
 * Serialises everyone binding this CPF on this site until the transaction ends, so two members
 * cannot both claim one CPF at the same moment.
 */
export async function lockCpf(tx: Tx, siteId: bigint, cpf: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${CPF_LOCK_SPACE}, hashtext(${`${siteId}:${cpf}`}))`);
}

/** True when another member of the site already has this CPF. */
export async function cpfTakenByOther(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  cpf: string,
): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(
    executor,
    sql`SELECT 1 AS found FROM members WHERE site_id = ${siteId.toString()}::bigint
        AND cpf = ${cpf} AND id <> ${memberId.toString()}::bigint LIMIT 1`,
  );
  return rows.length > 0;
}

/** Binds the member's CPF if none is bound yet (a bound CPF never changes here). */
export async function bindMemberCpf(tx: Tx, memberId: bigint, cpf: string): Promise<void> {
  await tx.execute(
    sql`UPDATE members SET cpf = ${cpf}, updated_at = now()
        WHERE id = ${memberId.toString()}::bigint AND cpf IS NULL`,
  );
}

/** The member's active cards: the default first, then newest first. */
export function listActiveCards(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<TBankCardRow[]> {
  return executor
    .select()
    .from(memberBankCards)
    .where(
      and(
        eq(memberBankCards.siteId, siteId),
        eq(memberBankCards.memberId, memberId),
        isNull(memberBankCards.deletedAt),
      ),
    )
    .orderBy(desc(memberBankCards.isDefault), desc(memberBankCards.id));
}

/** The active card holding this key on the site (anyone's), if any. */
export async function findActiveCardByKey(
  executor: Executor,
  siteId: bigint,
  accountType: TBankCardRow['accountType'],
  pixKey: string,
): Promise<TBankCardRow | undefined> {
  const rows = await executor
    .select()
    .from(memberBankCards)
    .where(
      and(
        eq(memberBankCards.siteId, siteId),
        eq(memberBankCards.accountType, accountType),
        eq(memberBankCards.pixKey, pixKey),
        isNull(memberBankCards.deletedAt),
      ),
    )
    .limit(1);
  return rows[0];
}

export type TNewBankCard = Omit<typeof memberBankCards.$inferInsert, 'id' | 'createdAt' | 'deletedAt'>;

export async function insertCard(tx: Tx, card: TNewBankCard): Promise<TBankCardRow> {
  const rows = await tx.insert(memberBankCards).values(card).returning();
  return rows[0]!;
}

/** Clears the member's default card (before another becomes the default). */
export async function clearDefault(tx: Tx, memberId: bigint): Promise<void> {
  await tx
    .update(memberBankCards)
    .set({ isDefault: false })
    .where(and(eq(memberBankCards.memberId, memberId), eq(memberBankCards.isDefault, true)));
}

/**
 * One active card of the member, locked for the rest of the transaction: `update` to remove it,
 * `share` to pay to it. A card of another member or site, or a removed one, is undefined.
 */
export async function lockActiveCard(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  cardId: bigint,
  mode: 'update' | 'share',
): Promise<TBankCardRow | undefined> {
  const query = tx
    .select()
    .from(memberBankCards)
    .where(
      and(
        eq(memberBankCards.id, cardId),
        eq(memberBankCards.siteId, siteId),
        eq(memberBankCards.memberId, memberId),
        isNull(memberBankCards.deletedAt),
      ),
    );
  const rows = await (mode === 'update' ? query.for('no key update') : query.for('share'));
  return rows[0];
}

/**
 * For the withdrawal flow: the caller's active card `cardId`, share-locked until the withdrawal's
 * transaction ends. Removing a card takes the same row FOR NO KEY UPDATE and then looks for open
 * withdrawals, so a card can never be removed under a withdrawal being created.
 */
export function lockUsableBankCard(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  cardId: bigint,
): Promise<TBankCardRow | undefined> {
  return lockActiveCard(tx, siteId, memberId, cardId, 'share');
}

/** True while a withdrawal to this card is waiting for review or payout (not yet paid, rejected or failed). */
export async function hasOpenWithdrawal(executor: Executor, cardId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ found: number }>(
    executor,
    sql`SELECT 1 AS found FROM withdrawal_orders WHERE bank_card_id = ${cardId.toString()}::bigint
        AND status IN ('pending_review', 'approved', 'paying') LIMIT 1`,
  );
  return rows.length > 0;
}

export async function softDeleteCard(tx: Tx, cardId: bigint): Promise<void> {
  await tx
    .update(memberBankCards)
    .set({ deletedAt: sql`now()`, isDefault: false })
    .where(eq(memberBankCards.id, cardId));
}

/** Makes the member's newest active card the default (after the default one was removed). */
export async function promoteNewestToDefault(tx: Tx, memberId: bigint): Promise<void> {
  await tx.execute(
    sql`UPDATE member_bank_cards SET is_default = true
        WHERE id = (SELECT id FROM member_bank_cards WHERE member_id = ${memberId.toString()}::bigint
                    AND deleted_at IS NULL ORDER BY id DESC LIMIT 1)`,
  );
}
