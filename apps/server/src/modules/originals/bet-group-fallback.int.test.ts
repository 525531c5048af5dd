import { formatMinor, MAX_MINOR, type TInstantOriginal } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { verifyAsRequired } from '../kyc/kyc.service.ts';
import { getBalances, getSystemBalances } from '../wallet/balances.ts';
import { LIMITS } from '../wallet/posting/request.ts';
import { isWalletError } from '../wallet/wallet.errors.ts';
import { createFundedTestMember, createTestSite } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { betGroupStats, placeInstantBetGrouped } from './bet-group.ts';
import { createDemoSession, DEMO_START_BALANCE_MINOR, findDemoPlayer } from './demo.service.ts';
import { ensurePair } from './fairness.service.ts';
import { prepareBet, settleInstant, type TBetBodies } from './originals.games.ts';
import { findActivePair, type TPlayer } from './originals.repo.ts';
import { placeInstantBet, seedsOf, type TBetResult } from './originals.service.ts';

/**
 * The fallback of bet groups (bet-group.ts): a group whose transaction fails rolls back as a whole
 * and every bet of it is placed one by one with `placeInstantBet`. The groups here fail for the two
 * reasons the module names: the site has no house account yet (the wallet group leaves opening
 * system accounts to `transfer`), and one bet's win would take its member over the ledger's balance
 * ceiling. Every bet must still get its own correct answer — the round its seed pair and nonce
 * decide and the balance that follows, or that one bet's refusal — with one round and one nonce
 * per bet, no gap, and a ledger that reconciles. Demo players never join a group: their bets go
 * one by one from the start.
 *
 * Expected outcomes are computed here from each player's seed pair (read before betting) with the
 * games' own settlement, so a wrong nonce or a bet placed twice shows as a wrong payout or balance.
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

const text = (value: bigint) => value.toString();

type Bet = { game: TInstantOriginal; body: TBetBodies['dice'] | TBetBodies['limbo'] };

/** The `j`th bet of member `m`: dice and limbo in turn, each member with stakes of its own. */
function betOf(m: number, j: number): Bet {
  // From R$ 5,00: smaller stakes are refused on some targets (whole-centavo payouts below the RTP).
  const amount = formatMinor(500n + 100n * BigInt(m) + 100n * BigInt(j));
  return j % 2 === 0
    ? { game: 'dice', body: { amount, direction: m % 2 === 0 ? 'under' : 'over', target: 5000 } }
    : { game: 'limbo', body: { amount, target: '2.00' } };
}

type Pair = { serverSeed: string; serverSeedHash: string; clientSeed: string };

async function activePair(db: Db, player: TPlayer): Promise<Pair> {
  const pair = await findActivePair(db, player, { lock: false });
  if (!pair) throw new Error('the player has no seed pair after ensurePair');
  return pair;
}

/** What the bet must pay at this nonce of this pair, by the game's own settlement. */
function payoutOf(pair: Pair, nonce: number, bet: Bet): bigint {
  return settleInstant(bet.game, seedsOf(pair, BigInt(nonce)), prepareBet(bet.game, bet.body)).payoutMinor;
}

const stakeOf = (bet: Bet) => prepareBet(bet.game, bet.body).stakeMinor;

/** A bet that wins more than its stake at this nonce of this pair. */
function winningBet(pair: Pair, nonce: number): Bet {
  const candidates: Bet[] = [
    { game: 'dice', body: { amount: '5.00', direction: 'under', target: 5000 } },
    { game: 'dice', body: { amount: '5.00', direction: 'over', target: 5000 } },
    { game: 'dice', body: { amount: '5.00', direction: 'under', target: 9000 } },
    { game: 'limbo', body: { amount: '5.00', target: '2.00' } },
  ];
  const bet = candidates.find((candidate) => payoutOf(pair, nonce, candidate) > stakeOf(candidate));
  if (!bet) throw new Error(`none of the candidate bets wins at nonce ${nonce}`);
  return bet;
}

