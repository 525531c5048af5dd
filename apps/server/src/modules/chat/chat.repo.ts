import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf } from '../../db/sql.ts';

/** SQL of the chat room and the rain (migrations/0032_chat.sql). */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface TMessageRow {
  id: string;
  author: string;
  text: string;
  created_at: string;
}

export async function insertMessage(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint; author: string; text: string },
): Promise<TMessageRow> {
  const [row] = await rowsOf<TMessageRow>(
    executor,
    sql`INSERT INTO chat_messages (site_id, member_id, author, text)
        VALUES (${input.siteId}, ${input.memberId}, ${input.author}, ${input.text})
        RETURNING id::text, author, text, ${isoOf(sql`created_at`)} AS created_at`,
  );
  return row!;
}

/** The room's latest messages, oldest first. */
export async function findLatestMessages(
  executor: Executor,
  siteId: bigint,
  limit: number,
): Promise<TMessageRow[]> {
  if (limit <= 0) return [];
  const rows = await rowsOf<TMessageRow>(
    executor,
    sql`SELECT id::text, author, text, ${isoOf(sql`created_at`)} AS created_at
        FROM chat_messages WHERE site_id = ${siteId} AND deleted_at IS NULL
        ORDER BY id DESC LIMIT ${limit}`,
  );
  return rows.reverse();
}

/** Messages the member posted in the last `seconds` (the rate limit; the database is shared by processes). */
export async function countRecentMessages(
  executor: Executor,
  memberId: bigint,
  seconds: number,
): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM chat_messages
        WHERE member_id = ${memberId} AND created_at > now() - make_interval(secs => ${seconds})`,
  );
  return row?.n ?? 0;
}

export async function deleteMessage(
  executor: Executor,
  siteId: bigint,
  messageId: bigint,
  operatorId: bigint,
): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE chat_messages SET deleted_at = now(), deleted_by = ${operatorId}
        WHERE id = ${messageId} AND site_id = ${siteId} AND deleted_at IS NULL RETURNING id::text`,
  );
  return rows.length > 0;
}

/** A message of the site as it stands (for the audit entry of its removal). */
export async function findMessageForAudit(executor: Executor, siteId: bigint, messageId: bigint) {
  const [row] = await rowsOf<{ member_id: string; author: string; text: string }>(
    executor,
    sql`SELECT member_id::text, author, text FROM chat_messages
        WHERE id = ${messageId} AND site_id = ${siteId} AND deleted_at IS NULL FOR NO KEY UPDATE`,
  );
  return row ?? null;
}

/** The member's mute now: null when not muted; `until` null when muted until lifted. */
export async function findMute(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<{ until: string | null } | null> {
  const [row] = await rowsOf<{ until: string | null }>(
    executor,
    sql`SELECT CASE WHEN until IS NULL THEN NULL ELSE ${isoOf(sql`until`)} END AS until FROM chat_mutes
        WHERE site_id = ${siteId} AND member_id = ${memberId} AND (until IS NULL OR until > now())`,
  );
  return row ?? null;
}

export async function upsertMute(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint; minutes: number | null; reason: string; operatorId: bigint },
): Promise<void> {
  const until = input.minutes === null ? sql`NULL` : sql`now() + make_interval(mins => ${input.minutes})`;
  await executor.execute(
    sql`INSERT INTO chat_mutes (site_id, member_id, until, reason, muted_by)
        VALUES (${input.siteId}, ${input.memberId}, ${until}, ${input.reason}, ${input.operatorId})
        ON CONFLICT (site_id, member_id) DO UPDATE
          SET until = EXCLUDED.until, reason = EXCLUDED.reason, muted_by = EXCLUDED.muted_by, created_at = now()`,
  );
}

export async function removeMute(executor: Executor, siteId: bigint, memberId: bigint): Promise<void> {
  await executor.execute(sql`DELETE FROM chat_mutes WHERE site_id = ${siteId} AND member_id = ${memberId}`);
}

export async function findMemberByName(executor: Executor, siteId: bigint, username: string) {
  const [row] = await rowsOf<{ id: string; username: string }>(
    executor,
    sql`SELECT id::text, username FROM members WHERE site_id = ${siteId} AND username_lower = lower(${username})`,
  );
  return row ?? null;
}

export async function findAuthor(executor: Executor, siteId: bigint, memberId: bigint) {
  const [row] = await rowsOf<{ username: string; nickname: string | null }>(
    executor,
    sql`SELECT username, nickname FROM members WHERE id = ${memberId} AND site_id = ${siteId}`,
  );
  return row ?? null;
}

// Rain

export interface TRainRow {
  id: string;
  slot: string;
  pot_minor: string;
  share_minor: string;
  eligible: number;
  status: 'paying' | 'done';
}

const rainColumns = sql`id::text, ${isoOf(sql`slot`)} AS slot, pot_minor::text, share_minor::text, eligible, status`;

/**
 * Creates the rain of a slot with its payouts frozen: members who posted in the window before the
 * slot, not deleted, not muted at the slot, with an active account, who staked at least
 * `minWagerMinor` in the `wagerDays` days before it (their turnover: accounts opened only to chat
 * for the rain get nothing). Null when the slot has its rain.
 */
