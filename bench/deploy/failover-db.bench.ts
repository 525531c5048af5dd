import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { isDatabaseUnavailable, openDatabase } from '../../apps/server/src/db/client.ts';
import { freePort } from '../../apps/server/src/http/free-port.ts';
import { reconcile } from '../../apps/server/src/modules/wallet/wallet.reconcile.ts';
import { transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';
import { randomCpf, registration } from '../../apps/server/test/app.ts';
import { type ClusterNode, type DbCluster, startDbCluster } from '../../apps/server/test/db-cluster.ts';
import { fmt } from '../support/report.ts';
import { startServerProcess, waitFor } from './processes.ts';

/**
 * Issue 40's database failover drill, on this machine without Docker: a pg_auto_failover cluster
 * (monitor, primary, synchronous standby; apps/server/test/db-cluster.ts) from the Debian binaries on loopback, one
 * server process on its multi-host URL (target_session_attrs=read-write), and players over HTTP:
 * dice bets, PIX deposits paid on the sandbox PSP's payer page (the PSP's signed webhook credits
 * them), withdrawals. Mid-load the primary's machine goes: SIGKILL to its pg_autoctl and postgres.
 * Then the killed node is started again (it rejoins as the standby) and the drill runs a second
 * time on the new primary, so the second kill fails back. Per run it prints:
 *   - acknowledged operations lost: every bet answered 200 has its round (by idempotency key) on
 *     the new primary, every withdrawal answered 200 its order, every deposit the PSP took its
 *     paid order (the PSP's webhook retries included); goal 0;
 *   - seconds without a primary (kill → the monitor reports a node promoted, as the app sees it:
 *     the first read-write probe that answers);
 *   - seconds until bets are accepted again (kill → the first 200 of a bet sent after the kill);
 *   - answers other than 200 and 503 (with Retry-After) from the kill until bets flow again;
 *   - ledger drift afterwards (the wallet's reconcile).
 * `npm run bench:failover-db` (Debian: apt-get install postgresql-15-auto-failover).
 */

const BETTORS = 6;
/** Crash players: a bet with auto cash-out at 1.50 whenever a round takes bets. */
const CRASH_PLAYERS = 2;
/** The crash game's own refusals between rounds: answers of its rules, not of the failover. */
const CRASH_RULES = new Set(['CRASH_BETTING_CLOSED', 'CRASH_ALREADY_BET']);
const LOAD_BEFORE_KILL_MS = 5_000;
const LOAD_AFTER_RECOVERY_MS = 5_000;
const RUNS = 2;
const HEADERS = { host: 'localhost', 'content-type': 'application/json' };

type TAnswer = {
  http: number;
  code: string;
  retryAfter: string | null;
  data: Record<string, unknown> | null;
};

async function call(base: string, method: string, path: string, body?: object, token?: string, key?: string) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...HEADERS,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await response.json().catch(() => ({}))) as { code?: unknown; data?: unknown };
  return {
    http: response.status,
    code: String(json.code ?? ''),
    retryAfter: response.headers.get('retry-after'),
    data: (json.data ?? null) as Record<string, unknown> | null,
  } satisfies TAnswer;
}

type TPlayer = { token: string; memberId: bigint; siteId: bigint; cardId: string; cpf: string };

