import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer, registration } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { addCard } from '../deposits/money.fixtures.ts';
import { getBalances, reconcile } from './wallet.service.ts';

const kinds = await databaseKinds();
const minor = (text: string) => BigInt(text.replace('.', ''));

/**
 * The lock order of the money paths (docs/decisions/029-one-lock-order.md), tried the way a player
 * can: one member's withdrawals and bets at the same moment. A withdrawal holds the member row and
 * then the accounts; a bet group holds the accounts and then inserts transfers, whose foreign key
 * to `members` takes FOR KEY SHARE on the same row. With the member row held FOR UPDATE the two
 * waited on each other and PostgreSQL broke the cycle with `deadlock detected`: a 500.
 */
describe.each(kinds)('one lock order for every money path on %s', (kind) => {
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it('answers 40 withdrawals and 80 dice bets of one member sent at once without a 5xx, the money exact', async () => {
    const player = await fundedPlayer(app, 10_000n);
    const cardId = (await addCard(app.services.db, player.memberId)).toString();
    const withdrawals = Array.from({ length: 40 }, () =>
      call(app, {
        method: 'POST',
        url: '/api/drawing',
        token: player.token,
        payload: { money: '20.00', member_bank_id: cardId, qk_pwd: registration().qk_pwd },
      }),
    );
    const bets = Array.from({ length: 80 }, () =>
      call(app, {
        method: 'POST',
        url: '/api/originals/dice/bet',
        token: player.token,
        payload: { amount: '1.00', direction: 'under', target: 5000 },
      }),
    );
    const answers = await Promise.all([...withdrawals, ...bets]);
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.body.code)).toEqual([]);

    const held = answers.slice(0, 40).filter((answer) => answer.body.status === 'success').length;
    const placed = answers.slice(40).filter((answer) => answer.body.status === 'success');
    const paidMinor = placed.reduce((sum, answer) => sum + minor(answer.body.data.round.payout), 0n);
    expect(held).toBeGreaterThan(0);
    expect(placed.length).toBeGreaterThan(0);
    const balances = await getBalances(app.services.db, player.memberId);
    expect(balances.holdMinor).toBe(BigInt(held) * 2_000n);
    expect(balances.cashMinor).toBe(
      10_000n - BigInt(held) * 2_000n - BigInt(placed.length) * 100n + paidMinor,
    );
    expect((await reconcile(app.services.db)).ok).toBe(true);
  }, 120_000);
});
