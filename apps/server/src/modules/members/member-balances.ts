import type { Executor } from '../../db/client.ts';
import { getBalances } from '../wallet/balances.ts';

/** Every money figure of the user info (spec §3), in centavos. */
export type TMemberBalances = {
  moneyMinor: bigint;
  fsMoneyMinor: bigint;
  mlMoneyMinor: bigint;
  totalMoneyMinor: bigint;
  totalSlotMoneyMinor: bigint;
  totalLiveMoneyMinor: bigint;
  totalCreditMinor: bigint;
  usedCreditMinor: bigint;
};

export const ZERO_BALANCES: Readonly<TMemberBalances> = Object.freeze({
  moneyMinor: 0n,
  fsMoneyMinor: 0n,
  mlMoneyMinor: 0n,
  totalMoneyMinor: 0n,
  totalSlotMoneyMinor: 0n,
  totalLiveMoneyMinor: 0n,
  totalCreditMinor: 0n,
  usedCreditMinor: 0n,
});

/**
 * The single place the user info gets its money from: the wallet's ledger balances (the wallet is
 * the only writer of the ledger). money = cash, fs_money = bonus, ml_money = turnover still to bet
 * before cash is withdrawable, total_money = cash + bonus. Every in-house game settles against the
 * one cash account, so the per-platform slot/live figures and the credit line stay zero.
 */
export async function getMemberBalances(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<TMemberBalances> {
  const balances = await getBalances(executor, memberId, { siteId });
  return {
    ...ZERO_BALANCES,
    moneyMinor: balances.cashMinor,
    fsMoneyMinor: balances.bonusMinor,
    mlMoneyMinor: balances.wageringRequiredMinor,
    totalMoneyMinor: balances.totalMinor,
  };
}