async function newPlayer(base: string, adminDb: Awaited<ReturnType<typeof openDatabase>>): Promise<TPlayer> {
  const username = `fo${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const registered = await call(base, 'POST', '/api/auth/register2', registration({ username }));
  if (registered.http !== 200) throw new Error(`registration failed: ${JSON.stringify(registered)}`);
  const token = String(registered.data!.token);
  const memberId = BigInt(String((registered.data!.user as { id: string }).id));
  const db = adminDb.db;
  const raw = (db as unknown as { $client: pg.Pool }).$client;
  const site = await raw.query<{ site_id: string }>('SELECT site_id::text FROM members WHERE id = $1', [
    memberId.toString(),
  ]);
  const siteId = BigInt(site.rows[0]!.site_id);
  // Setup that is not under test, written directly: cash to bet with, the PIX card to withdraw to.
  await transfer(db, {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor: 1_000_000n,
    idempotencyKey: `failover-db-fund:${randomUUID()}`,
  });
  const cpf = randomCpf();
  const card = await raw.query<{ id: string }>(
    `INSERT INTO member_bank_cards (site_id, member_id, bank_name, account_type, payee_name, pix_key, cpf)
     VALUES ($1, $2, 'PIX', 'CPF', 'Maria Silva', $3, $3) RETURNING id::text`,
    [siteId.toString(), memberId.toString(), cpf],
  );
  return { token, memberId, siteId, cardId: card.rows[0]!.id, cpf };
}

type TRun = {
  bets: { key: string; sentAt: number; answeredAt: number }[];
  crashBets: string[];
  withdrawals: string[];
  deposits: string[];
  answers: Map<string, number>;
  oddAnswers: Map<string, number>;
  missingRetryAfter: number;
  killedAt: number;
};

const countIn = (map: Map<string, number>, what: string) => map.set(what, (map.get(what) ?? 0) + 1);

async function drive(
  base: string,
  players: TPlayer[],
  channelId: number,
  stopWhen: () => boolean,
  run: TRun,
): Promise<void> {
  const note = (kind: string, answer: TAnswer | null, error?: unknown) => {
    const what = answer ? `${kind} ${answer.http} ${answer.code}` : `${kind} ${String(error)}`;
    countIn(run.answers, what);
    const rule = answer !== null && kind === 'crash' && CRASH_RULES.has(answer.code);
    if (!rule && (!answer || (answer.http !== 200 && answer.http !== 503))) countIn(run.oddAnswers, what);
    if (answer?.http === 503 && answer.retryAfter === null) run.missingRetryAfter += 1;
  };
  const bettor = async (player: TPlayer) => {
    while (!stopWhen()) {
      const key = `fodb-${randomUUID()}`;
      const sentAt = performance.now();
      try {
        const answer = await call(
          base,
          'POST',
          '/api/originals/dice/bet',
          { amount: '1.00', direction: 'under', target: 4950, idempotency_key: key },
          player.token,
          key,
        );
        note('bet', answer);
        if (answer.http === 200) run.bets.push({ key, sentAt, answeredAt: performance.now() });
        else await new Promise((r) => setTimeout(r, 100));
      } catch (error) {
        note('bet', null, error);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const crasher = async (player: TPlayer) => {
    while (!stopWhen()) {
      const key = `fodc-${randomUUID()}`;
      try {
        const answer = await call(
          base,
          'POST',
          '/api/crash/bet',
          { amount: '1.00', auto_cashout: '1.50', idempotency_key: key },
          player.token,
        );
        note('crash', answer);
        if (answer.http === 200) run.crashBets.push(key);
      } catch (error) {
        note('crash', null, error);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  const withdrawer = async (player: TPlayer) => {
    while (!stopWhen()) {
      const key = `fodw-${randomUUID()}`;
      try {
        const answer = await call(
          base,
          'POST',
          '/api/drawing',
          { money: '20.00', member_bank_id: player.cardId, qk_pwd: '654321' },
          player.token,
          key,
        );
        note('withdrawal', answer);
        if (answer.http === 200) run.withdrawals.push(String(answer.data!.order_no));
      } catch (error) {
        note('withdrawal', null, error);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const depositor = async (player: TPlayer) => {
    while (!stopWhen()) {
      try {
        const order = await call(
          base,
          'POST',
          '/api/recharge/online',
          { money: '30.00', payment_id: channelId, payment_type: 'pix' },
          player.token,
        );
        note('deposit', order);
        if (order.http === 200) {
          // The payer's bank pays the charge on the PSP; the PSP tells us by its webhook.
          const paid = await fetch(String(order.data!.pay_url), {
            method: 'POST',
            body: new URLSearchParams({ nome: 'Maria Silva', cpf: player.cpf }),
            redirect: 'manual',
          });
          if (paid.status === 303) run.deposits.push(String(order.data!.order_no));
          else countIn(run.oddAnswers, `psp pay ${paid.status}`);
        }
      } catch (error) {
        note('deposit', null, error);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  await Promise.all([
    ...players.slice(0, BETTORS).map(bettor),
    withdrawer(players[BETTORS]!),
    depositor(players[BETTORS + 1]!),
    ...players.slice(BETTORS + 2, BETTORS + 2 + CRASH_PLAYERS).map(crasher),
  ]);
}

/** The first moment (ms after `from`) a single-host probe finds a node that takes writes. */
async function firstWritable(cluster: DbCluster, from: number, limitMs: number): Promise<number> {
  for (;;) {
    for (const node of cluster.nodes) {
      const client = new pg.Client({ connectionString: cluster.nodeUrl(node), connectionTimeoutMillis: 500 });
      client.on('error', () => {});
      try {
        await client.connect();
        const row = (
          await client.query<{ ok: boolean }>(
            `SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS ok`,
          )
        ).rows[0];
        if (row?.ok) {
          // Writable and past the split-brain guard: a commit is acknowledged.
          await client.query('SET statement_timeout = 500');
          await client.query(`SELECT txid_current()`);
          return performance.now() - from;
        }
      } catch {
        // not (yet) this one
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    if (performance.now() - from > limitMs) return Number.NaN;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function check(
  cluster: DbCluster,
  primary: ClusterNode,
  run: TRun,
): Promise<{ lostBets: number; lostCrashBets: number; lostWithdrawals: number; lostDeposits: number }> {
  const client = new pg.Client({ connectionString: cluster.nodeUrl(primary) });
  await client.connect();
  try {
    const keys = run.bets.map((b) => b.key);
    const found = await client.query<{ n: number }>(
      // The round and its stake's transfer (reference round:<id>), as the player was answered.
      `SELECT count(DISTINCT r.id)::int AS n FROM game_rounds r
         JOIN wallet_transfers t ON t.reference = 'round:' || r.id AND t.kind = 'bet'
        WHERE r.idempotency_key = ANY($1::text[])`,
      [keys],
    );
    const crash = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM crash_bets WHERE idempotency_key = ANY($1::text[])',
      [run.crashBets],
    );
    const withdrawals = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM withdrawal_orders WHERE order_no = ANY($1::text[])`,
      [run.withdrawals],
    );
    // The PSP's webhook retries (1 s, 2 s, 4 s, ...): a deposit it took may be credited a little later.
    let paid = 0;
    for (let i = 0; i < 120; i++) {
      paid = (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM deposit_orders WHERE order_no = ANY($1::text[]) AND status = 'paid'`,
          [run.deposits],
        )
      ).rows[0]!.n;
      if (paid === run.deposits.length) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    return {
      lostBets: keys.length - found.rows[0]!.n,
      lostCrashBets: run.crashBets.length - crash.rows[0]!.n,
      lostWithdrawals: run.withdrawals.length - withdrawals.rows[0]!.n,
      lostDeposits: run.deposits.length - paid,
    };
  } finally {
    await client.end();
  }
}

/**
 * `work` again while the database is unavailable (as the server answers 503 meanwhile): the
 * drill's own pool finds the new primary as the server's does, after its first refused connection.
 */
async function untilAvailable<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt > 50) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const cluster = await startDbCluster({ log: console.log });
  const work = mkdtempSync(join(tmpdir(), 'sorte-failover-db-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server: ReturnType<typeof startServerProcess> | null = null;
  let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
  try {
    console.log(
      `failover-db: cluster up in ${fmt((performance.now() - started) / 1000, 1)} s; ${cluster.url}`,
    );
    server = startServerProcess({
      port,
      databaseUrl: cluster.url,
      dataDir: work,
      env: { PROMO_JOBS: 'off' },
    });
    await waitFor(`${base}/readyz`, {}, 180);
    // The drill's own connection goes through the same multi-host glue as the server's.
    database = await openDatabase({ kind: 'postgres', url: cluster.url, poolMax: 2 });
    const raw = (database.db as unknown as { $client: pg.Pool }).$client;
    // Not under test: the per-day withdrawal count (5) would refuse the drill's withdrawals.
    await raw.query('UPDATE withdrawal_settings SET daily_count_max = 1000, min_minor = 2000');
    const channels = await call(base, 'GET', '/api/payment/online/list?payment_type=pix');
    const channelId = Number((channels.data!.list as { id: number }[])[0]!.id);
    const players: TPlayer[] = [];
    for (let i = 0; i < BETTORS + 2 + CRASH_PLAYERS; i++) players.push(await newPlayer(base, database));

    const rows: string[] = [];
    for (let n = 1; n <= RUNS; n++) {
      const victim = await cluster.waitHealthy(180);
      const run: TRun = {
        bets: [],
        crashBets: [],
        withdrawals: [],
        deposits: [],
        answers: new Map(),
        oddAnswers: new Map(),
        missingRetryAfter: 0,
        killedAt: Number.POSITIVE_INFINITY,
      };
      let stopAt = Number.POSITIVE_INFINITY;
      const load = drive(base, players, channelId, () => performance.now() > stopAt, run);
      await new Promise((r) => setTimeout(r, LOAD_BEFORE_KILL_MS));
      const oddBefore = new Map(run.oddAnswers);
      run.killedAt = performance.now();
      await cluster.kill(victim);
      const withoutPrimaryMs = await firstWritable(cluster, run.killedAt, 120_000);
      // Bets accepted again: the first 200 of a bet sent after the kill.
      let betsBackMs = Number.NaN;
      for (let i = 0; i < 1200; i++) {
        const first = run.bets.find((b) => b.sentAt > run.killedAt);
        if (first) {
          betsBackMs = first.answeredAt - run.killedAt;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      stopAt = performance.now() + LOAD_AFTER_RECOVERY_MS;
      await load;
      const oddDuringSwitch = [...run.oddAnswers].reduce(
        (sum, [what, count]) => sum + count - (oddBefore.get(what) ?? 0),
        0,
      );
      const primary = await cluster.primary();
      if (!primary) throw new Error('no primary after the failover');
      const lost = await check(cluster, primary, run);
      const db = database.db;
      const ledger = await untilAvailable(() => reconcile(db));
      const answered503 = [...run.answers]
        .filter(([what]) => / 503 /.test(what))
        .reduce((s, [, c]) => s + c, 0);
      rows.push(
        `| ${n} | ${victim.name} → ${primary.name} | ${run.bets.length} | ${run.crashBets.length} | ${run.withdrawals.length} | ${run.deposits.length} | ${lost.lostBets + lost.lostCrashBets + lost.lostWithdrawals + lost.lostDeposits} | ${fmt(withoutPrimaryMs / 1000, 2)} | ${fmt(betsBackMs / 1000, 2)} | ${answered503} | ${oddDuringSwitch} | ${run.missingRetryAfter} | ${ledger.ok ? 0 : ledger.drift.length} |`,
      );
      console.log(`failover-db run ${n}: answers ${JSON.stringify(Object.fromEntries(run.answers))}`);
      if (run.oddAnswers.size > 0)
        console.log(
          `failover-db run ${n}: other answers ${JSON.stringify(Object.fromEntries(run.oddAnswers))}`,
        );
      if (!ledger.ok) console.log(`failover-db run ${n}: drift ${JSON.stringify(ledger.drift.slice(0, 5))}`);
      // The killed machine comes back: it rejoins as the standby (pg_rewind), synchronous again.
      cluster.restart(victim);
      await cluster.waitHealthy(180);
    }
    console.log(
      `failover-db: ${BETTORS} bettors (dice), ${CRASH_PLAYERS} crash players (auto cash-out 1.50), 1 withdrawer, 1 depositor (PSP sandbox + webhook) over HTTP on one server process; the primary's pg_autoctl and postgres killed with SIGKILL ${fmt(LOAD_BEFORE_KILL_MS / 1000, 0)} s into each run; synchronous replication (ANY 1 standby)`,
    );
    console.log(
      '| run | primary killed → new primary | dice bets acknowledged | crash bets acknowledged | withdrawals acknowledged | deposits paid | acknowledged operations lost | s without a primary | s until bets accepted again | 503 answers | answers other than 200/503 from the kill on | 503 without Retry-After | ledger drift |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } catch (error) {
    console.error(cluster.logs());
    throw error;
  } finally {
    await database?.close().catch(() => undefined);
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 2000));
      server.kill('SIGKILL');
    }
    await cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
