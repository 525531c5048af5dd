import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { getBalances, getSystemBalances } from './balances.ts';
import type { TransferInput } from './posting/request.ts';
import { WalletError } from './wallet.errors.ts';
import { createTestMember, createTestSite } from './wallet.fixtures.ts';
import { groupCommitStats, transferGrouped } from './wallet.group.ts';
import { reconcile } from './wallet.reconcile.ts';
import type { TransferResult } from './wallet.schema.ts';
import { transfer } from './wallet.service.ts';

/**
 * Group commit (wallet.group.ts, ADR 019) against the one-by-one wallet: the same random history of
 * deposits, bets, wins, rewards with wagering, refusals (insufficient funds, an unknown member, a
 * zero amount) and reused keys (replays of the same request, conflicts with another) is posted on
 * one site transfer by transfer and on a twin site as concurrent grouped calls. Every call must get
 * the same answer, every balance (cash, bonus, wagering, system accounts) must end the same, and
 * the grouped site must reconcile without drift.
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

const MEMBERS = 3;

type Op = {
  kind: 'deposit' | 'bet' | 'win' | 'reward' | 'bonus_bet';
  m: number;
  amount: bigint;
  /** null: a new key; else reuse the key of an earlier op (same request: replay; else conflict). */
  reuse: { pick: number; same: boolean } | null;
};

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom('deposit', 'bet', 'bet', 'bet', 'win', 'reward', 'bonus_bet'),
  // MEMBERS stands for a member that does not exist (ACCOUNT_NOT_FOUND).
  m: fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 0, max: MEMBERS - 1 }) },
    { weight: 1, arbitrary: fc.constant(MEMBERS) },
  ),
  // Round amounts too, so bets meet balances exactly (5,000 to start) as often as they miss them.
  amount: fc.oneof(
    { weight: 8, arbitrary: fc.bigInt({ min: 1n, max: 3_000n }) },
    { weight: 8, arbitrary: fc.constantFrom(500n, 1_000n, 2_500n, 5_000n) },
    { weight: 1, arbitrary: fc.constant(0n) },
  ),
  reuse: fc.option(fc.record({ pick: fc.nat(), same: fc.boolean() }), { freq: 4 }),
});

function inputOf(siteId: bigint, members: bigint[], op: Op, key: string): TransferInput {
  const memberId = members[op.m] ?? 999_999_999n;
  switch (op.kind) {
    case 'deposit':
      return {
        siteId,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId, account: 'cash' },
        amountMinor: op.amount,
        idempotencyKey: key,
      };
    case 'reward':
      return {
        siteId,
        kind: 'bonus_grant',
        from: { system: 'promotions_expense' },
        to: { memberId, account: 'bonus' },
        amountMinor: op.amount,
        idempotencyKey: key,
        wageringAddMinor: op.amount * 2n || undefined,
        metadata: { campaign: 'property', note: 'wagering 2x' },
      };
    case 'bet':
    case 'bonus_bet':
      return {
        siteId,
        kind: 'bet',
        from: { memberId, account: op.kind === 'bet' ? 'cash' : 'bonus' },
        to: { system: 'house' },
        amountMinor: op.amount,
        idempotencyKey: key,
        reference: `round:${key}`,
        metadata: { game: 'dice' },
      };
    case 'win':
      return {
        siteId,
        kind: 'win',
        from: { system: 'house' },
        to: { memberId, account: 'cash' },
        amountMinor: op.amount,
        idempotencyKey: key,
      };
  }
}

/** The inputs of a history on one site: reused keys point at an earlier op's input. */
function historyInputs(siteId: bigint, members: bigint[], ops: Op[]): TransferInput[] {
  const inputs: TransferInput[] = [];
  ops.forEach((op, i) => {
    if (op.reuse && i > 0) {
      const earlier = inputs[op.reuse.pick % i]!;
      inputs.push(
        op.reuse.same
          ? { ...earlier }
          : { ...earlier, amountMinor: earlier.amountMinor + 1n, reference: 'other' },
      );
    } else {
      inputs.push(inputOf(siteId, members, op, `op-${i}`));
    }
  });
  return inputs;
}

/** The outcome of a call, with its handler attached at once (a refusal is not an unhandled rejection). */
function settled(call: Promise<TransferResult>): Promise<PromiseSettledResult<TransferResult>> {
  return call.then(
    (value) => ({ status: 'fulfilled', value }) as const,
    (reason: unknown) => ({ status: 'rejected', reason }) as const,
  );
}

