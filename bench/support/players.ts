import type { Db } from '../../apps/server/src/db/client.ts';
import { grantBonus } from '../../apps/server/src/modules/wallet/bonus/grants.ts';

/**
 * A bench player's active bonus grant, as after a first-deposit bonus: R$ 100,00, wagering far
 * above what a run stakes, a max bet of R$ 50,00, cash not locked. Every stake then comes from
 * cash and feeds the grant's wagering.
 */
export async function grantBenchBonus(db: Db, siteId: bigint, memberId: bigint): Promise<void> {
  await grantBonus(db, {
    siteId,
    memberId,
    campaignCode: 'bench-first-deposit',
    periodKey: 'once',
    amountMinor: 10_000n,
    wageringRequiredMinor: 1_000_000_000n,
    maxBetMinor: 5_000n,
    locksCash: false,
    expiresAt: new Date(Date.now() + 7 * 86_400_000),
    terms: {},
  });
}
