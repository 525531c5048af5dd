import type { Executor } from '../../db/client.ts';

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
 * The single place the user info gets its money from. Balances belong to the wallet module (the
 * only writer of the ledger); this foundation has no money movements yet, so every member's
 * figures are zero. When the wallet's balance reader lands, this function delegates to it and
 * every caller (me, login, register) shows ledger balances with no other change.
 */
export async function getMemberBalances(
  _executor: Executor,
  _siteId: bigint,
  _memberId: bigint,
): Promise<TMemberBalances> {
  return { ...ZERO_BALANCES };
}
