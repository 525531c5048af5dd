import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { isoOf, rowsOf } from '../../db/sql.ts';
import type { TIdentitySignal, TReferralReward } from './referrals.profiles.ts';

/** SQL of the self-referral checks: the members' identity signals, and the refusals kept for operators. */

const s = (v: bigint) => v.toString();

/**
 * Every identity value of the members, labelled by its signal: CPFs as `cpf:<digits>` whichever
 * column holds them, other PIX keys as `pix:<type>:<key>`, addresses raw (normalised by the caller).
 * Read inside the server only; no value leaves it.
 */
export async function identityValues(
  executor: Executor,
  siteId: bigint,
  memberIds: readonly bigint[],
): Promise<{ memberId: bigint; signal: TIdentitySignal; value: string }[]> {
  if (memberIds.length === 0) return [];
  const ids = sql`ARRAY[${sql.join(
    memberIds.map((id) => sql`${s(id)}`),
    sql`, `,
  )}]::bigint[]`;
  const site = sql`${s(siteId)}::bigint`;
  const rows = await rowsOf<{ member_id: string; signal: TIdentitySignal; value: string }>(
    executor,
    sql`SELECT DISTINCT member_id::text, signal, value FROM (
          SELECT id AS member_id, 'cpf' AS signal, 'cpf:' || cpf AS value FROM members
            WHERE site_id = ${site} AND id = ANY(${ids}) AND cpf IS NOT NULL
          UNION ALL
          SELECT member_id, 'payer_cpf', 'cpf:' || payer_cpf FROM deposit_orders
            WHERE site_id = ${site} AND member_id = ANY(${ids}) AND status = 'paid' AND payer_cpf IS NOT NULL
          UNION ALL
          SELECT member_id, 'pix_key', 'cpf:' || cpf FROM member_bank_cards
            WHERE site_id = ${site} AND member_id = ANY(${ids}) AND cpf IS NOT NULL
          UNION ALL
          SELECT member_id, 'pix_key',
                 CASE WHEN account_type = 'CPF' THEN 'cpf:' || pix_key ELSE 'pix:' || account_type || ':' || pix_key END
            FROM member_bank_cards WHERE site_id = ${site} AND member_id = ANY(${ids})
          UNION ALL
          SELECT id, 'ip', register_ip FROM members
            WHERE site_id = ${site} AND id = ANY(${ids}) AND register_ip IS NOT NULL
          UNION ALL
          SELECT member_id, 'ip', ip FROM member_sessions
            WHERE site_id = ${site} AND member_id = ANY(${ids}) AND ip IS NOT NULL
        ) v`,
  );
  return rows.map((r) => ({ memberId: BigInt(r.member_id), signal: r.signal, value: r.value }));
}

export type TReferralBlock = {
  inviterId: bigint;
  inviteeId: bigint;
  signals: readonly TIdentitySignal[];
};

/** Keeps each refusal (one row per site, reward and pair; a later check refreshes its signals). */
export async function upsertBlocks(
  executor: Executor,
  siteId: bigint,
  reward: TReferralReward,
  blocks: readonly TReferralBlock[],
): Promise<void> {
  if (blocks.length === 0) return;
  const rows = blocks.map((b) => ({ inviter: s(b.inviterId), invitee: s(b.inviteeId), signals: b.signals }));
  await executor.execute(sql`
    INSERT INTO referral_blocks (site_id, reward, inviter_id, invitee_id, signals)
    SELECT ${s(siteId)}::bigint, ${reward}, r.inviter, r.invitee,
           ARRAY(SELECT jsonb_array_elements_text(r.signals))
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(inviter bigint, invitee bigint, signals jsonb)
    ON CONFLICT ON CONSTRAINT referral_blocks_once
      DO UPDATE SET signals = EXCLUDED.signals, last_seen_at = now()`);
}

export type TReferralBlockRow = {
  id: string;
  reward: TReferralReward;
  inviter: string;
  invitee: string;
  signals: TIdentitySignal[];
  first_seen_at: string;
  last_seen_at: string;
};

/** The site's refusals, latest first, with both usernames (no identity value). */
export async function findBlocks(
  executor: Executor,
  siteId: bigint,
  limit: number,
): Promise<TReferralBlockRow[]> {
  const rows = await rowsOf<Omit<TReferralBlockRow, 'signals'> & { signals: unknown }>(
    executor,
    sql`SELECT b.id::text, b.reward, a.username AS inviter, m.username AS invitee, to_json(b.signals) AS signals,
               ${isoOf('b.first_seen_at', 'seconds')} AS first_seen_at,
               ${isoOf('b.last_seen_at', 'seconds')} AS last_seen_at
          FROM referral_blocks b
          JOIN members a ON a.id = b.inviter_id
          JOIN members m ON m.id = b.invitee_id
         WHERE b.site_id = ${s(siteId)}::bigint
         ORDER BY b.last_seen_at DESC, b.id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    signals: (typeof r.signals === 'string' ? JSON.parse(r.signals) : r.signals) as TIdentitySignal[],
  }));
}
