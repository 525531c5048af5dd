import { describe, expect, it } from 'vitest';
import { WalletError } from '../wallet.errors.ts';
import { decideTransfer, type GroupLedger, planOrFail } from './plan.ts';
import { prepareTransfer } from './request.ts';

/** A ledger as a group's read leaves it: member 7's cash (id 11) and, optionally, site 1's house (id 90). */
function ledgerOf(cashMinor: bigint, withHouse: boolean): GroupLedger {
  return {
    memberAccounts: new Map([['1:7', new Map([['cash', { id: 11n, balance: cashMinor, wagering: 30n }]])]]),
    systemAccounts: new Map(withHouse ? [['1:house', 90n]] : []),
    prior: new Map(),
    grants: new Map(),
    resolutions: new Map(),
    touched: new Map(),
  };
}

const stake = (amountMinor: bigint, key = 'round:1:bet') =>
  prepareTransfer({
    siteId: 1n,
    kind: 'bet',
    from: { memberId: 7n, account: 'cash' },
    to: { system: 'house' },
    amountMinor,
    idempotencyKey: key,
  });

describe('the planner of a posting answers a decision, never throws', () => {
  it('plans a stake the cash covers and moves the ledger: balance, and wagering lowered by the stake', () => {
    const ledger = ledgerOf(100n, true);
    const decision = decideTransfer(ledger, stake(40n));
    expect(decision.kind).toBe('plan');
    if (decision.kind !== 'plan') return;
    expect(decision.plan).toMatchObject({
      debitId: 11n,
      creditId: 90n,
      debitAfter: 60n,
      wageringDelta: -30n,
    });
    expect(ledger.touched.get(11n)).toMatchObject({ balance: 60n, wagering: 0n });
    // The next stake is decided on the balance the first left.
    const second = decideTransfer(ledger, stake(70n, 'round:2:bet'));
    expect(second.kind).toBe('refuse');
  });

  it('refuses a stake the cash does not cover with INSUFFICIENT_FUNDS, leaving the ledger as it was', () => {
    const ledger = ledgerOf(10n, true);
    const decision = decideTransfer(ledger, stake(40n));
    expect(decision.kind).toBe('refuse');
    if (decision.kind !== 'refuse') return;
    expect(decision.error).toBeInstanceOf(WalletError);
    expect(decision.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(ledger.touched.size).toBe(0);
  });

  it('decides a site without system accounts goes alone (its first transfer opens them), without throwing', () => {
    const ledger = ledgerOf(100n, false);
    expect(decideTransfer(ledger, stake(40n))).toEqual({ kind: 'alone', reason: 'site_accounts_missing' });
    expect(ledger.touched.size).toBe(0);
  });

  it('fails with the WalletError where nothing can fall back (planOrFail)', () => {
    expect(() => planOrFail(ledgerOf(10n, true), stake(40n))).toThrow(WalletError);
    expect(planOrFail(ledgerOf(100n, true), stake(40n)).debitAfter).toBe(60n);
  });
});
