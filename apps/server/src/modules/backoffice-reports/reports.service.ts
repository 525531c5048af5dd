import { formatMinor, type TReconciliationResponse } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { containsPattern, isoOf } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { getSystemBalances } from '../wallet/balances.ts';
import { DRIFT_CHECKS, reconcile } from '../wallet/wallet.reconcile.ts';
import { intOf, limitOffset, moneyText, pageOf, queryRows, type TPage, type TPaging } from './reports.sql.ts';

/** The wallet's reconcile for the operator's site, with the balances it checked. */
export async function reconciliation(executor: Executor, siteId: bigint): Promise<TReconciliationResponse> {
  const report = await reconcile(executor, { siteId });
  const system = await getSystemBalances(executor, siteId);
  const [players] = await queryRows<{ cash: unknown; bonus: unknown; withdrawal_hold: unknown }>(
    executor,
    sql`SELECT COALESCE(sum(balance_minor) FILTER (WHERE kind = 'cash'), 0)::text AS cash,
               COALESCE(sum(balance_minor) FILTER (WHERE kind = 'bonus'), 0)::text AS bonus,
               COALESCE(sum(balance_minor) FILTER (WHERE kind = 'withdrawal_hold'), 0)::text AS withdrawal_hold
        FROM wallet_accounts WHERE site_id = ${siteId.toString()}::bigint AND member_id IS NOT NULL`,
  );
  const text = (value: bigint | null) => (value === null ? null : formatMinor(value));
  return {
    ok: report.ok,
    checked_at: report.checkedAt.toISOString(),
    accounts: report.accounts,
    transfers: report.transfers,
    balance_sum: formatMinor(report.sites.find((s) => s.siteId === siteId)?.balanceSumMinor ?? 0n),
    player_balances: {
      cash: moneyText(players?.cash),
      bonus: moneyText(players?.bonus),
      withdrawal_hold: moneyText(players?.withdrawal_hold),
    },
    system_balances: Object.fromEntries(
      Object.entries(system).map(([kind, minor]) => [kind, formatMinor(minor)]),
    ),
    drift: report.drift.map((d) => ({
      check: d.check,
      description: DRIFT_CHECKS[d.check],
      account_id: d.accountId?.toString() ?? null,
      transfer_id: d.transferId?.toString() ?? null,
      expected: d.check === 'CROSS_SITE' ? (d.expectedMinor?.toString() ?? null) : text(d.expectedMinor),
      actual: d.check === 'CROSS_SITE' ? (d.actualMinor?.toString() ?? null) : text(d.actualMinor),
    })),
  };
}

export type TCrashChainRow = {
  id: number;
  terminating_hash: string;
  public_salt: string | null;
  salt_source: string;
  salt_fixed_at: string | null;
  length: number;
  position: number;
  created_at: string;
  first_round_at: string | null;
  last_round_at: string | null;
};

/**
 * The crash hash chains as published (terminating hash, public salt, length, progress). The
 * terminal seed is the secret the chain is built from and is never read here.
 */
export async function crashChains(executor: Executor, paging: TPaging): Promise<TPage<TCrashChainRow>> {
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM crash_chains`,
  );
  const rows = await queryRows<{
    id: unknown;
    terminating_hash: string;
    public_salt: string | null;
    salt_source: string;
    salt_fixed_at: string | null;
    length: unknown;
    position: unknown;
    created_at: string;
    first_round_at: string | null;
    last_round_at: string | null;
  }>(
    executor,
    sql`SELECT c.id::text AS id, c.terminating_hash, c.public_salt, c.salt_source,
          ${isoOf('c.salt_fixed_at')} AS salt_fixed_at, c.length::text AS length,
          c.position::text AS position, ${isoOf('c.created_at')} AS created_at,
          (SELECT ${isoOf('min(r.created_at)')} FROM crash_rounds r WHERE r.chain_id = c.id) AS first_round_at,
          (SELECT ${isoOf('max(r.created_at)')} FROM crash_rounds r WHERE r.chain_id = c.id) AS last_round_at
        FROM crash_chains c ORDER BY c.id DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id), length: intOf(r.length), position: intOf(r.position) })),
    intOf(count?.n),
    paging,
  );
}

