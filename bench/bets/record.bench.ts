import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { findRecordPage, sumRecord } from '../../apps/server/src/modules/records/game-record.repo.ts';
import { buildTestApp, fundedPlayer } from '../../apps/server/test/app.ts';
import { type DatabaseKind, databaseKinds } from '../../apps/server/test/databases.ts';
import { type BenchRow, percentile, printTable } from '../support/report.ts';

/**
 * The game record of a player with a long history: ROUNDS settled rounds of one member (copies of
 * a real dice round, one a second back in time), then PAGES keyset pages of 20 read down from the
 * newest and the range totals, on each database. Prints milliseconds per page.
 */
const ROUNDS = Math.min(Math.max(Number(process.env.BENCH_ROUNDS ?? 60_000), 1_000), 1_000_000);
const PAGES = 50;

async function measure(kind: DatabaseKind): Promise<BenchRow[]> {
  const app = await buildTestApp(kind);
  try {
    const p = await fundedPlayer(app, 1_000_000n);
    const bet = await app.inject({
      method: 'POST',
      url: '/api/originals/dice/bet',
      headers: { host: 'localhost', authorization: `Bearer ${p.token}` },
      payload: { amount: '1.00', direction: 'under', target: 5000 },
    });
    const roundId = String(JSON.parse(bet.body).data.round.id);
    await app.services.db.execute(
      sql`INSERT INTO game_rounds (site_id, member_id, game_id, game_code, status, idempotency_key, request_hash,
            stake_minor, payout_minor, multiplier_num, multiplier_den, multiplier, params, steps, outcome,
            seed_pair_id, nonce, created_at, settled_at)
          SELECT site_id, member_id, game_id, game_code, status, 'bench-key-' || g, request_hash, stake_minor,
            payout_minor, multiplier_num, multiplier_den, multiplier, params, steps, outcome, seed_pair_id,
            nonce + g, created_at - make_interval(secs => g), settled_at - make_interval(secs => g)
          FROM game_rounds, generate_series(1, ${ROUNDS}) g WHERE id = ${roundId}::bigint`,
    );
    await app.services.db.execute(sql`ANALYZE game_rounds`);
    const siteId = (await app.services.sites.byCode('sorte'))!.id;
    const player = { kind: 'member' as const, siteId, memberId: p.memberId };
    const filter = { since: null, gameCode: undefined };
    const pageTimes: number[] = [];
    let cursor: bigint | undefined;
    for (let i = 0; i < PAGES; i++) {
      const t0 = performance.now();
      const page = await findRecordPage(app.services.db, player, {
        ...filter,
        beforeId: cursor,
        afterId: undefined,
        limit: 20,
      });
      pageTimes.push(performance.now() - t0);
      cursor = page[page.length - 1]?.recordId;
    }
    const sumTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await sumRecord(app.services.db, player, filter);
      sumTimes.push(performance.now() - t0);
    }
    const row = (what: string, times: number[], note: string): BenchRow => {
      const sorted = [...times].sort((a, b) => a - b);
      const total = times.reduce((a, b) => a + b, 0);
      return {
        what,
        concurrency: 1,
        count: times.length,
        perSecond: (times.length * 1000) / total,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        note,
      };
    };
    return [
      row(`${kind}: record page of 20`, pageTimes, `${ROUNDS + 1} rounds, pages 1–${PAGES} down`),
      row(`${kind}: record totals (all)`, sumTimes, 'count and sums over every round'),
    ];
  } finally {
    await app.close();
  }
}

const rows: BenchRow[] = [];
for (const kind of await databaseKinds()) rows.push(...(await measure(kind)));
printTable(rows, { concurrency: 'clients', count: 'calls', rate: 'calls/s' });
process.exit(0);
