import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { rowsOf } from '../src/db/sql.ts';
import { multiplierAt } from '../src/modules/crash/crash.curve.ts';
import type { CrashEngine } from '../src/modules/crash/crash.engine.ts';
import { findLatestRoundSecret, type TRoundSecretRow } from '../src/modules/crash/crash.repo.ts';

/**
 * Where a test's crash clock starts: after every time of the rounds already in the database. The
 * test files of a process share it (databases.ts), and a file that drives the engine by hand moves
 * its clock minutes ahead per round, so the next file's engine would find a round it cannot reach.
 */
export async function crashClockStart(db: Db): Promise<number> {
  const [row] = await rowsOf<{ ms: unknown }>(
    db,
    sql`SELECT (extract(epoch FROM max(greatest(betting_ends_at, started_at, crashed_at))) * 1000)::float8 AS ms
        FROM crash_rounds`,
  );
  const last = row?.ms === null || row?.ms === undefined ? 0 : Math.ceil(Number(row.ms));
  return Math.max(Date.now(), last + 60_000);
}

/** The first whole millisecond at which the curve reaches `crash` hundredths (the crash instant). */
export function crashInstant(crash: number): number {
  let t = 0;
  while (multiplierAt(t) < crash) t += 1;
  return t;
}

/** A round whose crash point is fixed (every round past the salt ceremony of its chain). */
export type TKnownRound = TRoundSecretRow & { crashHundredths: number };

/**
 * Runs the current round to its end on a test's hand-driven clock and opens the next one (betting),
 * returning its secret row. The first round of a new chain has no crash point until its bets fix
 * the salt: it gets one bet of `saltBettor` here and is played through, and the round after it is
 * returned. Unless its betting is over by this file's clock: a round another file left behind on
 * the process's shared database (its salt still pending) refuses that bet, and is stepped past.
 */
export async function nextKnownRound(
  db: Db,
  driver: CrashEngine,
  clock: { now: () => number; advance: (ms: number) => void },
  saltBettor: { siteId: bigint; memberId: bigint },
): Promise<TKnownRound> {
  const latestRound = async () => (await findLatestRoundSecret(db))!;
  const before = await latestRound();
  for (let i = 0; i < 12; i++) {
    const latest = await latestRound();
    if (latest.state === 'betting' && latest.crashHundredths === null && clock.now() < latest.bettingEndsAt) {
      await driver.placeBet(
        { kind: 'member', ...saltBettor },
        { amount: '1.00', idempotencyKey: `salt-${randomUUID()}` },
      );
    }
    clock.advance(300_000);
    await driver.step();
    const opened = await latestRound();
    if (opened.id !== before.id && opened.state === 'betting' && opened.crashHundredths !== null)
      return { ...opened, crashHundredths: opened.crashHundredths };
  }
  throw new Error('no new round');
}

/** A fresh betting round whose (secret) crash point is at least `min` hundredths, from `next`. */
export async function roundCrashingAtLeast(
  min: number,
  next: () => Promise<TKnownRound>,
): Promise<TKnownRound> {
  for (let i = 0; i < 60; i++) {
    const round = await next();
    if (round.crashHundredths >= min) return round;
  }
  throw new Error(`no round crashing at ${min} or more`);
}