/** A bet that pays nothing at this nonce of this pair. */
function losingBet(pair: Pair, nonce: number): Bet {
  const candidates: Bet[] = [
    { game: 'dice', body: { amount: '5.00', direction: 'under', target: 5000 } },
    { game: 'dice', body: { amount: '5.00', direction: 'over', target: 5000 } },
  ];
  const bet = candidates.find((candidate) => payoutOf(pair, nonce, candidate) === 0n);
  if (!bet) throw new Error(`none of the candidate bets loses at nonce ${nonce}`);
  return bet;
}

/** A member of the site with `cashMinor` deposited and a seed pair. */
async function fundedMember(
  db: Db,
  siteId: bigint,
  cashMinor: bigint,
): Promise<TPlayer & { kind: 'member' }> {
  const memberId = await createFundedTestMember(db, siteId, cashMinor);
  const player = { kind: 'member' as const, siteId, memberId };
  await ensurePair(db, player);
  return player;
}

/**
 * Takes the site back to before its system accounts were opened, keeping the one its deposits
 * used: registration opens them all (openMemberAccounts), so the only way to a site whose members
 * have money but no house account is to remove it. Accounts are guarded against deletion by a
 * trigger, which this transaction alone sets aside; no transfer names the accounts removed.
 */
async function removeUnusedSystemAccounts(db: Db, siteId: bigint): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    const removed = await rowsOf<{ kind: string }>(
      tx,
      sql`DELETE FROM wallet_accounts a
          WHERE a.site_id = ${text(siteId)}::bigint AND a.member_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM wallet_transfers t
                            WHERE t.debit_account_id = a.id OR t.credit_account_id = a.id)
          RETURNING a.kind`,
    );
    return removed.map((r) => r.kind).sort();
  });
}

async function systemAccountKinds(db: Db, siteId: bigint): Promise<string[]> {
  const rows = await rowsOf<{ kind: string }>(
    db,
    sql`SELECT kind FROM wallet_accounts WHERE site_id = ${text(siteId)}::bigint AND member_id IS NULL
        ORDER BY kind`,
  );
  return rows.map((r) => r.kind);
}

type RoundRow = {
  idempotency_key: string;
  status: string;
  stake_minor: string;
  payout_minor: string;
  nonce: string;
  staked: boolean;
  paid: boolean;
};

async function roundsOf(db: Db, player: TPlayer): Promise<RoundRow[]> {
  const owner =
    player.kind === 'member'
      ? sql`member_id = ${text(player.memberId)}::bigint`
      : sql`demo_session_id = ${text(player.demoSessionId)}::bigint`;
  return rowsOf<RoundRow>(
    db,
    sql`SELECT idempotency_key, status, stake_minor::text, payout_minor::text, nonce::text,
          bet_transfer_id IS NOT NULL AS staked, win_transfer_id IS NOT NULL AS paid
        FROM game_rounds WHERE ${owner} ORDER BY nonce`,
  );
}

async function nextNonceOf(db: Db, player: TPlayer): Promise<bigint> {
  return (await findActivePair(db, player, { lock: false }))!.nextNonce;
}