export async function insertRain(
  executor: Executor,
  input: {
    siteId: bigint;
    slot: Date;
    potMinor: bigint;
    windowMinutes: number;
    minWagerMinor: bigint;
    wagerDays: number;
  },
): Promise<TRainRow | null> {
  const slot = input.slot.toISOString();
  const eligible = await rowsOf<{ member_id: string }>(
    executor,
    sql`SELECT DISTINCT c.member_id::text AS member_id
        FROM chat_messages c JOIN members m ON m.id = c.member_id AND m.status = 1
        WHERE c.site_id = ${input.siteId} AND c.deleted_at IS NULL
          AND c.created_at >= ${slot}::timestamptz - make_interval(mins => ${input.windowMinutes})
          AND c.created_at < ${slot}::timestamptz
          AND NOT EXISTS (
            SELECT 1 FROM chat_mutes u WHERE u.site_id = c.site_id AND u.member_id = c.member_id
              AND (u.until IS NULL OR u.until > ${slot}::timestamptz))
          AND ${input.minWagerMinor}::bigint <= (
            SELECT coalesce(sum(t.stake_minor), 0) FROM member_turnover t
            WHERE t.member_id = c.member_id
              AND t.day >= (${slot}::timestamptz - make_interval(days => ${input.wagerDays}))::date
              AND t.day <= ${slot}::timestamptz::date)
        ORDER BY 1`,
  );
  const n = BigInt(eligible.length);
  const share = n === 0n ? 0n : input.potMinor / n;
  const remainder = n === 0n ? input.potMinor : input.potMinor - share * n;
  const [rain] = await rowsOf<TRainRow>(
    executor,
    sql`INSERT INTO chat_rains (site_id, slot, pot_minor, share_minor, remainder_minor, eligible, status, finished_at)
        VALUES (${input.siteId}, ${slot}::timestamptz, ${input.potMinor}, ${share}, ${remainder}, ${eligible.length},
                ${share === 0n ? 'done' : 'paying'}, ${share === 0n ? sql`now()` : sql`NULL`})
        ON CONFLICT (site_id, slot) DO NOTHING
        RETURNING ${rainColumns}`,
  );
  if (!rain || share === 0n) return rain ?? null;
  for (const row of eligible) {
    await executor.execute(
      sql`INSERT INTO chat_rain_payouts (rain_id, member_id, amount_minor)
          VALUES (${BigInt(rain.id)}, ${BigInt(row.member_id)}, ${share})`,
    );
  }
  return rain;
}

export async function findPayingRains(executor: Executor, siteId: bigint): Promise<TRainRow[]> {
  return rowsOf<TRainRow>(
    executor,
    sql`SELECT ${rainColumns} FROM chat_rains WHERE site_id = ${siteId} AND status = 'paying' ORDER BY id`,
  );
}

export async function findUnpaidMembers(executor: Executor, rainId: bigint): Promise<bigint[]> {
  const rows = await rowsOf<{ member_id: string }>(
    executor,
    sql`SELECT member_id::text FROM chat_rain_payouts WHERE rain_id = ${rainId} AND paid_at IS NULL ORDER BY member_id`,
  );
  return rows.map((row) => BigInt(row.member_id));
}

/** Locks one payout; null when it was paid meanwhile (by this or another process). */
export async function lockUnpaidPayout(executor: Executor, rainId: bigint, memberId: bigint) {
  const [row] = await rowsOf<{ amount_minor: string }>(
    executor,
    sql`SELECT amount_minor::text FROM chat_rain_payouts
        WHERE rain_id = ${rainId} AND member_id = ${memberId} AND paid_at IS NULL FOR NO KEY UPDATE`,
  );
  return row ? BigInt(row.amount_minor) : null;
}

export async function markPayoutPaid(
  executor: Executor,
  rainId: bigint,
  memberId: bigint,
  transferId: bigint,
) {
  await executor.execute(
    sql`UPDATE chat_rain_payouts SET paid_at = now(), transfer_id = ${transferId}
        WHERE rain_id = ${rainId} AND member_id = ${memberId}`,
  );
}

export async function finishRain(executor: Executor, rainId: bigint): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE chat_rains SET status = 'done', finished_at = now()
        WHERE id = ${rainId} AND status = 'paying'
          AND NOT EXISTS (SELECT 1 FROM chat_rain_payouts WHERE rain_id = ${rainId} AND paid_at IS NULL)
        RETURNING id::text`,
  );
  return rows.length > 0;
}

export async function findLastRain(executor: Executor, siteId: bigint): Promise<TRainRow | null> {
  const [row] = await rowsOf<TRainRow>(
    executor,
    sql`SELECT ${rainColumns} FROM chat_rains WHERE site_id = ${siteId} AND status = 'done' ORDER BY slot DESC LIMIT 1`,
  );
  return row ?? null;
}

/** The author's row lock: a post and a mute of the same member take turns on it. */
export async function lockAuthorRow(tx: Executor, memberId: bigint): Promise<void> {
  await tx.execute(sql`SELECT id FROM members WHERE id = ${memberId} FOR NO KEY UPDATE`);
}
