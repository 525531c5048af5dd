import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { rowsOf } from '../../apps/server/src/db/sql.ts';
import { sumPlay } from '../../apps/server/src/modules/responsible-gaming/rg.repo.ts';
import { openSiteAccounts } from '../../apps/server/src/modules/wallet/accounts.ts';
import { createTestMember, createTestSite } from '../../apps/server/src/modules/wallet/wallet.fixtures.ts';
import { fmt, percentile, postgresReachable, withThrowawayDatabase } from '../support/report.ts';

/**
 * What the responsible-gaming gate costs a heavy player (`npm run bench:play-sums`): every bet of a
 * member with a stake or loss limit (a loss limit is mandatory on br) sums the limit's period. A
 * player of BETS_PER_DAY bets a day (autoplay on a slot does that) over 30 days, with a win on
 * every other bet, beside OTHER_MEMBERS members playing on the same site. Prints the time of
 * `sumPlay` (the member's play hours, migration 0051) for a day, a week and a month, from a start on
 * the hour and from one inside an hour (a time zone like +05:30), beside the same sums read from the
 * member's transfers (the query before migration 0051), and checks both give the same answer.
 *
 * The history is inserted with SQL in a scratch database that is dropped at the end: this measures a
 * read, and the balances of these transfers are not posted (nothing here is a wallet to reconcile).
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const BETS_PER_DAY = Number(process.env.BENCH_BETS_PER_DAY ?? 1000);
const OTHER_MEMBERS = Number(process.env.BENCH_OTHER_MEMBERS ?? 200);
const DAYS = 30;
const RUNS = 40;

/** The sums from the member's transfers alone: the query `playSums` was before migration 0051. */
const fromTransfers = (memberId: bigint, since: Date) => sql`
  WITH mine AS (SELECT array_agg(id) AS ids FROM wallet_accounts WHERE member_id = ${memberId.toString()}::bigint)
  SELECT coalesce(d.staked, 0)::text AS staked, (coalesce(c.returned, 0) - coalesce(d.reversed, 0))::text AS returned
  FROM (SELECT sum(t.amount_minor) FILTER (WHERE t.kind = 'bet') AS staked,
          sum(t.amount_minor) FILTER (WHERE t.kind = 'win_reversal') AS reversed
        FROM mine, wallet_transfers t
        WHERE t.debit_account_id = ANY(mine.ids) AND t.created_at >= ${since.toISOString()}::timestamptz
          AND t.kind IN ('bet', 'win_reversal')) d,
       (SELECT sum(t.amount_minor) AS returned FROM mine, wallet_transfers t
        WHERE t.credit_account_id = ANY(mine.ids) AND t.created_at >= ${since.toISOString()}::timestamptz
          AND t.kind IN ('win', 'refund')) c`;

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; p50: number; p95: number }> {
  let value = await run(); // warm: plan and cache
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    value = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { value, p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * `count` bets of each member spread over the last DAYS days (a win after every other one), written
 * with SQL in time order: the members' transfers interleave in the table as they do in service.
 */
async function history(db: Parameters<typeof rowsOf>[0], siteId: bigint, players: [bigint, number][]) {
  await db.execute(sql`
    INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id, amount_minor, idempotency_key,
                                  request_hash, created_at)
    SELECT ${siteId.toString()}::bigint, k.kind,
      CASE WHEN k.kind = 'bet' THEN cash.id ELSE house.id END, CASE WHEN k.kind = 'bet' THEN house.id ELSE cash.id END,
      CASE WHEN k.kind = 'bet' THEN 100 ELSE 190 END, 'bench:' || p.member_id || ':' || i || ':' || k.kind,
      repeat('0', 64), now() - (${DAYS} * interval '1 day') * (i::float8 / p.count) AS at
    FROM jsonb_to_recordset(${JSON.stringify(players.map(([member_id, count]) => ({ member_id: member_id.toString(), count })))}::jsonb)
      AS p(member_id bigint, count int)
    CROSS JOIN LATERAL generate_series(1, p.count) i
    CROSS JOIN LATERAL (SELECT 'bet' AS kind UNION ALL SELECT 'win' WHERE i % 2 = 0) k
    JOIN wallet_accounts cash ON cash.member_id = p.member_id AND cash.kind = 'cash'
    JOIN wallet_accounts house ON house.site_id = ${siteId.toString()}::bigint AND house.member_id IS NULL
      AND house.kind = 'house'
    ORDER BY at`);
}

async function main(): Promise<void> {
  if (!(await postgresReachable(ADMIN_URL))) throw new Error(`PostgreSQL not reachable at ${ADMIN_URL}`);
  await withThrowawayDatabase(new URL(ADMIN_URL), 'sorte_playsums', async (url) => {
    const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 2 });
    try {
      await migrate(database);
      const db = database.db;
      const siteId = await createTestSite(db);
      await openSiteAccounts(db, siteId);
      const started = performance.now();
      const players: [bigint, number][] = [];
      for (let i = 0; i < OTHER_MEMBERS; i++) {
        players.push([await createTestMember(db, siteId), Math.round((BETS_PER_DAY * DAYS) / 20)]);
      }
      const memberId = await createTestMember(db, siteId);
      players.push([memberId, BETS_PER_DAY * DAYS]);
      await history(db, siteId, players);
      await db.execute(sql`ANALYZE`);
      const [counts] = await rowsOf<{ transfers: string; hours: string; mine: string }>(
        db,
        sql`SELECT (SELECT count(*) FROM wallet_transfers)::text AS transfers,
                 (SELECT count(*) FROM member_play_hours WHERE member_id = ${memberId.toString()}::bigint)::text AS hours,
                 (SELECT count(*) FROM wallet_transfers t JOIN wallet_accounts a
                    ON a.id IN (t.debit_account_id, t.credit_account_id) WHERE a.member_id = ${memberId.toString()}::bigint)::text AS mine`,
      );
      console.log(
        `ledger: ${counts!.transfers} transfers (${(performance.now() - started) / 1000 < 1 ? '<1' : fmt((performance.now() - started) / 1000, 0)} s to write, the trigger included); ` +
          `the player: ${counts!.mine} transfers in ${counts!.hours} play hours, ${BETS_PER_DAY} bets a day`,
      );
      console.log(
        'period            start           play hours p50 / p95 ms   transfers p50 / p95 ms   same answer',
      );
      const now = Date.now();
      for (const [period, days] of [
        ['day', 1],
        ['week', 7],
        ['month', 30],
      ] as const) {
        const onHour = new Date(Math.floor((now - days * 86_400_000) / 3_600_000) * 3_600_000);
        for (const [label, since] of [
          ['on the hour', onHour],
          ['+30 min', new Date(onHour.getTime() + 30 * 60_000)],
        ] as const) {
          const hours = await timed(() => sumPlay(db, memberId, since));
          const ledger = await timed(
            async () =>
              (await rowsOf<{ staked: string; returned: string }>(db, fromTransfers(memberId, since)))[0]!,
          );
          const same =
            hours.value.stakedMinor === BigInt(ledger.value.staked) &&
            hours.value.returnedMinor === BigInt(ledger.value.returned);
          console.log(
            `${period.padEnd(17)} ${label.padEnd(15)} ${`${fmt(hours.p50, 2)} / ${fmt(hours.p95, 2)}`.padStart(24)}   ${`${fmt(ledger.p50, 2)} / ${fmt(ledger.p95, 2)}`.padStart(22)}   ${same ? 'yes' : 'NO'}`,
          );
          if (!same) process.exitCode = 1;
        }
      }
    } finally {
      await database.close();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
