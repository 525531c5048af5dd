import { describe, expect, it } from 'vitest';
import type { TransferResult } from '../wallet.schema.ts';
import type { BonusGrant } from './grant-model.ts';
import { routeShares, stakeSplitOf, winShares } from './split.ts';

function stakeTransfer(metadata: Record<string, unknown>): TransferResult {
  return {
    transferId: 1n,
    siteId: 1n,
    kind: 'bet',
    debitAccountId: 1n,
    creditAccountId: 2n,
    amountMinor: 100n,
    debitBalanceAfterMinor: 0n,
    creditBalanceAfterMinor: null,
    wageringDeltaMinor: 0n,
    holdTransferId: null,
    reference: '',
    metadata,
    idempotencyKey: 'bet:1',
    createdAt: new Date(0),
    replayed: true,
  };
}

function grant(id: bigint, status: BonusGrant['status'], terms: Record<string, unknown> = {}): BonusGrant {
  return {
    id,
    siteId: 1n,
    memberId: 1n,
    campaignCode: 'welcome',
    periodKey: 'once',
    terms,
    amountMinor: 10_000n,
    balanceMinor: 0n,
    wageringRequiredMinor: 0n,
    wageringDoneMinor: 0n,
    maxBetMinor: null,
    locksCash: false,
    status,
    expiresAt: new Date(0),
    createdAt: new Date(0),
    closedAt: null,
    convertedMinor: 1_000n,
    forfeitedMinor: 0n,
  };
}

describe('the split of a win by its stake', () => {
  it('reads the bonus parts a stake recorded and ignores what is not a grant id or an amount', () => {
    const split = stakeSplitOf(
      stakeTransfer({ stakeMinor: '1000', bonusParts: { '7': '300', x: '5', '8': 'many', '9': '0' } }),
    );
    expect(split).toEqual({ stakeMinor: 1000n, parts: new Map([[7n, 300n]]) });
  });

  it('pays all to cash a stake that recorded no split (stakes from before splits were recorded)', () => {
    expect(winShares(999n, stakeSplitOf(undefined))).toEqual({ cashShareMinor: 999n, shares: [] });
  });

  it('rounds the cash share down and gives the last grant what rounding left of the bonus side', () => {
    const split = {
      stakeMinor: 300n,
      parts: new Map([
        [1n, 100n],
        [2n, 100n],
      ]),
    };
    // 1000 × 100 / 300 = 333.3: cash 333, grant 1 gets 333, grant 2 the remaining 334.
    expect(winShares(1000n, split)).toEqual({
      cashShareMinor: 333n,
      shares: [
        [1n, 333n],
        [2n, 334n],
      ],
    });
  });

  it('routes a share by what became of its grant: back to an active one, cash within a completed one’s max win, forfeited from a closed one', () => {
    const active = grant(1n, 'active');
    const completed = grant(2n, 'completed', { maxWinMinor: '1500' });
    const expired = grant(3n, 'expired');
    const shares: [bigint, bigint][] = [
      [1n, 100n],
      [2n, 800n],
      [3n, 50n],
      [4n, 20n],
    ];
    const route = routeShares([active, completed, expired], shares, 10n);
    expect(route.toGrants).toEqual([[active, 100n]]);
    // The completed grant converted 1 000 of its 1 500 max win: 500 more is cash, 300 is forfeited.
    expect(route.lateConverted).toEqual([[completed, 500n]]);
    expect(route.toForfeit).toEqual([
      [completed, 300n],
      [expired, 50n],
    ]);
    // Cash: its own 10, the completed grant's 500, and the 20 of a grant no longer there.
    expect(route.cashShareMinor).toBe(530n);
  });
});