/** Counts of the member's stake and win transfers. */
async function betTransfers(db: Db, memberId: bigint): Promise<{ bets: number; wins: number }> {
  const [row] = await rowsOf<{ bets: number; wins: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE t.kind = 'bet')::int AS bets, count(*) FILTER (WHERE t.kind = 'win')::int AS wins
        FROM wallet_transfers t JOIN wallet_accounts a ON a.id IN (t.debit_account_id, t.credit_account_id)
        WHERE a.member_id = ${text(memberId)}::bigint AND t.kind IN ('bet', 'win')`,
  );
  return row!;
}

/** The bet's answer must be the round its pair and nonce decide, with the balance after it. */
function expectPlaced(result: TBetResult, pair: Pair, nonce: number, bet: Bet, balanceMinor: bigint): void {
  const payout = payoutOf(pair, nonce, bet);
  expect(result.replayed).toBe(false);
  expect(result.round).toMatchObject({
    game: bet.game,
    status: 'settled',
    stake: formatMinor(stakeOf(bet)),
    payout: formatMinor(payout),
    fairness: { server_seed_hash: pair.serverSeedHash, client_seed: pair.clientSeed, nonce },
  });
  expect(result.balance).toBe(formatMinor(balanceMinor));
}

async function expectReconciled(db: Db, siteId: bigint): Promise<void> {
  const report = await reconcile(db, { siteId });
  expect(report.drift).toEqual([]);
  expect(report.ok).toBe(true);
}

/**
 * A site whose VIP levels count wagering (the br profile: Bronze from R$ 1.000,00 wagered), with
 * `count` members of R$ 200,00 each and their seed pairs.
 */
async function wageringSite(db: Db, count: number) {
  const siteId = await createTestSite(db);
  await db.execute(sql`UPDATE sites SET jurisdiction = 'br' WHERE id = ${text(siteId)}::bigint`);
  const members: (TPlayer & { kind: 'member' })[] = [];
  for (let m = 0; m < count; m++) {
    const member = await fundedMember(db, siteId, 20_000n);
    // br requires the identity checks before a bet: these players have passed them.
    await verifyAsRequired(db, { id: siteId, jurisdiction: 'br' }, member.memberId, 'seed');
    members.push(member);
  }
  const pairs = await Promise.all(members.map((member) => activePair(db, member)));
  return { siteId, members, pairs };
}

async function setVipTotals(
  db: Db,
  member: TPlayer & { kind: 'member' },
  bettingMinor: bigint,
): Promise<void> {
  await db.execute(sql`INSERT INTO member_vip (member_id, site_id, total_betting_minor)
      VALUES (${text(member.memberId)}::bigint, ${text(member.siteId)}::bigint, ${text(bettingMinor)}::bigint)`);
}

/** The member's wagered total and VIP level (its totals' and its own), and the level-ups recorded. */
async function vipOf(db: Db, member: TPlayer & { kind: 'member' }) {
  const id = text(member.memberId);
  const [row] = await rowsOf<{ betting: string; level: number; member_level: number }>(
    db,
    sql`SELECT v.total_betting_minor::text AS betting, v.level, m.level AS member_level
        FROM member_vip v JOIN members m ON m.id = v.member_id WHERE v.member_id = ${id}::bigint`,
  );
  const ups = await rowsOf<{ up: string }>(
    db,
    sql`SELECT track || ':' || level AS up FROM vip_level_ups WHERE member_id = ${id}::bigint ORDER BY track, level`,
  );
  return {
    betting: row!.betting,
    level: row!.level,
    memberLevel: row!.member_level,
    ups: ups.map((u) => u.up),
  };
}

const statsDelta = (db: Db, before: ReturnType<typeof betGroupStats>) => {
  const after = betGroupStats(db);
  return {
    groups: after.groups - before.groups,
    bets: after.bets - before.bets,
    deferred: after.deferred - before.deferred,
    fallbacks: after.fallbacks - before.fallbacks,
  };
};

describe.each(kinds)('bet groups that fail, on %s', (kind) => {
  it('places every bet of a group that failed for want of a house account one by one, each with its own round, nonce and balance', async () => {
    const { db } = await testDatabase(kind);
    const MEMBERS = 5;
    const BETS = 4;
    const START_MINOR = 20_000n;
    const siteId = await createTestSite(db);
    const members: (TPlayer & { kind: 'member' })[] = [];
    for (let m = 0; m < MEMBERS; m++) members.push(await fundedMember(db, siteId, START_MINOR));
    expect(await removeUnusedSystemAccounts(db, siteId)).toContain('house');
    expect(await systemAccountKinds(db, siteId)).toEqual(['psp_clearing']);
    const pairs = await Promise.all(members.map((member) => activePair(db, member)));
    const plans = members.map((_, m) => Array.from({ length: BETS }, (_, j) => betOf(m, j)));
    // The fallback places the first member's first bet first, and its stake opens the house
    // account. It is made a loss: its answer is the balance after the stake, read from the rows the
    // stake locked, which `post` keeps current even when it opens the system accounts itself.
    plans[0]![0] = losingBet(pairs[0]!, 0);
    const before = betGroupStats(db);

    // The members bet at once, each its own bets in order: their first bets make one group.
    const results: TBetResult[][] = members.map(() => []);
    await Promise.all(
      members.map(async (member, m) => {
        for (let j = 0; j < BETS; j++) {
          const bet = plans[m]![j]!;
          results[m]![j] = await placeInstantBetGrouped(db, member, bet.game, bet.body, `fallback-${m}-${j}`);
        }
      }),
    );

    let houseMinor = 0n;
    for (const [m, member] of members.entries()) {
      let balanceMinor = START_MINOR;
      let wins = 0;
      const expectedRounds: RoundRow[] = [];
      for (let j = 0; j < BETS; j++) {
        const bet = plans[m]![j]!;
        const payout = payoutOf(pairs[m]!, j, bet);
        balanceMinor += payout - stakeOf(bet);
        houseMinor += stakeOf(bet) - payout;
        if (payout > 0n) wins++;
        expectPlaced(results[m]![j]!, pairs[m]!, j, bet, balanceMinor);
        expectedRounds.push({
          idempotency_key: `fallback-${m}-${j}`,
          status: 'settled',
          stake_minor: text(stakeOf(bet)),
          payout_minor: text(payout),
          nonce: String(j),
          staked: true,
          paid: payout > 0n,
        });
      }
      // One round per bet, nonces 0..BETS-1 without a gap, and the pair's next nonce after them.
      expect(await roundsOf(db, member)).toEqual(expectedRounds);
      expect(await nextNonceOf(db, member)).toBe(BigInt(BETS));
      expect(await betTransfers(db, member.memberId)).toEqual({ bets: BETS, wins });
      expect((await getBalances(db, member.memberId, { siteId })).cashMinor).toBe(balanceMinor);
    }

    // The first group rolled back and went bet by bet; the one-by-one path opened the system
    // accounts, and the later groups committed as groups.
    const delta = statsDelta(db, before);
    expect(delta.fallbacks).toBe(1);
    expect(delta.bets).toBe(MEMBERS * BETS);
    expect(delta.deferred).toBe(0);
    expect(delta.groups).toBeGreaterThan(delta.fallbacks);
    expect(delta.groups).toBeLessThan(delta.bets);
    expect(await systemAccountKinds(db, siteId)).toContain('house');
    expect((await getSystemBalances(db, siteId)).house).toBe(houseMinor);
    await expectReconciled(db, siteId);
  });

  it('places the other bets of a group one by one when one bet’s win would pass the balance ceiling, and refuses only that bet as placeInstantBet does', async () => {
    const { db } = await testDatabase(kind);
    const START_MINOR = 20_000n;
    const siteId = await createTestSite(db);
    const others = [
      await fundedMember(db, siteId, START_MINOR),
      await fundedMember(db, siteId, START_MINOR),
      await fundedMember(db, siteId, START_MINOR),
    ];
    // A member at the ceiling: a bet that wins would leave more than an account may hold.
    const rich = await fundedMember(db, siteId, MAX_MINOR);
    let richMinor = MAX_MINOR;
    for (let n = 1; richMinor + MAX_MINOR <= LIMITS.balanceMinor; n++) {
      await transfer(db, {
        siteId,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId: rich.memberId, account: 'cash' },
        amountMinor: MAX_MINOR,
        idempotencyKey: `fallback-rich-${rich.memberId}-${n}`,
      });
      richMinor += MAX_MINOR;
    }
    expect(richMinor).toBe(LIMITS.balanceMinor);
    const richBet = winningBet(await activePair(db, rich), 0);
    const pairs = await Promise.all(others.map((member) => activePair(db, member)));
    const before = betGroupStats(db);

    const settled = await Promise.allSettled([
      ...others.map((member, m) => {
        const bet = betOf(m, 0);
        return placeInstantBetGrouped(db, member, bet.game, bet.body, `ceiling-${m}`);
      }),
      placeInstantBetGrouped(db, rich, richBet.game, richBet.body, 'ceiling-rich'),
    ]);

    for (const [m, member] of others.entries()) {
      const outcome = settled[m]!;
      if (outcome.status === 'rejected') throw outcome.reason;
      const bet = betOf(m, 0);
      const balanceMinor = START_MINOR - stakeOf(bet) + payoutOf(pairs[m]!, 0, bet);
      expectPlaced(outcome.value, pairs[m]!, 0, bet, balanceMinor);
      expect((await roundsOf(db, member)).map((r) => [r.idempotency_key, r.nonce])).toEqual([
        [`ceiling-${m}`, '0'],
      ]);
      expect(await nextNonceOf(db, member)).toBe(1n);
    }

    // The rich member's bet is refused as the one-by-one bet refuses it, and leaves nothing behind.
    const richOutcome = settled[others.length]!;
    expect(richOutcome.status).toBe('rejected');
    const refusal = (richOutcome as PromiseRejectedResult).reason;
    const alone = await placeInstantBet(db, rich, richBet.game, richBet.body, 'ceiling-rich-alone').then(
      () => null,
      (error: unknown) => error,
    );
    expect(isWalletError(alone, 'INVALID_AMOUNT')).toBe(true);
    expect(isWalletError(refusal, 'INVALID_AMOUNT')).toBe(true);
    expect(await roundsOf(db, rich)).toEqual([]);
    expect(await nextNonceOf(db, rich)).toBe(0n);
    expect((await getBalances(db, rich.memberId, { siteId })).cashMinor).toBe(LIMITS.balanceMinor);

    const delta = statsDelta(db, before);
    expect(delta.fallbacks).toBe(1);
    expect(delta.bets).toBe(others.length + 1);
    await expectReconciled(db, siteId);
  });

  it('raises the VIP level a stake crosses inside a group, and only that member’s', async () => {
    const { db } = await testDatabase(kind);
    const { siteId, members, pairs } = await wageringSite(db, 3);
    // The first member is R$ 2,00 short of Bronze (R$ 1.000,00 wagered on br); its R$ 5,00 stake crosses.
    await setVipTotals(db, members[0]!, 99_800n);
    await setVipTotals(db, members[1]!, 10_000n);
    const before = betGroupStats(db);

    const bets = pairs.map((pair) => losingBet(pair, 0));
    const results = await Promise.all(
      members.map((member, m) =>
        placeInstantBetGrouped(db, member, bets[m]!.game, bets[m]!.body, `vip-level-${m}`),
      ),
    );

    for (const [m, result] of results.entries()) expectPlaced(result, pairs[m]!, 0, bets[m]!, 20_000n - 500n);
    expect(statsDelta(db, before)).toEqual({ groups: 1, bets: 3, deferred: 0, fallbacks: 0 });
    expect(await vipOf(db, members[0]!)).toEqual({
      betting: '100300',
      level: 1,
      memberLevel: 1,
      ups: ['vip:1'],
    });
    expect(await vipOf(db, members[1]!)).toEqual({ betting: '10500', level: 0, memberLevel: 0, ups: [] });
    expect(await vipOf(db, members[2]!)).toEqual({ betting: '500', level: 0, memberLevel: 0, ups: [] });
    await expectReconciled(db, siteId);
  });

  it('places a group one by one when its members’ VIP totals are not what it read', async () => {
    const { db } = await testDatabase(kind);
    const { siteId, members, pairs } = await wageringSite(db, 3);
    for (const member of members) await setVipTotals(db, member, 10_000n);
    // Another transaction counting a stake of the second member between the group's read and its
    // write, as a trigger: every update of its totals adds R$ 0,01 more.
    const moved = text(members[1]!.memberId);
    const trigger = `vip_moved_${kind}_${moved}`;
    await db.execute(
      sql.raw(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.total_betting_minor := NEW.total_betting_minor + 1; RETURN NEW; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER ${trigger} BEFORE UPDATE ON member_vip FOR EACH ROW
        WHEN (NEW.member_id = ${moved}) EXECUTE FUNCTION ${trigger}()`),
    );
    const before = betGroupStats(db);
    try {
      const bets = pairs.map((pair) => losingBet(pair, 0));
      const results = await Promise.all(
        members.map((member, m) =>
          placeInstantBetGrouped(db, member, bets[m]!.game, bets[m]!.body, `vip-moved-${m}`),
        ),
      );
      for (const [m, result] of results.entries())
        expectPlaced(result, pairs[m]!, 0, bets[m]!, 20_000n - 500n);
    } finally {
      await db.execute(sql.raw(`DROP TRIGGER ${trigger} ON member_vip`));
      await db.execute(sql.raw(`DROP FUNCTION ${trigger}()`));
    }
    // The group's write found the totals moved and rolled back; each bet was then placed once.
    expect(statsDelta(db, before)).toEqual({ groups: 1, bets: 3, deferred: 0, fallbacks: 1 });
    for (const [m, member] of members.entries()) {
      expect((await roundsOf(db, member)).map((r) => [r.idempotency_key, r.nonce])).toEqual([
        [`vip-moved-${m}`, '0'],
      ]);
      expect(await nextNonceOf(db, member)).toBe(1n);
      expect(await betTransfers(db, member.memberId)).toEqual({ bets: 1, wins: 0 });
      expect((await vipOf(db, member)).betting).toBe(m === 1 ? '10501' : '10500');
    }
    await expectReconciled(db, siteId);
  });

  it('places a demo player’s bets through placeInstantBetGrouped one by one, outside any group', async () => {
    const { db } = await testDatabase(kind);
    const siteId = await createTestSite(db);
    const { demo_token } = await createDemoSession(db, siteId);
    const demo = await findDemoPlayer(db, siteId, demo_token);
    if (!demo) throw new Error('the demo session just created is not found');
    await ensurePair(db, demo);
    const pair = await activePair(db, demo);
    const before = betGroupStats(db);

    let balanceMinor = DEMO_START_BALANCE_MINOR;
    for (let j = 0; j < 3; j++) {
      const bet = betOf(j, j);
      const result = await placeInstantBetGrouped(db, demo, bet.game, bet.body, `demo-bet-${j}`);
      balanceMinor += payoutOf(pair, j, bet) - stakeOf(bet);
      expectPlaced(result, pair, j, bet, balanceMinor);
      expect(result.round.demo).toBe(true);
    }
    // A replay answers the first round again, without a new one.
    const first = betOf(0, 0);
    const replay = await placeInstantBetGrouped(db, demo, first.game, first.body, 'demo-bet-0');
    expect(replay.replayed).toBe(true);
    expect(replay.round.fairness?.nonce).toBe(0);

    expect((await roundsOf(db, demo)).map((r) => [r.idempotency_key, r.nonce, r.staked])).toEqual([
      ['demo-bet-0', '0', false],
      ['demo-bet-1', '1', false],
      ['demo-bet-2', '2', false],
    ]);
    expect(await nextNonceOf(db, demo)).toBe(3n);
    const [session] = await rowsOf<{ balance_minor: string }>(
      db,
      sql`SELECT balance_minor::text FROM demo_sessions WHERE id = ${text(demo.demoSessionId)}::bigint`,
    );
    expect(session!.balance_minor).toBe(text(balanceMinor));
    // Nothing of it went through the queue.
    expect(statsDelta(db, before)).toEqual({ groups: 0, bets: 0, deferred: 0, fallbacks: 0 });
  });
});
