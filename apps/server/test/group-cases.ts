import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import type { GroupQueueStats } from '../src/db/group-queue.ts';
import { rowsOf } from '../src/db/sql.ts';
import { AppError } from '../src/errors.ts';
import { insertExclusion, upsertLimit } from '../src/modules/responsible-gaming/rg.repo.ts';
import { getBalances } from '../src/modules/wallet/balances.ts';
import { grantBonus } from '../src/modules/wallet/bonus/grants.ts';
import { createFundedTestMember } from '../src/modules/wallet/wallet.fixtures.ts';

type TAnswer = { balance: string; replayed: boolean };

/**
 * The cases a group commit's comparison test met: each answer of the one-by-one side counted as
 * `placed`, `replayed`, its refusal's code or `crashed`, and `emptied` for a placed bet that left
 * a balance of nothing.
 */
export class SeenCases {
  private readonly seen = new Map<string, number>();

  count(outcomes: readonly (PromiseSettledResult<TAnswer> | undefined)[]): void {
    for (const outcome of outcomes) {
      if (!outcome) continue;
      const what =
        outcome.status === 'rejected'
          ? outcome.reason instanceof AppError
            ? outcome.reason.code
            : 'crashed'
          : outcome.value.replayed
            ? 'replayed'
            : 'placed';
      this.add(what);
      if (what === 'placed' && outcome.status === 'fulfilled' && outcome.value.balance === '0.00') {
        this.add('emptied');
      }
    }
  }

  /** The histories met every case they are meant to (else the comparison proves less than it says). */
  expectMet(cases: readonly string[]): void {
    const all = JSON.stringify([...this.seen]);
    for (const what of cases) expect(this.seen.get(what) ?? 0, `${what} in ${all}`).toBeGreaterThan(0);
    expect(this.seen.get('crashed') ?? 0, `crashes in ${all}`).toBe(0);
  }

  private add(what: string): void {
    this.seen.set(what, (this.seen.get(what) ?? 0) + 1);
  }
}

/**
 * Items were really posted in groups of several, some went one by one (deferred), and no group
 * rolled back to be redone one by one (which would match the one-by-one side trivially).
 */
export function expectReallyGrouped(before: GroupQueueStats, after: GroupQueueStats): void {
  const groups = after.groups - before.groups;
  expect(after.largestGroup).toBeGreaterThan(1);
  expect(groups).toBeGreaterThan(0);
  expect(groups).toBeLessThan(after.items - before.items);
  expect(after.deferred - before.deferred).toBeGreaterThan(0);
  expect(after.rolledBack - before.rolledBack).toBe(0);
}

/** A call's outcome as `Promise.allSettled` gives it, for answers compared side by side. */
export function settledOf<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }) as const,
    (reason: unknown) => ({ status: 'rejected', reason }) as const,
  );
}

/**
 * A refusal as the comparison tests compare it: its code and parameters; anything else as a crash,
 * shown by its cause (a failed query's message carries the site's own ids).
 */
export function refusalOf(reason: unknown) {
  if (reason instanceof AppError) return { refused: reason.code, params: reason.params ?? null };
  const cause = reason instanceof Error && reason.cause instanceof Error ? reason.cause : reason;
  return { crashed: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) };
}

/** The players of the crash and sportsbook comparison tests. */
export const GROUP_ROLES = ['plain', 'plain', 'plain', 'stake', 'bonus', 'pause', 'terms'] as const;
export type TGroupRole = (typeof GROUP_ROLES)[number];
export const GROUP_START_CASH_MINOR = 5_000n;
/** The bonus player has less cash than its bonus: its larger stakes take a bonus part. */
export const groupStartCash = (role: TGroupRole): bigint =>
  role === 'bonus' ? 1_000n : GROUP_START_CASH_MINOR;
export const GROUP_BONUS = { amountMinor: 3_000n, wageringMinor: 6_000n, maxBetMinor: 1_500n } as const;

/** The comparison tests' bonus: R$ 30,00 to wager twice (R$ 60,00), max bet R$ 15,00, for a day. */
export async function grantGroupBonus(db: Db, siteId: bigint, memberId: bigint, campaign: string) {
  await grantBonus(db, {
    siteId,
    memberId,
    campaignCode: campaign,
    periodKey: 'once',
    amountMinor: GROUP_BONUS.amountMinor,
    wageringRequiredMinor: GROUP_BONUS.wageringMinor,
    maxBetMinor: GROUP_BONUS.maxBetMinor,
    locksCash: false,
    expiresAt: new Date(Date.now() + 86_400_000),
    terms: {},
  });
}

/**
 * A member of `role` with its starting cash (`groupStartCash`): a daily stake limit of R$ 30,00
 * (`stake`), an active bonus grant of R$ 30,00 to wager twice with a max bet of R$ 15,00 (`bonus`),
 * a cooling-off pause until `pauseEndsAt` (`pause`), or terms to accept (`terms`: joined yesterday,
 * a version of the terms took effect an hour ago).
 */
export async function createRoleMember(
  db: Db,
  siteId: bigint,
  role: TGroupRole,
  options: { pauseEndsAt: Date; campaign: string },
): Promise<bigint> {
  const memberId = await createFundedTestMember(db, siteId, groupStartCash(role));
  const member = memberId.toString();
  if (role === 'stake') {
    await upsertLimit(db, {
      siteId,
      memberId,
      kind: 'stake',
      period: 'day',
      value: 3_000n,
      pendingValue: null,
      pendingRemove: false,
      pendingEffectiveAt: null,
    });
  } else if (role === 'bonus') {
    await grantGroupBonus(db, siteId, memberId, options.campaign);
  } else if (role === 'pause') {
    await insertExclusion(db, { siteId, memberId, kind: 'cooling_off', endsAt: options.pauseEndsAt });
  } else if (role === 'terms') {
    await db.execute(
      sql`UPDATE members SET created_at = now() - interval '1 day' WHERE id = ${member}::bigint`,
    );
    await db.execute(sql`INSERT INTO terms_versions (site_id, version, effective_at)
        VALUES (${siteId.toString()}::bigint, 2, now() - interval '1 hour')`);
  }
  return memberId;
}

/** A member's money as the comparison tests compare it: balances, bonus grants, turnover, VIP totals. */
export async function memberMoney(db: Db, siteId: bigint, memberId: bigint) {
  const member = memberId.toString();
  return {
    balances: await getBalances(db, memberId, { siteId }),
    grants: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT status, balance_minor::text, wagering_done_minor::text, converted_minor::text
          FROM bonus_grants WHERE member_id = ${member}::bigint ORDER BY id`,
    ),
    turnover: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT category, stake_minor::text, bonus_stake_minor::text, bets
          FROM member_turnover WHERE member_id = ${member}::bigint ORDER BY day, category`,
    ),
    vip: await rowsOf<Record<string, unknown>>(
      db,
      sql`SELECT total_betting_minor::text, slot_betting_minor::text, live_betting_minor::text, level
          FROM member_vip WHERE member_id = ${member}::bigint`,
    ),
  };
}
