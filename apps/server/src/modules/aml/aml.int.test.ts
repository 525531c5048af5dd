import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, solvedCaptcha } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { depositCredited } from '../../core/money-events.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { applyPixNotification } from '../deposits/deposits.service.ts';
import { fund, newPlayer, randomCpf, setMemberCpf } from '../deposits/money.fixtures.ts';
import {
  alertsOf,
  backdateMember,
  outboxEvent,
  outboxOf,
  pendingOrder,
  play,
  rulesHit,
  setPep,
} from './aml.fixtures.ts';
import { pruneOutbox } from './aml.retention.ts';
import { runScreening } from './aml.screening.ts';

const kinds = await databaseKinds();
const DAY = 86_400_000;

/**
 * The rules of the intl profile as seeded (migration 0065): large amount 3,000.00; structuring in
 * [2,400.00, 3,000.00) three times in 24 h; quick cash-out below 30 % wagered of 1,000.00+ in 7
 * days; shared identifiers; payer CPF; a win of 5,000.00+ at 100x the stake; PEP; a surge.
 */
describe.each(kinds)('AML rules, outbox and screening on %s', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let siteId: bigint;
  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    siteId = (await app.services.sites.byHost(HOSTS.intl))!.id;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  /**
   * A player with cash to play with. Every test player signs up from the same address and client,
   * so the sign-up's login row is dropped: the shared-identifier rule is tested on its own values.
   */
  const player = async () => {
    const { memberId } = await newPlayer(app);
    await db.execute(sql`DELETE FROM aml_outbox WHERE member_id = ${memberId.toString()}::bigint`);
    await fund(db, memberId, 1_000_000n);
    return memberId;
  };
  const event = (memberId: bigint, kind: 'deposit' | 'withdrawal' | 'login', amountMinor = 0n, extra = {}) =>
    outboxEvent(db, { siteId, memberId, kind, amountMinor, ...extra });

  it('large amount: at the threshold alerts, one minor unit below does not', async () => {
    const [big, small] = [await player(), await player()];
    await event(big, 'deposit', 300_000n);
    await event(small, 'deposit', 299_999n);
    await runScreening(db);
    expect(await rulesHit(db, big)).toEqual(['large_amount']);
    expect(await rulesHit(db, small)).toEqual([]);
  });

  it('structuring: a third amount just under the threshold in 24 h alerts; two, or one a day earlier, do not', async () => {
    const [split, twice, spread] = [await player(), await player(), await player()];
    for (const amount of [250_000n, 260_000n, 290_000n]) await event(split, 'deposit', amount);
    for (const amount of [250_000n, 260_000n]) await event(twice, 'deposit', amount);
    await event(spread, 'deposit', 250_000n, { at: new Date(Date.now() - 2 * DAY), screened: true });
    for (const amount of [250_000n, 260_000n]) await event(spread, 'deposit', amount);
    await runScreening(db);
    expect(await rulesHit(db, split)).toEqual(['structuring']);
    expect(await rulesHit(db, twice)).toEqual([]);
    expect(await rulesHit(db, spread)).toEqual([]);
  });

  it('quick cash-out: a withdrawal after deposits with little play alerts; after enough play it does not', async () => {
    const [little, enough] = [await player(), await player()];
    for (const memberId of [little, enough]) await event(memberId, 'deposit', 200_000n);
    await play(db, siteId, little, 'bet', 10_000n, 'round:aml-little');
    await play(db, siteId, enough, 'bet', 100_000n, 'round:aml-enough');
    for (const memberId of [little, enough]) await event(memberId, 'withdrawal', 150_000n);
    await runScreening(db);
    expect(await rulesHit(db, little)).toEqual(['quick_cashout']);
    expect(await rulesHit(db, enough)).toEqual([]);
  });

  it('shared identifiers: a payer CPF of another account alerts; a device needs two other accounts', async () => {
    const cpf = randomCpf();
    const [first, second, own] = [await player(), await player(), await player()];
    await event(first, 'deposit', 1_000n, { identifiers: { payer_cpf: cpf } });
    await event(own, 'deposit', 1_000n, { identifiers: { payer_cpf: randomCpf() } });
    await runScreening(db);
    await event(second, 'deposit', 1_000n, { identifiers: { payer_cpf: cpf } });
    const device = `device-${randomCpf()}`;
    const phones = [await player(), await player(), await player()];
    for (const memberId of phones) {
      await event(memberId, 'login', 0n, { identifiers: { device } });
      await runScreening(db);
    }
    await runScreening(db);
    expect(await rulesHit(db, first)).toEqual([]);
    expect(await rulesHit(db, second)).toEqual(['shared_identifier']);
    expect(await rulesHit(db, own)).toEqual([]);
    expect(await Promise.all(phones.map((memberId) => rulesHit(db, memberId)))).toEqual([
      [],
      [],
      ['shared_identifier'],
    ]);
  });

  it("payer CPF: a deposit paid from a CPF that is not the account's alerts; from its own it does not", async () => {
    const [other, same] = [await player(), await player()];
    const [otherCpf, sameCpf] = [randomCpf(), randomCpf()];
    await setMemberCpf(db, other, otherCpf);
    await setMemberCpf(db, same, sameCpf);
    await event(other, 'deposit', 5_000n, { identifiers: { payer_cpf: randomCpf() } });
    await event(same, 'deposit', 5_000n, { identifiers: { payer_cpf: sameCpf } });
    await runScreening(db);
    expect(await rulesHit(db, other)).toEqual(['payer_cpf_mismatch']);
    expect(await rulesHit(db, same)).toEqual([]);
  });

  it('a win out of proportion: 5,000.00 on a stake of 10.00 alerts (read from the ledger); on 100.00 it does not', async () => {
    const [lucky, usual] = [await player(), await player()];
    await play(db, siteId, lucky, 'bet', 1_000n, 'round:aml-lucky');
    await play(db, siteId, lucky, 'win', 500_000n, 'round:aml-lucky');
    await play(db, siteId, usual, 'bet', 10_000n, 'round:aml-usual');
    await play(db, siteId, usual, 'win', 500_000n, 'round:aml-usual');
    await runScreening(db);
    expect(await rulesHit(db, lucky)).toEqual(['disproportionate_win']);
    expect(await rulesHit(db, usual)).toEqual([]);
  });

  it('a win behind more fresh transfers than one ledger batch is still screened in the same run', async () => {
    const [lucky, busy] = [await player(), await player()];
    for (let n = 0; n < 25; n += 1) await play(db, siteId, busy, 'bet', 1n, `round:aml-busy-${n}`);
    await play(db, siteId, lucky, 'bet', 1_000n, 'round:aml-behind');
    await play(db, siteId, lucky, 'win', 500_000n, 'round:aml-behind');
    const run = await runScreening(db, { ledgerBatch: 20 });
    expect(run.wins).toBeGreaterThanOrEqual(1);
    expect(await rulesHit(db, lucky)).toEqual(['disproportionate_win']);
  });

  it('retention: screened outbox rows older than the longest rule window plus a day go; newer ones and unscreened ones stay', async () => {
    const member = await player();
    const now = Date.now();
    // The longest window of the seeded profiles: surge's 24 hours of deposits against 90 days before.
    const longest = DAY + 90 * DAY;
    const at = (msAgo: number) => new Date(now - msAgo);
    await event(member, 'deposit', 1_000n, {
      reference: 'old-screened',
      at: at(longest + DAY + 60_000),
      screened: true,
    });
    await event(member, 'login', 0n, { reference: 'old-unscreened', at: at(longest + 5 * DAY) });
    await event(member, 'deposit', 1_000n, {
      reference: 'in-window',
      at: at(longest + DAY - 60_000),
      screened: true,
    });
    for (let i = 0; i < 3; i++) {
      await event(member, 'withdrawal', 1_000n, { reference: `old-${i}`, at: at(200 * DAY), screened: true });
    }
    // Batches of 2: the four old screened rows take three statements.
    const pruned = await pruneOutbox(db, { now: new Date(now), batch: 2 });
    expect(pruned.keptFrom.getTime()).toBe(now - longest - DAY);
    expect(pruned.deleted).toBeGreaterThanOrEqual(4);
    expect((await outboxOf(db, member)).map((row) => row.reference)).toEqual(['old-unscreened', 'in-window']);
  });

  it('PEP: a politically exposed person flagged by KYC alerts once, on any event; another player does not', async () => {
    const [pep, other] = [await player(), await player()];
    await setPep(db, siteId, pep);
    for (const memberId of [pep, other]) {
      await event(memberId, 'login');
      await event(memberId, 'deposit', 1_000n);
    }
    await runScreening(db);
    expect(await alertsOf(db, pep)).toMatchObject([{ rule: 'pep', dedupe_key: `member:${pep}` }]);
    expect(await rulesHit(db, other)).toEqual([]);
  });

  it("surge: a day's deposits five times the player's usual alerts; in line with their history they do not", async () => {
    const [surging, steady] = [await player(), await player()];
    for (const memberId of [surging, steady]) {
      await backdateMember(db, memberId, 60);
      for (let day = 2; day <= 40; day += 2) {
        const amount = memberId === surging ? 10_000n : 250_000n;
        await event(memberId, 'deposit', amount, { at: new Date(Date.now() - day * DAY), screened: true });
      }
      await event(memberId, 'deposit', 220_000n);
    }
    await runScreening(db);
    expect(await rulesHit(db, surging)).toEqual(['surge']);
    expect(await rulesHit(db, steady)).toEqual([]);
  });

  it("screening an event again opens no second alert; a player's alerts gather into one case", async () => {
    const memberId = await player();
    await event(memberId, 'deposit', 400_000n);
    await event(memberId, 'withdrawal', 350_000n);
    await runScreening(db);
    const first = await alertsOf(db, memberId);
    expect(first.map((alert) => alert.rule).sort()).toEqual([
      'large_amount',
      'large_amount',
      'quick_cashout',
    ]);
    expect(new Set(first.map((alert) => alert.case_id)).size).toBe(1);
    await db.execute(
      sql`UPDATE aml_outbox SET screened_at = NULL WHERE member_id = ${memberId.toString()}::bigint`,
    );
    await db.execute(sql`UPDATE aml_cursors SET last_id = 0 WHERE source = 'ledger_wins'`);
    const again = await runScreening(db);
    expect(again.events).toBeGreaterThanOrEqual(2);
    expect(await alertsOf(db, memberId)).toEqual(first);
  });

  it('a credited deposit writes its outbox row in the crediting transaction; a rolled-back one writes none', async () => {
    const deps = { db, psp: app.psp, realtime: app.realtime, log: app.log };
    const pix = (txid: string) => ({
      endToEndId: `E${Date.now()}${Math.random().toString(36).slice(2, 8)}`.padEnd(32, 'A').slice(0, 32),
      txid,
      amountMinor: 12_345n,
      paidAt: new Date(),
      payer: null,
      payerMessage: null,
      refunds: [],
    });
    const credited = await player();
    const paid = await pendingOrder(db, siteId, credited, 12_345n);
    expect(await applyPixNotification(deps, pix(paid.txid), null)).toBe('credited');
    expect(await outboxOf(db, credited)).toMatchObject([
      { kind: 'deposit', amount_minor: '12345', reference: paid.orderNo },
    ]);

    const failed = await player();
    const order = await pendingOrder(db, siteId, failed, 12_345n);
    depositCredited.on('aml-test-failure', async () => {
      throw new Error('the crediting transaction fails after the outbox row');
    });
    try {
      await expect(applyPixNotification(deps, pix(order.txid), null)).rejects.toThrow(
        /crediting transaction fails/,
      );
    } finally {
      depositCredited.on('aml-test-failure', async () => undefined);
    }
    expect(await outboxOf(db, failed)).toEqual([]);
    const status = await rowsOf<{ status: string }>(
      db,
      sql`SELECT status FROM deposit_orders WHERE order_no = ${order.orderNo}`,
    );
    expect(status).toEqual([{ status: 'pending' }]);
  });

  it("a login writes a login row with its address and the browser's device id (never the user agent); a committed row left unscreened is screened by the next run", async () => {
    const registered = await newPlayer(app);
    const rows = await outboxOf(db, registered.memberId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'login' });
    // Signed up without a device id: the address alone, though the request had a user agent.
    expect(Object.keys(rows[0]!.identifiers as object).sort()).toEqual(['ip']);
    const deviceId = randomUUID();
    const loginWith = async (device: string) =>
      call(app, {
        method: 'POST',
        url: '/api/auth/login2',
        payload: { username: registered.username, password: 'secret123', ...(await solvedCaptcha(app)) },
        headers: { 'x-sorte-device': device, 'user-agent': 'Mozilla/5.0 (Linux; Android 14)' },
      });
    expect((await loginWith(deviceId)).status).toBe(200);
    expect((await loginWith('not an id')).status).toBe(200);
    const logins = (await outboxOf(db, registered.memberId)).slice(1);
    expect(logins.map((row) => row.identifiers)).toEqual([
      { ip: expect.any(String), device: createHash('sha256').update(deviceId).digest('hex') },
      { ip: expect.any(String) },
    ]);
    const pending = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM aml_outbox WHERE member_id = ${registered.memberId.toString()}::bigint AND screened_at IS NULL`,
    );
    expect(pending[0]!.n).toBe(3);
    await runScreening(db);
    const after = await rowsOf<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM aml_outbox WHERE member_id = ${registered.memberId.toString()}::bigint AND screened_at IS NULL`,
    );
    expect(after[0]!.n).toBe(0);
  });
});
