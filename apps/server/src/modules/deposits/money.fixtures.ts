import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type Exchange } from '@sorte/psp-sandbox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Agent, fetch as undiciFetch } from 'undici';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import type { DatabaseKind } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { connectPsp, type PspConnection } from '../payments/psp/psp.connection.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import { getBalances } from '../wallet/balances.ts';
import { transfer } from '../wallet/wallet.service.ts';

/**
 * Test fixtures of the money flows: the real app listening on a free loopback port, a real PSP
 * sandbox (its own listener, a temp data dir) whose webhooks call that app back, and helpers to pay,
 * sign and wait. Every test creates its own players, so files can share the database.
 */
export interface MoneyHarness {
  app: FastifyInstance;
  db: Db;
  psp: PspConnection;
  baseUrl: string;
  /** Every exchange between the server and the sandbox, callbacks included. */
  traffic: Exchange[];
  close(): Promise<void>;
}

/**
 * The sandbox runs in strict mode (ADR 031): HTTPS that requires our client certificate (a PKI
 * made for this run), the standard's paths and scopes, unsigned callbacks, no payer extension.
 */
export async function startMoneyHarness(kind: DatabaseKind): Promise<MoneyHarness> {
  const app = await buildTestApp(kind);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'sorte-money-'));
  const pki = createTestPki();
  const traffic: Exchange[] = [];
  const psp = await connectPsp(
    {},
    {
      dataDir,
      sandboxPort: 0,
      webhookUrl: `http://127.0.0.1:${port}/api/psp/webhook`,
      strictSandbox: {
        server: pki.server,
        client: { cert: pki.client.cert, key: pki.client.key },
        ca: pki.ca,
        onExchange: (exchange) => traffic.push(exchange),
      },
    },
  );
  app.psp.attach(psp);
  // The tester's pages are on the same mTLS listener: the helpers present the client certificate.
  testers.set(psp, new Agent({ connect: { cert: pki.client.cert, key: pki.client.key, ca: pki.ca } }));
  return {
    app,
    db: app.services.db,
    psp,
    baseUrl: `http://127.0.0.1:${port}`,
    traffic,
    close: async () => {
      await app.close();
      await app.psp.close();
      rmSync(dataDir, { recursive: true, force: true });
      pki.remove();
    },
  };
}

const testers = new WeakMap<PspConnection, Agent>();

/** A request to the sandbox's tester pages (payer page, payout decisions). */
function testerFetch(
  psp: PspConnection,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
) {
  const dispatcher = testers.get(psp);
  return undiciFetch(url, { ...init, redirect: 'manual', ...(dispatcher ? { dispatcher } : {}) });
}

