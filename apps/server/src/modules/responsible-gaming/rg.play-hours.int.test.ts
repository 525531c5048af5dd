import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import type { TransferInput } from '../wallet/posting/request.ts';
import { createFundedTestMember, createTestSite } from '../wallet/wallet.fixtures.ts';
import { transferGrouped } from '../wallet/wallet.group.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { sumPlay } from './rg.repo.ts';

/**
 * The responsible-gaming play sums read a member's play hours (migration 0051), kept by a statement
 * trigger on the ledger. Whatever mix of stakes, wins, refunds and reversals is posted — one by one
 * or many in one grouped statement —, the hours equal the ledger's transfers and `sumPlay` from any
 * start (on the hour, or inside one: a site whose time zone is not a whole number of hours from UTC)
 * equals the sums read from the transfers themselves.
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

type Move = { kind: 'bet' | 'win' | 'refund' | 'win_reversal' | 'deposit'; amount: number; grouped: boolean };

const move = fc.record({
  kind: fc.constantFrom('bet', 'bet', 'win', 'refund', 'win_reversal', 'deposit'),
  amount: fc.integer({ min: 1, max: 500 }),
  grouped: fc.boolean(),
}) as fc.Arbitrary<Move>;

describe.each(kinds)('member play hours on %s', (kind) => {
  /** What the ledger says the member staked and got back since `since`, read from the transfers. */
  async function ledgerSums(memberId: bigint, since: Date) {
    const rows = await rowsOf<{ staked: string; returned: string }>(
      (await testDatabase(kind)).db,
      sql`SELECT
            coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'bet' AND d.member_id = ${memberId.toString()}::bigint), 0)::text AS staked,
            (coalesce(sum(t.amount_minor) FILTER (WHERE t.kind IN ('win', 'refund') AND c.member_id = ${memberId.toString()}::bigint), 0)
             - coalesce(sum(t.amount_minor) FILTER (WHERE t.kind = 'win_reversal' AND d.member_id = ${memberId.toString()}::bigint), 0))::text AS returned
          FROM wallet_transfers t
          JOIN wallet_accounts d ON d.id = t.debit_account_id
          JOIN wallet_accounts c ON c.id = t.credit_account_id
          WHERE t.created_at >= ${since.toISOString()}::timestamptz`,
    );
    return { stakedMinor: BigInt(rows[0]!.staked), returnedMinor: BigInt(rows[0]!.returned) };
  }

  it('equal the ledger and answer the limits from any start, for any mix of play posted one by one or grouped', async () => {
    const database = await testDatabase(kind);
    const db = database.db;
    const siteId = await createTestSite(db);
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 14 }), async (moves) => {
        const memberId = await createFundedTestMember(db, siteId, 100_000n);
        const since = new Date();
        const input = (m: Move): TransferInput => {
          const member = { memberId, account: 'cash' as const };
          const house = { system: 'house' as const };
          const psp = { system: 'psp_clearing' as const };
          const [from, to] =
            m.kind === 'bet' || m.kind === 'win_reversal'
              ? [member, house]
              : m.kind === 'deposit'
                ? [psp, member]
                : [house, member];
          return {
            siteId,
            kind: m.kind,
            from,
            to,
            amountMinor: BigInt(m.amount),
            idempotencyKey: randomUUID(),
          };
        };
        // Grouped moves are posted together (several of the member's transfers in one statement).
        await Promise.all(moves.filter((m) => m.grouped).map((m) => transferGrouped(db, input(m))));
        for (const m of moves.filter((m) => !m.grouped)) await transfer(db, input(m));

        const hourStart = new Date(Math.floor(since.getTime() / 3_600_000) * 3_600_000);
        for (const start of [since, hourStart, new Date(hourStart.getTime() - 30 * 60_000)]) {
          expect(await sumPlay(db, memberId, start)).toEqual(await ledgerSums(memberId, start));
        }
        const report = await reconcile(db, { siteId });
        expect(report.drift).toEqual([]);
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('are checked by reconcile: an hour that differs from the ledger is drift', async () => {
    const db = (await testDatabase(kind)).db;
    const siteId = await createTestSite(db);
    const memberId = await createFundedTestMember(db, siteId, 10_000n);
    await transfer(db, {
      siteId,
      kind: 'bet',
      from: { memberId, account: 'cash' },
      to: { system: 'house' },
      amountMinor: 700n,
      idempotencyKey: randomUUID(),
    });
    expect((await reconcile(db, { siteId })).drift).toEqual([]);
    const member = memberId.toString();
    const [cash] = await rowsOf<{ id: string }>(
      db,
      sql`SELECT id::text FROM wallet_accounts WHERE member_id = ${member}::bigint AND kind = 'cash'`,
    );
    const cashAccount = BigInt(cash!.id);
    await db.execute(
      sql`UPDATE member_play_hours SET staked_minor = staked_minor + 1 WHERE member_id = ${member}::bigint`,
    );
    try {
      const report = await reconcile(db, { siteId });
      expect(report.ok).toBe(false);
      expect(report.drift).toEqual([
        expect.objectContaining({
          check: 'PLAY_HOURS_MISMATCH',
          siteId,
          accountId: cashAccount,
          expectedMinor: 700n,
          actualMinor: 701n,
        }),
      ]);
    } finally {
      await db.execute(
        sql`UPDATE member_play_hours SET staked_minor = staked_minor - 1 WHERE member_id = ${member}::bigint`,
      );
    }
    expect((await reconcile(db, { siteId })).ok).toBe(true);
  });
});
