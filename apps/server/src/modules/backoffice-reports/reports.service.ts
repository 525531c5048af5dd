import { formatMinor, type TReconciliationResponse } from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { getSystemBalances } from '../wallet/balances.ts';
import { DRIFT_CHECKS, reconcile } from '../wallet/wallet.reconcile.ts';
import { intOf, moneyText, pageOf, type TPage, type TPaging } from './reports.format.ts';
import {
  crashChainExists,
  findCrashChainsPage,
  findCrashRoundsPage,
  findMailPage,
  sumPlayerBalances,
} from './reports.repo.ts';

/** The wallet's reconcile for the operator's site, with the balances it checked. */
export async function reconciliation(executor: Executor, siteId: bigint): Promise<TReconciliationResponse> {
  const report = await reconcile(executor, { siteId });
  const system = await getSystemBalances(executor, siteId);
  const players = await sumPlayerBalances(executor, siteId);
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
  const { count, rows } = await findCrashChainsPage(executor, paging);
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id), length: intOf(r.length), position: intOf(r.position) })),
    intOf(count),
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
  if (!(await crashChainExists(executor, chainId))) throw new AppError('NOT_FOUND');
  const { count, rows } = await findCrashRoundsPage(executor, chainId, paging);
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id), position: intOf(r.position), bets: intOf(r.bets) })),
    intOf(count),
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
  const { count, rows } = await findMailPage(executor, siteId, filter, paging);
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
    intOf(count),
    paging,
  );
}