/** An answer without the ids and times that differ between the two sites. */
function answer(outcome: PromiseSettledResult<TransferResult>) {
  if (outcome.status === 'rejected') {
    const error = outcome.reason;
    return { refused: error instanceof WalletError ? error.code : String(error) };
  }
  const r = outcome.value;
  return {
    kind: r.kind,
    amountMinor: r.amountMinor,
    debitBalanceAfterMinor: r.debitBalanceAfterMinor,
    creditBalanceAfterMinor: r.creditBalanceAfterMinor,
    wageringDeltaMinor: r.wageringDeltaMinor,
    reference: r.reference,
    metadata: r.metadata,
    idempotencyKey: r.idempotencyKey,
    replayed: r.replayed,
  };
}

async function twinSite(db: Db): Promise<{ siteId: bigint; members: bigint[] }> {
  const siteId = await createTestSite(db);
  const members: bigint[] = [];
  for (let i = 0; i < MEMBERS; i++) members.push(await createTestMember(db, siteId));
  // Some money to start with, so bets are not all refused.
  for (const memberId of members) {
    await transfer(db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: 5_000n,
      idempotencyKey: `start-${memberId}`,
    });
  }
  return { siteId, members };
}

async function state(db: Db, site: { siteId: bigint; members: bigint[] }) {
  const balances = [];
  for (const memberId of site.members)
    balances.push(await getBalances(db, memberId, { siteId: site.siteId }));
  return { balances, system: await getSystemBalances(db, site.siteId) };
}

describe.each(kinds)('group commit on %s', (kind) => {
  it('concurrent grouped transfers with mixed refusals and replays settle exactly as one-by-one transfers', async () => {
    const { db } = await testDatabase(kind);
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.nat({ max: 40 }),
        async (ops, split) => {
          const one = await twinSite(db);
          const grouped = await twinSite(db);

          const sequential: PromiseSettledResult<TransferResult>[] = [];
          for (const input of historyInputs(one.siteId, one.members, ops)) {
            sequential.push(await settled(transfer(db, input)));
          }

          // All at once, in two waves: the second arrives while the first group is being posted.
          const inputs = historyInputs(grouped.siteId, grouped.members, ops);
          const cut = split % (inputs.length + 1);
          const first = inputs.slice(0, cut).map((input) => settled(transferGrouped(db, input)));
          await new Promise((resolve) => setImmediate(resolve));
          const second = inputs.slice(cut).map((input) => settled(transferGrouped(db, input)));
          const concurrent = await Promise.all([...first, ...second]);

          expect(concurrent.map(answer)).toEqual(sequential.map(answer));
          expect(await state(db, grouped)).toEqual(await state(db, one));
          const report = await reconcile(db, { siteId: grouped.siteId });
          expect(report.drift).toEqual([]);
          expect(report.ok).toBe(true);
        },
      ),
      { numRuns: 20 },
    );
    // The histories were really posted in groups (several transfers in one transaction).
    expect(groupCommitStats(db).largestGroup).toBeGreaterThan(1);
    // ...and never by the one-by-one fallback (which would match trivially).
    expect(groupCommitStats(db).fallbacks).toBe(0);
  });

  it('one refused transfer never fails the others of its group', async () => {
    const { db } = await testDatabase(kind);
    const site = await twinSite(db);
    const [a, b] = site.members as [bigint, bigint];
    const bet = (memberId: bigint, amountMinor: bigint, key: string) =>
      transferGrouped(db, {
        siteId: site.siteId,
        kind: 'bet',
        from: { memberId, account: 'cash' },
        to: { system: 'house' },
        amountMinor,
        idempotencyKey: key,
      });
    const outcomes = await Promise.allSettled([
      bet(a, 4_000n, 'g-1'),
      bet(a, 4_000n, 'g-2'), // 1,000 left: refused
      bet(b, 100n, 'g-3'),
      bet(a, 1_000n, 'g-4'),
    ]);
    expect(
      outcomes.map((o) =>
        o.status === 'fulfilled' ? o.value.debitBalanceAfterMinor : (o.reason as WalletError).code,
      ),
    ).toEqual([1_000n, 'INSUFFICIENT_FUNDS', 4_900n, 0n]);

    expect((await reconcile(db, { siteId: site.siteId })).ok).toBe(true);
  });
});
