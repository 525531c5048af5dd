import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AGGREGATOR_SIGNATURE_HEADER } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase } from '../../apps/server/src/db/client.ts';
import { rowsOf } from '../../apps/server/src/db/sql.ts';
import { freePort } from '../../apps/server/src/http/free-port.ts';
import { openProviderSession } from '../../apps/server/src/modules/providers/providers.service.ts';
import { getBalances } from '../../apps/server/src/modules/wallet/balances.ts';
import { reconcile } from '../../apps/server/src/modules/wallet/wallet.reconcile.ts';
import { transfer } from '../../apps/server/src/modules/wallet/wallet.service.ts';
import { randomCpf } from '../../apps/server/test/app.ts';
import { postgresReachable } from '../support/report.ts';

/**
 * Issue 34's money races, over HTTP against a real server process on a fresh PostgreSQL database:
 *   1. one player with 100.00 sends at once 40 withdrawals of 20.00 and 80 dice bets of 1.00
 *      (three tries, a new player each): answers by status, 5xx, the server's deadlock log lines,
 *      and whether the hold, the cash and the ledger add up;
 *   2. a player with a daily loss limit of 10.00 takes 50 parallel seamless-wallet bets of 1.00
 *      (rounds closed, no win): how many were accepted, how much was lost past the limit.
 * The script plays the aggregator (it signs the wallet calls with the server's AGGREGATOR_SECRET).
 * Setup that is not under attack (cash, the card, the game session) is written directly.
 * `npm run bench:attacks`; DATABASE_URL or a local postgres/postgres.
 */

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const ROOT = resolve(import.meta.dirname, '../..');
const AGGREGATOR = 'sorte-demo';
const SECRET = randomUUID() + randomUUID();
const SLOT = 'aurora-golden-macaw';
const TRIES = 3;

type TAnswer = { http: number; code: string; data: Record<string, unknown> | null };

async function post(base: string, path: string, body: object, token?: string): Promise<TAnswer> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as { code?: unknown; data?: unknown };
  return {
    http: response.status,
    code: String(json.code ?? ''),
    data: (json.data ?? null) as Record<string, unknown> | null,
  };
}

