import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { getBalances, getSystemBalances } from './balances.ts';
import { hold } from './holds.ts';
import { WalletError } from './wallet.errors.ts';
import { createFundedTestMember, createTestMember, createTestSite } from './wallet.fixtures.ts';
import { reconcile } from './wallet.reconcile.ts';
import type { TransferResult } from './wallet.schema.ts';
import { transfer } from './wallet.service.ts';

/**
 * Real concurrency needs a PostgreSQL server (PGlite has one connection, so it serialises all
 * transactions). The database harness gives the pool 50 connections, so the requests below truly
 * race for the same rows.
 */
const kinds = await databaseKinds();
const hasPostgres = kinds.includes('postgres');
afterAll(closeTestDatabases);

type Outcome = { ok: true; result: TransferResult } | { ok: false; code: string };

async function settle(promise: Promise<TransferResult>): Promise<Outcome> {
  try {
    return { ok: true, result: await promise };
  } catch (error) {
    if (error instanceof WalletError) return { ok: false, code: error.code };
    return { ok: false, code: `UNEXPECTED: ${(error as Error).message}` };
  }
}

describe.skipIf(!hasPostgres)(
  `wallet concurrency on PostgreSQL${hasPostgres ? '' : ' (SKIPPED: no PostgreSQL reachable; set DATABASE_URL)'}`,
  () => {
    let db: Db;
    let siteId: bigint;

    beforeAll(async () => {
      db = (await testDatabase('postgres')).db;
      siteId = await createTestSite(db);
    });

    it('lets exactly 37 of 200 parallel withdrawal holds through when the cash covers 37', async () => {
      const memberId = await createTestMember(db, siteId);
      const amountMinor = 2_500n;
      await transfer(db, {
        siteId,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId, account: 'cash' },
        amountMinor: 37n * amountMinor,
        idempotencyKey: `conc-deposit-${memberId}`,
      });

      const outcomes = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          settle(hold(db, { siteId, memberId, amountMinor, idempotencyKey: `conc-hold-${memberId}-${i}` })),
        ),
      );

      const succeeded = outcomes.filter((o) => o.ok);
      const refused = outcomes.flatMap((o) => (o.ok ? [] : [o.code]));
      expect(succeeded).toHaveLength(37);
      expect(new Set(refused)).toEqual(new Set(['INSUFFICIENT_FUNDS']));
      // Every success saw a distinct, never negative balance: the holds were serialised.
      const after = succeeded.map((o) => (o.ok ? o.result.debitBalanceAfterMinor : null));
      expect(new Set(after).size).toBe(37);
      expect(after.every((b) => b !== null && b >= 0n)).toBe(true);

      expect(await getBalances(db, memberId)).toMatchObject({ cashMinor: 0n, holdMinor: 37n * amountMinor });
      const report = await reconcile(db, { siteId });
      expect(report.drift).toEqual([]);
      expect(report.sites).toEqual([{ siteId, balanceSumMinor: 0n }]);
    });

    it('credits a replayed deposit once when 50 copies race', async () => {
      const memberId = await createTestMember(db, siteId);
      const input = {
        siteId,
        kind: 'deposit' as const,
        from: { system: 'psp_clearing' as const },
        to: { memberId, account: 'cash' as const },
        amountMinor: 999n,
        idempotencyKey: `conc-replay-${memberId}`,
      };
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => settle(transfer(db, input))));
      const ids = new Set(outcomes.map((o) => (o.ok ? o.result.transferId : o.code)));
      expect(ids.size).toBe(1);
      expect(outcomes.filter((o) => o.ok && !o.result.replayed)).toHaveLength(1);
      expect((await getBalances(db, memberId)).cashMinor).toBe(999n);
    });

    it('posts a racing transfer between system accounts once (no player row to lock)', async () => {
      const input = {
        siteId,
        kind: 'correction' as const,
        from: { system: 'suspense' as const },
        to: { system: 'fees' as const },
        amountMinor: 77n,
        idempotencyKey: `conc-system-${Date.now()}`,
      };
      const before = (await getSystemBalances(db, siteId)).fees;
      const outcomes = await Promise.all(Array.from({ length: 30 }, () => settle(transfer(db, input))));
      expect(new Set(outcomes.map((o) => (o.ok ? o.result.transferId : o.code))).size).toBe(1);
      expect(outcomes.filter((o) => o.ok && !o.result.replayed)).toHaveLength(1);
      expect((await getSystemBalances(db, siteId)).fees - before).toBe(77n);
    });

    it('never deadlocks when transfers lock the same accounts in opposite directions', async () => {
      const memberId = await createFundedTestMember(db, siteId, 100_000n);
      await transfer(db, {
        siteId,
        kind: 'bonus_grant',
        from: { system: 'promotions_expense' },
        to: { memberId, account: 'bonus' },
        amountMinor: 100_000n,
        idempotencyKey: `conc-dl-bonus-${memberId}`,
      });
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          settle(
            transfer(db, {
              siteId,
              kind: i % 2 === 0 ? 'bonus_convert' : 'correction',
              from: { memberId, account: i % 2 === 0 ? 'bonus' : 'cash' },
              to: { memberId, account: i % 2 === 0 ? 'cash' : 'bonus' },
              amountMinor: 1_000n,
              idempotencyKey: `conc-dl-${memberId}-${i}`,
            }),
          ),
        ),
      );
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      expect(await getBalances(db, memberId)).toMatchObject({ cashMinor: 100_000n, bonusMinor: 100_000n });
      expect((await reconcile(db, { siteId })).drift).toEqual([]);
    });

    it('lets 100 players bet against one house account in parallel without losing a centavo', async () => {
      const players = await Promise.all(Array.from({ length: 100 }, () => createTestMember(db, siteId)));
      await Promise.all(
        players.map((memberId) =>
          transfer(db, {
            siteId,
            kind: 'deposit',
            from: { system: 'psp_clearing' },
            to: { memberId, account: 'cash' },
            amountMinor: 1_000n,
            idempotencyKey: `conc-house-dep-${memberId}`,
          }),
        ),
      );
      const houseBefore = (await getSystemBalances(db, siteId)).house;
      const outcomes = await Promise.all(
        players.flatMap((memberId) =>
          [0, 1, 2].map((round) =>
            settle(
              transfer(db, {
                siteId,
                kind: 'bet',
                from: { memberId, account: 'cash' },
                to: { system: 'house' },
                amountMinor: 300n,
                idempotencyKey: `conc-house-bet-${memberId}-${round}`,
              }),
            ),
          ),
        ),
      );
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      expect((await getSystemBalances(db, siteId)).house - houseBefore).toBe(300n * 300n);
      expect((await reconcile(db, { siteId })).drift).toEqual([]);
    });
  },
);

// Keeps the file meaningful when PostgreSQL is absent: the skip above is visible in the report.
describe('wallet concurrency prerequisites', () => {
  it('knows which databases this run covers', () => {
    expect(kinds).toContain('pglite');
  });
});