export type TCrashRoundRow = {
  id: number;
  position: number;
  state: string;
  hash_commitment: string;
  round_hash: string | null;
  crash_point: string | null;
  created_at: string;
  crashed_at: string | null;
  bets: number;
};

/**
 * A chain's rounds, newest first. The round hash and the crash point are secret until the round
 * crashed (as on the player side): before that only the commitment shows.
 */
export async function crashChainRounds(
  executor: Executor,
  chainId: number,
  paging: TPaging,
): Promise<TPage<TCrashRoundRow>> {
  const [chain] = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT id::text AS id FROM crash_chains WHERE id = ${String(chainId)}::bigint`,
  );
  if (!chain) throw new AppError('NOT_FOUND');
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM crash_rounds WHERE chain_id = ${String(chainId)}::bigint`,
  );
  const rows = await queryRows<{
    id: unknown;
    position: unknown;
    state: string;
    hash_commitment: string;
    round_hash: string | null;
    crash_point: string | null;
    created_at: string;
    crashed_at: string | null;
    bets: unknown;
  }>(
    executor,
    sql`SELECT r.id::text AS id, r.position::text AS position, r.state, r.hash_commitment,
          CASE WHEN r.state = 'crashed' THEN r.round_hash END AS round_hash,
          CASE WHEN r.state = 'crashed' THEN to_char(r.crash_hundredths / 100.0, 'FM999999990.00') END AS crash_point,
          ${isoOf('r.created_at')} AS created_at, ${isoOf('r.crashed_at')} AS crashed_at,
          (SELECT count(*) FROM crash_bets b WHERE b.round_id = r.id)::text AS bets
        FROM crash_rounds r WHERE r.chain_id = ${String(chainId)}::bigint
        ORDER BY r.position DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id), position: intOf(r.position), bets: intOf(r.bets) })),
    intOf(count?.n),
    paging,
  );
}

export type TMailRow = {
  id: number;
  created_at: string;
  to_address: string;
  username: string | null;
  subject: string;
  body: string;
  status: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
};

/**
 * One-time codes in a mail body (email confirmation and password reset codes, 4+ digits) are masked:
 * an operator reading the outbox must not be able to take over a player's account with them.
 */
export function maskCodes(text: string): string {
  return text.replace(/\b\d{4,}\b/g, (digits) => '•'.repeat(digits.length));
}

/** The site's mail, newest first, by status and recipient/subject text; read-only. */
export async function mailOutbox(
  executor: Executor,
  siteId: bigint,
  filter: { status?: string | undefined; q?: string | undefined },
  paging: TPaging,
): Promise<TPage<TMailRow>> {
  const conditions = [sql`o.site_id = ${siteId.toString()}::bigint`];
  if (filter.status) conditions.push(sql`o.status = ${filter.status}`);
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(
      sql`(o.to_address ILIKE ${pattern} OR o.subject ILIKE ${pattern} OR m.username ILIKE ${pattern})`,
    );
  }
  const where = sql.join(conditions, sql` AND `);
  const from = sql`FROM mail_outbox o LEFT JOIN members m ON m.id = o.member_id WHERE ${where}`;
  const [count] = await queryRows<{ n: unknown }>(executor, sql`SELECT count(*)::text AS n ${from}`);
  const rows = await queryRows<{
    id: unknown;
    created_at: string;
    to_address: string;
    username: string | null;
    subject: string;
    body_text: string;
    status: string;
    attempts: unknown;
    last_error: string | null;
    sent_at: string | null;
  }>(
    executor,
    sql`SELECT o.id::text AS id, ${isoOf('o.created_at')} AS created_at, o.to_address, m.username, o.subject,
          o.body_text, o.status, o.attempts::text AS attempts, o.last_error, ${isoOf('o.sent_at')} AS sent_at
        ${from} ORDER BY o.id DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((r) => ({
      id: intOf(r.id),
      created_at: r.created_at,
      to_address: r.to_address,
      username: r.username,
      subject: r.subject,
      body: maskCodes(r.body_text),
      status: r.status,
      attempts: intOf(r.attempts),
      last_error: r.last_error,
      sent_at: r.sent_at,
    })),
    intOf(count?.n),
    paging,
  );
}