async function waitReady(base: string): Promise<void> {
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error('the server did not come up');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A registered player over HTTP, with `cashMinor` credited as a paid deposit would be. */
async function player(base: string, db: Db, cashMinor: bigint) {
  const username = `atk${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.slice(
    0,
    20,
  );
  const registered = await post(base, '/api/auth/register2', {
    username,
    password: 'secret123',
    password_confirmation: 'secret123',
    realname: 'Maria Silva',
    phone: '11987654321',
    qk_pwd: '654321',
    agree_terms: true,
    is_adult: true,
  });
  if (registered.http !== 200) throw new Error(`registration failed: ${JSON.stringify(registered)}`);
  const token = String(registered.data!.token);
  const memberId = BigInt(String((registered.data!.user as { id: string }).id));
  const [member] = await rowsOf<{ site_id: string }>(
    db,
    sql`SELECT site_id::text FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  const siteId = BigInt(member!.site_id);
  await transfer(db, {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor: cashMinor,
    idempotencyKey: `attack-fund:${randomUUID()}`,
  });
  return { token, memberId, siteId };
}

/** The server's count of transactions run again after a lock conflict (GET /metrics). */
async function retriesSoFar(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number(/^sorte_transaction_conflict_retries_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

const minor = (text: unknown) => BigInt(String(text).replace('.', ''));
const tally = (answers: TAnswer[]) => {
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(`${a.http} ${a.code}`, (counts.get(`${a.http} ${a.code}`) ?? 0) + 1);
  return [...counts].map(([what, n]) => `${what} ×${n}`).join(', ');
};

async function withdrawalsAndBets(base: string, db: Db, logLines: () => string[], attempt: number) {
  const p = await player(base, db, 10_000n);
  const cpf = randomCpf();
  const [card] = await rowsOf<{ id: string }>(
    db,
    sql`INSERT INTO member_bank_cards (site_id, member_id, bank_name, account_type, payee_name, pix_key, cpf)
        VALUES (${p.siteId.toString()}::bigint, ${p.memberId.toString()}::bigint, 'PIX', 'CPF', 'Maria Silva',
          ${cpf}, ${cpf}) RETURNING id::text`,
  );
  const logBefore = logLines().length;
  const retriesBefore = await retriesSoFar(base);
  const withdrawals = Array.from({ length: 40 }, () =>
    post(base, '/api/drawing', { money: '20.00', member_bank_id: card!.id, qk_pwd: '654321' }, p.token),
  );
  const bets = Array.from({ length: 80 }, () =>
    post(base, '/api/originals/dice/bet', { amount: '1.00', direction: 'under', target: 5000 }, p.token),
  );
  const answers = await Promise.all([...withdrawals, ...bets]);
  const w = answers.slice(0, 40);
  const b = answers.slice(40);
  const held = w.filter((a) => a.http === 200).length;
  const placed = b.filter((a) => a.http === 200);
  const paid = placed.reduce((sum, a) => sum + minor((a.data!.round as { payout: string }).payout), 0n);
  const balances = await getBalances(db, p.memberId);
  const exact =
    balances.holdMinor === BigInt(held) * 2_000n &&
    balances.cashMinor === 10_000n - BigInt(held) * 2_000n - BigInt(placed.length) * 100n + paid;
  const deadlocks = logLines()
    .slice(logBefore)
    .filter((line) => /deadlock detected|40P01/.test(line)).length;
  const retried = (await retriesSoFar(base)) - retriesBefore;
  console.log(`attack 1, try ${attempt}: withdrawals ${tally(w)}`);
  console.log(`attack 1, try ${attempt}: dice bets ${tally(b)}`);
  console.log(
    `attack 1, try ${attempt}: 5xx ${answers.filter((a) => a.http >= 500).length}; deadlocks in the server log ${deadlocks}; ` +
      `transactions retried ${Number.isNaN(retried) ? 'n/a' : retried}; ` +
      `hold ${balances.holdMinor} cash ${balances.cashMinor} (${exact ? 'exact' : 'NOT EXACT'})`,
  );
}

async function providerBetsUnderLossLimit(base: string, db: Db) {
  const p = await player(base, db, 10_000n);
  const limit = await post(
    base,
    '/api/responsible-gaming/limits',
    { kind: 'loss', period: 'day', value: '10' },
    p.token,
  );
  if (limit.http !== 200) throw new Error(`setting the limit failed: ${JSON.stringify(limit)}`);
  const [game] = await rowsOf<{ id: string }>(db, sql`SELECT id::text FROM games WHERE code = ${SLOT}`);
  const session = await openProviderSession(db, {
    aggregator: AGGREGATOR,
    siteId: p.siteId,
    memberId: p.memberId,
    gameId: BigInt(game!.id),
  });
  const bet = async () => {
    const raw = JSON.stringify({
      request_uuid: randomUUID(),
      token: session.token,
      game_code: SLOT,
      transaction_uuid: randomUUID(),
      round: randomUUID(),
      amount: '1.00',
      currency: 'BRL',
      round_closed: true,
    });
    const response = await fetch(`${base}/api/providers/${AGGREGATOR}/wallet/bet`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [AGGREGATOR_SIGNATURE_HEADER]: createHmac('sha256', SECRET).update(raw).digest('hex'),
      },
      body: raw,
    });
    return { http: response.status, code: String(((await response.json()) as { status?: string }).status) };
  };
  const answers = await Promise.all(Array.from({ length: 50 }, bet));
  const accepted = answers.filter((a) => a.code === 'RS_OK').length;
  const lost = 10_000n - (await getBalances(db, p.memberId)).cashMinor;
  console.log(
    `attack 2: 50 provider bets of 1.00 under a 10.00 daily loss limit: ${tally(answers as TAnswer[])}`,
  );
  console.log(
    `attack 2: accepted ${accepted}, lost ${lost} centavos, past the limit ${lost > 1_000n ? lost - 1_000n : 0n}`,
  );
}

async function main(): Promise<void> {
  if (!(await postgresReachable(ADMIN_URL))) throw new Error(`PostgreSQL not reachable at ${ADMIN_URL}`);
  const name = `sorte_attacks_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const work = mkdtempSync(join(tmpdir(), 'sorte-attacks-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log: string[] = [];
  let server: ChildProcess | null = null;
  let database: Awaited<ReturnType<typeof openDatabase>> | null = null;
  try {
    server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        PORT: String(port),
        HOST: '127.0.0.1',
        CAPTCHA: 'off',
        RATE_LIMIT_PER_MINUTE: '1000000',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
        PSP_SANDBOX_PORT: '0',
        MAIL_CATCHER_PORT: '0',
        REGISTRY_SANDBOX_PORT: '0',
        KYC_SANDBOX_PORT: '0',
        PROMO_JOBS: 'off',
        // The script is the aggregator: it signs the wallet calls with this secret.
        AGGREGATOR_BASE_URL: 'http://127.0.0.1:9',
        AGGREGATOR_SECRET: SECRET,
        DATA_DIR: work,
        LOG_LEVEL: 'warn',
      },
    });
    for (const stream of [server.stdout!, server.stderr!]) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => log.push(...chunk.split('\n')));
    }
    await waitReady(base);
    database = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 4 });
    for (let attempt = 1; attempt <= TRIES; attempt++)
      await withdrawalsAndBets(base, database.db, () => log, attempt);
    await providerBetsUnderLossLimit(base, database.db);
    console.log(`reconcile: ${(await reconcile(database.db)).ok ? 'no drift' : 'DRIFT'}`);
  } finally {
    await database?.close();
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((r) => server!.once('exit', r));
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
