import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  HOSTS,
  loginOperator,
  randomCpf,
  registration,
  solvedCaptcha,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { deposit, newSite, play } from '../agency/agency.fixtures.ts';
import { settlePeriod } from '../agency/agency.service.ts';
import { localDay } from '../promotions/days.ts';
import { onDepositCredited } from '../promotions/promotions.service.ts';
import { getBalances } from '../wallet/balances.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { ipKey } from './referrals.service.ts';

let addressCounter = 0;
/** A public address (TEST-NET-3) no other registration of this run used. */
function freshAddress(): string {
  addressCounter += 1;
  return `203.0.${Math.floor(Math.random() * 100) + 100}.${(addressCounter % 250) + 1}`;
}

/**
 * Issue 34, item 5: a player who invites a second account of their own (same IP, same payer CPF,
 * same PIX key) earns no invitation reward and no commission; each refusal says which kinds of
 * signal matched to the operators, never the values.
 */
describe.each(await databaseKinds())('self-referral (%s)', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let siteId: bigint;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    siteId = (await app.services.sites.byHost(HOSTS.intl))!.id;
  });
  afterAll(async () => {
    await app.close();
  });

  /** Registers over HTTP from `address` (the address the server sees, as behind a trusted proxy). */
  async function register(
    address: string,
    overrides: Record<string, unknown> = {},
    host: string = HOSTS.intl,
  ) {
    const payload = { ...registration(overrides), ...(await solvedCaptcha(app, host)) };
    const response = await call(app, {
      method: 'POST',
      url: '/api/auth/register2',
      host,
      payload,
      remoteAddress: address,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const user = response.body.data.user as { id: number; name: string; invite_code: string };
    return { token: response.body.data.token as string, memberId: BigInt(user.id), user };
  }

  /** A paid PIX deposit from the bank account of `payerCpf`, credited as the PSP webhook credits it. */
  async function paidDeposit(memberId: bigint, amountMinor: bigint, payerCpf: string | null) {
    const orderNo = `R${randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase()}`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        INSERT INTO deposit_orders (site_id, member_id, order_no, amount_minor, status, payment_method, channel, txid,
                                    pix_copy_paste, created_at, expires_at, paid_at, payer_cpf)
        VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, ${orderNo}, ${amountMinor.toString()}::bigint,
                'paid', 'pix', 'pix_express', ${`tx${orderNo}`}, '', now(), now() + interval '15 minutes', now(),
                ${payerCpf})`);
      await transfer(tx, {
        siteId,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId, account: 'cash' },
        amountMinor,
        idempotencyKey: `pix:${orderNo}`,
      });
      await onDepositCredited(tx, { siteId, memberId, orderNo, amountMinor, giftMinor: 0n });
    });
  }

  async function evpCard(memberId: bigint, key: string, deleted: boolean) {
    await db.execute(sql`
      INSERT INTO member_bank_cards (site_id, member_id, bank_name, account_type, payee_name, pix_key, deleted_at)
      VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, 'Banco Teste', 'EVP', 'Ana Souza', ${key},
              ${deleted ? new Date().toISOString() : null}::timestamptz)`);
  }

  const claim = (token: string, payload: Record<string, unknown> = {}) =>
    call(app, { method: 'POST', url: '/api/invitationactivity/claim?lang=en', token, payload });

  const invitationGrants = (memberId: bigint) =>
    rowsOf<{ period_key: string }>(
      db,
      sql`SELECT period_key FROM bonus_grants WHERE member_id = ${memberId.toString()}::bigint
            AND campaign_code = 'invitationactivity'`,
    );

  async function blocksOf(token: string, invitee: string) {
    const response = await call(app, { method: 'GET', url: '/api/admin/agency/referral-blocks', token });
    expect(response.status).toBe(200);
    return {
      rows: response.body.data.list.filter((b: { invitee: string }) => b.invitee === invitee),
      response,
    };
  }

  it("the issue's attack: B invited by A with A's name, phone, IP and payer CPF earns A nothing, and operators see why", async () => {
    const address = freshAddress();
    const cpf = randomCpf();
    const same = { realname: 'Ana Souza', phone: '11955554444' };
    const a = await register(address, same);
    await paidDeposit(a.memberId, 5_000n, cpf);
    const b = await register(address, { ...same, invite_code: a.user.invite_code });
    await paidDeposit(b.memberId, 10_000n, cpf);
    const cashBefore = (await getBalances(db, a.memberId)).cashMinor;

    const check = await call(app, {
      method: 'POST',
      url: '/api/invitationactivity/check?lang=en',
      token: a.token,
      payload: {},
    });
    expect(check.body.data).toMatchObject({ eligible: false, amount: '0.00' });
    expect(check.body.data.list[0]).toMatchObject({
      name: b.user.name,
      qualified: false,
      shared_identity: true,
    });
    for (const payload of [{ name: b.user.name }, {}]) {
      const refused = await claim(a.token, payload);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'PROMO_NOT_ELIGIBLE',
        message:
          'No invitation reward for this friend: their account shares identity or payment details with yours',
      });
    }
    expect(await invitationGrants(a.memberId)).toEqual([]);
    expect((await getBalances(db, a.memberId)).cashMinor).toBe(cashBefore);

    const operator = await loginOperator(app, 'owner', HOSTS.intl, 'qa_owner');
    const { rows, response } = await blocksOf(operator, b.user.name);
    expect(rows).toEqual([
      expect.objectContaining({ reward: 'invitation', inviter: a.user.name, signals: ['ip', 'payer_cpf'] }),
    ]);
    // Only the kinds of signal are shown: no CPF and no address in the answer.
    expect(JSON.stringify(response.body)).not.toContain(cpf);
    expect(JSON.stringify(response.body)).not.toContain(address);
  });

  it('each signal on its own stops the reward: account CPF against payer CPF, a PIX key, an IP address', async () => {
    const cases: [string, (a: bigint, b: bigint) => Promise<void>, string[]][] = [
      [
        'cpf',
        async (a, b) => {
          const cpf = randomCpf();
          await db.execute(sql`UPDATE members SET cpf = ${cpf} WHERE id = ${a.toString()}::bigint`);
          await paidDeposit(b, 10_000n, cpf);
        },
        ['cpf', 'payer_cpf'],
      ],
      [
        'pix_key',
        async (a, b) => {
          const key = randomUUID();
          await evpCard(a, key, true);
          await evpCard(b, key, false);
          await paidDeposit(b, 10_000n, randomCpf());
        },
        ['pix_key'],
      ],
    ];
    const operator = await loginOperator(app, 'owner', HOSTS.intl, 'qa_owner');
    for (const [, share, signals] of cases) {
      const a = await register(freshAddress());
      const b = await register(freshAddress(), { invite_code: a.user.invite_code });
      await share(a.memberId, b.memberId);
      expect((await claim(a.token, { name: b.user.name })).body.code).toBe('PROMO_NOT_ELIGIBLE');
      expect(await invitationGrants(a.memberId)).toEqual([]);
      expect((await blocksOf(operator, b.user.name)).rows[0].signals).toEqual(signals);
    }
    // The address: B logs in once from an address A used.
    const a = await register(freshAddress());
    const shared = freshAddress();
    const login = await call(app, {
      method: 'POST',
      url: '/api/auth/login2',
      payload: { username: a.user.name, password: 'secret123', ...(await solvedCaptcha(app)) },
      remoteAddress: shared,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const b = await register(shared, { invite_code: a.user.invite_code });
    await paidDeposit(b.memberId, 10_000n, randomCpf());
    expect((await claim(a.token, { name: b.user.name })).body.code).toBe('PROMO_NOT_ELIGIBLE');
    expect((await blocksOf(operator, b.user.name)).rows[0].signals).toEqual(['ip']);
  });

  it('a friend who shares nothing still pays the inviter 100.00, once', async () => {
    const a = await register(freshAddress(), { realname: 'Ana Souza' });
    await paidDeposit(a.memberId, 5_000n, randomCpf());
    // Same name and phone (typed by the player, not signals) and a proxy's loopback address.
    const friend = await register('127.0.0.1', { realname: 'Ana Souza', invite_code: a.user.invite_code });
    await paidDeposit(friend.memberId, 10_000n, randomCpf());
    const paid = await claim(a.token, { name: friend.user.name });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.data.grant).toMatchObject({ amount: '100.00' });
    expect((await claim(a.token, { name: friend.user.name })).body.code).toBe('PROMO_NOTHING_TO_CLAIM');
    expect(await invitationGrants(a.memberId)).toHaveLength(1);
  });

  it("no commission on a team member's play when they share the ancestor's address; the rest of the team still pays", async () => {
    const { site, host } = await newSite(app, 'intl');
    const address = freshAddress();
    const top = await register(address, {}, host);
    const twin = await register(address, { invite_code: top.user.invite_code }, host);
    const friend = await register(freshAddress(), { invite_code: top.user.invite_code }, host);
    for (const member of [twin, friend]) {
      await deposit(app, site.id, member.memberId, 100_000n);
      await play(app, site.id, member.memberId, 50_000n, 0n);
    }
    const period = localDay(new Date(), 'UTC');
    expect(await settlePeriod(db, site, period)).toMatchObject({ settled: true, members: 1 });
    const reward = await call(app, { method: 'POST', url: '/api/agency/reward', host, token: top.token });
    // Only the friend's 500.00 counts: 0.30 % turnover + 1 % of the 1000.00 deposited = 11.50.
    expect(reward.body.data).toMatchObject({ unclaimed: '11.50' });
    const [block] = await rowsOf<{ reward: string; signals: unknown }>(
      db,
      sql`SELECT reward, to_json(signals) AS signals FROM referral_blocks
          WHERE inviter_id = ${top.memberId.toString()}::bigint AND invitee_id = ${twin.memberId.toString()}::bigint`,
    );
    expect(block).toMatchObject({ reward: 'commission' });
    expect(typeof block!.signals === 'string' ? JSON.parse(block!.signals) : block!.signals).toEqual(['ip']);
  });

  it('addresses that name no client are not compared; IPv6 compares its /64', () => {
    for (const local of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.9',
      '172.20.1.1',
      '100.64.3.4',
      '::1',
      'fe80::1',
      'fd00::5',
    ]) {
      expect(ipKey(local)).toBeNull();
    }
    expect(ipKey('::ffff:203.0.113.9')).toBe(ipKey('203.0.113.9'));
    expect(ipKey('2804:14c:1:2::10')).toBe(ipKey('2804:14c:1:2:aaaa::1'));
    expect(ipKey('2804:14c:1:2::10')).not.toBe(ipKey('2804:14c:1:3::10'));
  });
});