/** A valid CPF built from 9 random digits (check digits computed). */
export function randomCpf(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (digits.every((d) => d === digits[0])) digits[0] = (digits[0]! + 1) % 10;
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((acc, d, i) => acc + d * (length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  return digits.join('');
}

export async function newPlayer(app: FastifyInstance, host: string = HOSTS.intl) {
  const { token, user, input } = await registerPlayer(app, host);
  return {
    token,
    memberId: BigInt(user.id),
    username: input.username as string,
    qkPwd: input.qk_pwd as string,
    host,
  };
}

export async function siteIdOf(db: Db, memberId: bigint): Promise<bigint> {
  const rows = await rowsOf<{ site_id: unknown }>(
    db,
    sql`SELECT site_id FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  return BigInt(String(rows[0]!.site_id));
}

export async function setMemberCpf(db: Db, memberId: bigint, cpf: string): Promise<void> {
  await db.execute(sql`UPDATE members SET cpf = ${cpf} WHERE id = ${memberId.toString()}::bigint`);
}

/** Cash for a member straight through the wallet (as a verified deposit would credit it). */
export async function fund(
  db: Db,
  memberId: bigint,
  amountMinor: bigint,
  key = `test-fund:${memberId}:${Math.random()}`,
) {
  const siteId = await siteIdOf(db, memberId);
  await openMemberAccounts(db, { siteId, memberId });
  await transfer(db, {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor,
    idempotencyKey: key,
  });
}

export async function balancesOf(db: Db, memberId: bigint) {
  const siteId = await siteIdOf(db, memberId);
  await openMemberAccounts(db, { siteId, memberId });
  return getBalances(db, memberId, { siteId });
}

/** A bank card row for the member (the bank-cards module's table), CPF key by default. */
export async function addCard(
  db: Db,
  memberId: bigint,
  options: { type?: 'CPF' | 'EMAIL'; cpf?: string | null; pixKey?: string } = {},
): Promise<bigint> {
  const siteId = await siteIdOf(db, memberId);
  const type = options.type ?? 'CPF';
  const cpf = options.cpf === undefined ? randomCpf() : options.cpf;
  const pixKey =
    options.pixKey ??
    (type === 'CPF' ? cpf! : `p${memberId}-${Math.random().toString(36).slice(2, 8)}@example.com`);
  const rows = await rowsOf<{ id: unknown }>(
    db,
    sql`INSERT INTO member_bank_cards (site_id, member_id, bank_name, account_type, payee_name, pix_key, cpf)
        VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, 'PIX', ${type}, 'Maria Silva', ${pixKey}, ${cpf})
        RETURNING id`,
  );
  return BigInt(String(rows[0]!.id));
}

/** The tester pays a charge on the sandbox payer page (a form POST, as the browser does). */
export async function payOnSandbox(psp: PspConnection, txid: string, cpf: string, name = 'Maria Silva') {
  const response = await testerFetch(psp, `${psp.sandboxUrl}/pay/${txid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ nome: name, cpf }).toString(),
  });
  if (response.status !== 303)
    throw new Error(`sandbox pay answered ${response.status}: ${await response.text()}`);
}

/** Decides a payout on the sandbox overview page. */
export async function decidePayout(psp: PspConnection, payoutId: string, outcome: 'succeed' | 'fail') {
  const response = await testerFetch(psp, `${psp.sandboxUrl}/admin/payouts/${payoutId}/${outcome}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: outcome === 'fail' ? 'motivo=conta+encerrada' : '',
  });
  if (response.status >= 400) throw new Error(`sandbox payout ${outcome} answered ${response.status}`);
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A callback as an API Pix PSP posts it: JSON, no signature (the standard relies on mTLS). */
export function pixCallback(app: FastifyInstance, body: unknown, host: string = HOSTS.intl) {
  return app.inject({
    method: 'POST',
    url: '/api/psp/webhook/pix',
    headers: { host, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
}

/**
 * Points the sandbox's callbacks at a closed port (they are lost, as when our server is down), or
 * back at the app; tests use it to decide when, how often and how a callback arrives.
 */
export async function redirectCallbacks(h: MoneyHarness, to: 'nowhere' | 'app'): Promise<void> {
  const url = to === 'app' ? `${h.baseUrl}/api/psp/webhook` : 'http://127.0.0.1:9/lost';
  await h.psp.client.registerWebhook(h.psp.pixKey, url);
}

/** The Pix the sandbox received for a charge, as our client reads it back. */
export async function paymentOf(h: MoneyHarness, txid: string) {
  return waitFor(async () => (await h.psp.client.getCharge(txid)).payments[0], `the Pix of ${txid}`);
}

export { call, HOSTS };

/**
 * The order numbers a record call (`/api/recharge/list`, `/api/drawing/list`) answers for a
 * payload, sorted: the tests compare sets, the list itself is newest first.
 */
export function orderNumbersListed(app: FastifyInstance, url: string, token: string) {
  return async (payload: Record<string, unknown>): Promise<string[]> => {
    const list = await call(app, { method: 'POST', url, token, payload });
    return list.body.data.list.map((o: { order_no: string }) => o.order_no).sort();
  };
}
