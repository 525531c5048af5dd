import { expect } from 'vitest';
import type { GroupQueueStats } from '../src/db/group-queue.ts';
import { AppError } from '../src/errors.ts';

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
