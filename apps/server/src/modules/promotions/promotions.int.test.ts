import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { payWinnings, takeStake } from '../originals/originals.money.ts';
import { getBalances } from '../wallet/balances.ts';
import { closeGrant, grantBonus } from '../wallet/bonus/grants.ts';
import { hold } from '../wallet/holds.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { addDays, dayBounds, localDay } from './days.ts';
import { runJob } from './promotions.jobs.ts';
import { depositTiedEnabled, PROFILES } from './promotions.profiles.ts';
import { siteCampaigns } from './promotions.repo.ts';
import { onDepositCredited } from './promotions.service.ts';
import { takeBetStake } from './stake.ts';

/** A paid PIX deposit as the webhook credits it: the order row, the ledger credit, the deposit hook. */
async function paidDeposit(
  db: Db,
  siteId: bigint,
  memberId: bigint,
  amountMinor: bigint,
  paidAt = new Date(),
) {
  const orderNo = `R${randomUUID().replaceAll('-', '').slice(0, 20).toUpperCase()}`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO deposit_orders (site_id, member_id, order_no, amount_minor, status, payment_method, channel, txid,
                                  pix_copy_paste, created_at, expires_at, paid_at)
      VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, ${orderNo}, ${amountMinor.toString()}::bigint,
              'paid', 'pix', 'pix_express', ${`tx${orderNo}`}, '', ${paidAt.toISOString()}::timestamptz,
              ${new Date(paidAt.getTime() + 900_000).toISOString()}::timestamptz, ${paidAt.toISOString()}::timestamptz)`);
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
  return orderNo;
}

describe.each(await databaseKinds())('promotions (%s)', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let intl: TSite;
  let br: TSite;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    intl = (await app.services.sites.byHost(HOSTS.intl))!;
    br = (await app.services.sites.byHost(HOSTS.br))!;
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (
    url: string,
    token: string,
    payload: Record<string, unknown> = {},
    host: string = HOSTS.intl,
  ) => call(app, { method: 'POST', url, token, host, payload });

  async function player(host: string = HOSTS.intl, cashMinor = 0n) {
    const p = await fundedPlayer(app, cashMinor, host);
    return { ...p, host, siteId: host === HOSTS.br ? br.id : intl.id };
  }

  const grantsOf = (memberId: bigint, campaign: string) =>
    rowsOf<{ id: unknown; amount_minor: unknown; status: string; period_key: string }>(
      db,
      sql`SELECT id, amount_minor, status, period_key FROM bonus_grants
          WHERE member_id = ${memberId.toString()}::bigint AND campaign_code = ${campaign}`,
    );

  async function bet(p: { siteId: bigint; memberId: bigint }, amountMinor: bigint, gameCode = 'slot') {
    return db.transaction((tx) =>
      takeBetStake(tx, {
        siteId: p.siteId,
        memberId: p.memberId,
        amountMinor,
        idempotencyKey: `test-bet:${randomUUID()}`,
        gameCode,
      }),
    );
  }

  async function expectNoDrift() {
    const report = await reconcile(db);
    expect(
      report.drift,
      JSON.stringify(report.drift.slice(0, 5), (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    ).toEqual([]);
  }

  describe('rules are data per jurisdiction', () => {
    it('br turns off every deposit-tied campaign, the wheel and the relief fund, each with its reason', async () => {
      expect(depositTiedEnabled(PROFILES.br.campaigns)).toEqual([]);
      expect(depositTiedEnabled(PROFILES.intl.campaigns).sort()).toEqual(
        ['ftd', 'invitationactivity', 'lotterywheel', 'recharge_gift', 'rechargerebate'].sort(),
      );
      const campaigns = await siteCampaigns(db, br);
      expect(depositTiedEnabled(campaigns)).toEqual([]);
      const { body } = await call(app, {
        method: 'GET',
        url: '/api/activitydetails/get?lang=pt',
        host: HOSTS.br,
      });
      const byCode = Object.fromEntries(body.data.list.map((c: { code: string }) => [c.code, c]));
      expect(body.data.vip_basis).toBe('wagering');
      expect(byCode.ftd.enabled).toBe(false);
      expect(byCode.ftd.off_reason).toContain('Portaria SPA/MF 1.231/2024');
      expect(byCode.lotterywheel.off_reason).toContain('Lei 5.768/71');
      expect(byCode.dailyrescue.off_reason).toContain('recuperar valores perdidos');
      expect(byCode.dailywheel.enabled).toBe(true);
      expect(byCode.rebates.enabled).toBe(true);
    });

    it('the home banners advertise only campaigns on for the site, each leading to its page', async () => {
      const banners = async (host: string) =>
        (await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host })).body.data.banners as {
          link: string | null;
          image: string;
        }[];
      const onIntl = await banners(HOSTS.intl);
      expect(onIntl.find((b) => b.image.endsWith('/welcome.svg'))?.link).toBe('/promotion/activity/recharge');
      // The same first-deposit banner put on br (where ftd is off) is not listed there.
      await db.execute(sql`
        INSERT INTO site_banners (site_id, position, image, title, link, campaign_code)
        VALUES (${br.id.toString()}::bigint, 90, '/media/sites/br/banners/welcome.svg',
                '{"en":"Welcome bonus"}'::jsonb, '/promotion/activity/recharge', 'ftd')
        ON CONFLICT DO NOTHING`);
      const onBr = await banners(HOSTS.br);
      expect(onBr.length).toBeGreaterThan(0);
      expect(onBr.some((b) => b.link?.startsWith('/promotion/activity/recharge'))).toBe(false);
    });

    it('a payment channel shows the gift the site really gives: 2 % on intl, none on br, no gift in its name', async () => {
      const channels = async (host: string) =>
        (await call(app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix', host })).body.data
          .list as { code: string; name: string; bonus_rate: string }[];
      const intlGift = (await channels(HOSTS.intl)).find((c) => c.code === 'pix_bonus');
      expect(intlGift).toMatchObject({ bonus_rate: '2.00' });
      const brList = await channels(HOSTS.br);
      expect(brList.length).toBeGreaterThan(0);
      for (const channel of [...brList, intlGift!]) expect(channel.name).not.toMatch(/%/);
      for (const channel of brList) expect(channel.bonus_rate).toBe('0.00');
    });

    it('br gating: every deposit-tied claim is refused with why, nothing granted, even after a deposit', async () => {
      const p = await player(HOSTS.br);
      await paidDeposit(db, p.siteId, p.memberId, 20_000n);
      for (const name of ['ftd', 'rechargerebate', 'lotterywheel', 'invitationactivity', 'dailyrescue']) {
        const check = await post(`/api/${name}/check?lang=pt`, p.token, {}, HOSTS.br);
        expect(check.status).toBe(200);
        expect(check.body.data.enabled).toBe(false);
        expect(check.body.data.off_reason).toMatch(/Não oferecido neste site/);
        const claim = await post(`/api/${name}/claim?lang=pt`, p.token, {}, HOSTS.br);
        expect(claim.status).toBe(409);
        expect(claim.body).toMatchObject({ status: 'fail', code: 'PROMO_UNAVAILABLE' });
        expect(claim.body.message).toMatch(/Não oferecido neste site/);
      }
      const balances = await getBalances(db, p.memberId);
      expect(balances.bonusMinor).toBe(0n);
      expect(
        (await rowsOf(db, sql`SELECT 1 FROM bonus_grants WHERE member_id = ${p.memberId.toString()}::bigint`))
          .length,
      ).toBe(0);
    });
  });

  describe('first-deposit bonus (ftd)', () => {
    it('not eligible before a deposit, eligible after 100 (gives 10), then already claimed', async () => {
      const p = await player();
      const before = await post('/api/ftd/claim?lang=en', p.token);
      expect(before.status).toBe(422);
      expect(before.body).toMatchObject({
        code: 'PROMO_NOT_ELIGIBLE',
        message: "You're not eligible for this reward",
      });

      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      const check = await post('/api/ftd/check', p.token);
      expect(check.body.data).toMatchObject({ eligible: true, amount: '10.00', claimed: false });
      const claim = await post('/api/ftd/claim?lang=en', p.token);
      expect(claim.status).toBe(200);
      expect(claim.body.message).toBe('Reward claimed successfully!');
      expect(claim.body.data.grant).toMatchObject({
        campaign: 'ftd',
        amount: '10.00',
        balance: '10.00',
        wagering_required: '500.00',
        max_bet: '25.00',
        status: 'active',
      });
      const again = await post('/api/ftd/claim?lang=en', p.token);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({
        code: 'PROMO_NOTHING_TO_CLAIM',
        message: 'Not eligible to receive',
      });
      const balances = await getBalances(db, p.memberId);
      expect(balances).toMatchObject({
        cashMinor: 10_000n,
        bonusMinor: 1_000n,
        wageringRequiredMinor: 50_000n,
      });
      await expectNoDrift();
    });

    it('a first deposit under 100 is not eligible', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 9_999n);
      const claim = await post('/api/ftd/claim', p.token);
      expect(claim.body.code).toBe('PROMO_NOT_ELIGIBLE');
    });

    it('200 concurrent claims give exactly one grant', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      const answers = await Promise.all(Array.from({ length: 200 }, () => post('/api/ftd/claim', p.token)));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.every((a) => a.status === 200 || a.body.code === 'PROMO_NOTHING_TO_CLAIM')).toBe(true);
      expect(await grantsOf(p.memberId, 'ftd')).toHaveLength(1);
      expect((await getBalances(db, p.memberId)).bonusMinor).toBe(1_000n);
      await expectNoDrift();
    });
  });

  describe('wagering, max bet, expiry', () => {
    it('wagering blocks a withdrawal until met; real money is spent first; the bar moves; then it converts', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await post('/api/ftd/claim', p.token);
      const refused = await hold(db, {
        siteId: p.siteId,
        memberId: p.memberId,
        amountMinor: 5_000n,
        idempotencyKey: `hold:${randomUUID()}`,
      }).catch((error) => error);
      expect(refused.code).toBe('WAGERING_NOT_MET');
      expect(refused.details.wageringRequiredMinor).toBe('50000');

      // A bet of 20 takes cash only (real money first) and feeds the grant's wagering.
      await bet(p, 2_000n);
      let balances = await getBalances(db, p.memberId);
      expect(balances).toMatchObject({
        cashMinor: 8_000n,
        bonusMinor: 1_000n,
        wageringRequiredMinor: 48_000n,
      });
      const history = await post('/api/cover/history', p.token);
      expect(history.body.data.active).toMatchObject({ wagering_done: '20.00', wagering_left: '480.00' });

      // Winnings come back to cash; more bets until 500 wagered: the grant converts to cash.
      await transfer(db, {
        siteId: p.siteId,
        kind: 'win',
        from: { system: 'house' },
        to: { memberId: p.memberId, account: 'cash' },
        amountMinor: 50_000n,
        idempotencyKey: `test-win:${randomUUID()}`,
      });
      for (let i = 0; i < 24; i += 1) await bet(p, 2_000n);
      balances = await getBalances(db, p.memberId);
      expect(balances.wageringRequiredMinor).toBe(0n);
      expect(balances.bonusMinor).toBe(0n);
      expect(balances.cashMinor).toBe(8_000n + 50_000n - 48_000n + 1_000n);
      const [grant] = await grantsOf(p.memberId, 'ftd');
      expect(grant!.status).toBe('completed');
      const ok = await hold(db, {
        siteId: p.siteId,
        memberId: p.memberId,
        amountMinor: 5_000n,
        idempotencyKey: `hold:${randomUUID()}`,
      });
      expect(ok.amountMinor).toBe(5_000n);
      await expectNoDrift();
    });

    it('bonus is spent only after cash, and a bet above the max bet is refused inside the bet (HTTP too)', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await post('/api/ftd/claim', p.token);
      const over = await bet(p, 2_501n).catch((error) => error);
      expect(over.code).toBe('BONUS_MAX_BET');
      const http = await post('/api/originals/dice/bet?lang=pt', p.token, {
        amount: '30.00',
        direction: 'under',
        target: 5000,
        idempotency_key: randomUUID(),
      });
      expect(http.status).toBe(422);
      expect(http.body.code).toBe('BONUS_MAX_BET');
      expect(http.body.message).toBe('Enquanto um bônus está em rollover, a aposta máxima é R$\u00a025,00');
      expect((await getBalances(db, p.memberId)).cashMinor).toBe(10_000n);
      // Spend all cash in 25.00 bets, then the bonus pays the next stake.
      for (let i = 0; i < 4; i += 1) await bet(p, 2_500n);
      const stake = await bet(p, 600n);
      const balances = await getBalances(db, p.memberId);
      expect(balances).toMatchObject({ cashMinor: 0n, bonusMinor: 400n });
      expect(stake.debitBalanceAfterMinor).toBe(400n);
      await expectNoDrift();
    });

    it('expiry takes the rest back by a ledger transfer, once, and frees the withdrawal', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await post('/api/ftd/claim', p.token);
      const later = new Date(Date.now() + 8 * 86_400_000);
      const first = await runJob(db, 'expiry', intl, { now: later });
      expect(['started', 'done', 'running', 'resumed']).toContain(first.outcome);
      // Another run of the same period (this hour) does nothing; a new hour finds nothing due.
      const second = await runJob(db, 'expiry', intl, { now: later });
      expect(second.outcome).toBe('done');
      const [grant] = await grantsOf(p.memberId, 'ftd');
      expect(grant!.status).toBe('expired');
      const balances = await getBalances(db, p.memberId);
      expect(balances).toMatchObject({ bonusMinor: 0n, wageringRequiredMinor: 0n, cashMinor: 10_000n });
      const forfeits = await rowsOf(
        db,
        sql`SELECT 1 FROM wallet_transfers WHERE idempotency_key = ${`grant:${grant!.id}:expired`}`,
      );
      expect(forfeits).toHaveLength(1);
      await expectNoDrift();
    });
  });

  describe('responsible gaming', () => {
    it('a pause (cooling-off) or a self-exclusion forfeits every active bonus at once', async () => {
      for (const [url, payload] of [
        ['/api/responsible-gaming/cooling-off', { days: 1, password: 'secret123' }],
        ['/api/responsible-gaming/self-exclusion', { months: 6, password: 'secret123' }],
      ] as const) {
        const p = await player();
        await paidDeposit(db, p.siteId, p.memberId, 10_000n);
        await post('/api/ftd/claim', p.token);
        await bet(p, 2_000n);
        expect(await getBalances(db, p.memberId)).toMatchObject({
          bonusMinor: 1_000n,
          wageringRequiredMinor: 48_000n,
        });
        const started = await post(url, p.token, payload);
        expect(started.status, JSON.stringify(started.body)).toBe(200);
        const [grant] = await grantsOf(p.memberId, 'ftd');
        expect(grant!.status).toBe('forfeited');
        // The bonus went back by the ledger; the cash stays the player's and the wagering lock is gone.
        expect(await getBalances(db, p.memberId)).toMatchObject({
          cashMinor: 8_000n,
          bonusMinor: 0n,
          wageringRequiredMinor: 0n,
        });
        await expectNoDrift();
      }
    });
  });

  describe('wins follow the stake: the bonus-funded part stays bonus', () => {
    let nextRound = BigInt(Date.now()) * 1000n;
    /** A round of an in-house game as its route plays it: the stake, then the win (originals.money). */
    async function round(p: { siteId: bigint; memberId: bigint }, stakeMinor: bigint, payoutMinor: bigint) {
      nextRound += 1n;
      const id = nextRound;
      const member = { kind: 'member' as const, siteId: p.siteId, memberId: p.memberId };
      await db.transaction((tx) => takeStake(tx, member, { id, gameCode: 'dice', stakeMinor }));
      const won = await db.transaction((tx) =>
        payWinnings(tx, member, { id, gameCode: 'dice', payoutMinor }),
      );
      return { id, won, member };
    }

    it('a win paid half by bonus puts half back into the grant; expiry takes it back with the rest', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await post('/api/ftd/claim', p.token);
      for (const stake of [2_500n, 2_500n, 2_500n, 2_000n]) await bet(p, stake);
      expect(await getBalances(db, p.memberId)).toMatchObject({ cashMinor: 500n, bonusMinor: 1_000n });
      // 10.00 staked: 5.00 cash, 5.00 bonus. It wins 20.00: 10.00 to cash, 10.00 back to the grant.
      const { won } = await round(p, 1_000n, 2_000n);
      expect(await getBalances(db, p.memberId)).toMatchObject({ cashMinor: 1_000n, bonusMinor: 1_500n });
      expect(won?.balanceMinor).toBe(2_500n);
      const [active] = await rowsOf<{ balance_minor: unknown }>(
        db,
        sql`SELECT balance_minor FROM bonus_grants WHERE member_id = ${p.memberId.toString()}::bigint`,
      );
      expect(String(active!.balance_minor)).toBe('1500');
      await expectNoDrift();

      // (an hour no other test's expiry run has taken: the job runs once per site and hour)
      await runJob(db, 'expiry', intl, { now: new Date(Date.now() + 9 * 86_400_000) });
      const [grant] = await rowsOf<{ status: string; forfeited_minor: unknown }>(
        db,
        sql`SELECT status, forfeited_minor FROM bonus_grants WHERE member_id = ${p.memberId.toString()}::bigint`,
      );
      expect(grant).toMatchObject({ status: 'expired' });
      expect(String(grant!.forfeited_minor)).toBe('1500');
      // Only the real-money share of the win is the player's: 10.00, not 20.00.
      expect(await getBalances(db, p.memberId)).toMatchObject({
        cashMinor: 1_000n,
        bonusMinor: 0n,
        wageringRequiredMinor: 0n,
      });
      await expectNoDrift();
    });

    it('a win arriving after its grant was forfeited is taken back at once; a repeated win pays once', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await post('/api/ftd/claim', p.token);
      for (const stake of [2_500n, 2_500n, 2_500n, 2_500n]) await bet(p, stake);
      // 6.00 staked, all bonus; the grant is forfeited before the win lands.
      nextRound += 1n;
      const id = nextRound;
      const member = { kind: 'member' as const, siteId: p.siteId, memberId: p.memberId };
      await db.transaction((tx) => takeStake(tx, member, { id, gameCode: 'dice', stakeMinor: 600n }));
      const [open] = await grantsOf(p.memberId, 'ftd');
      await closeGrant(db, { siteId: p.siteId, grantId: BigInt(String(open!.id)), reason: 'forfeited' });
      const win = () =>
        db.transaction((tx) => payWinnings(tx, member, { id, gameCode: 'dice', payoutMinor: 1_200n }));
      await win();
      await win();
      expect(await getBalances(db, p.memberId)).toMatchObject({ cashMinor: 0n, bonusMinor: 0n });
      const [grant] = await rowsOf<{ forfeited_minor: unknown }>(
        db,
        sql`SELECT forfeited_minor FROM bonus_grants WHERE id = ${String(open!.id)}::bigint`,
      );
      expect(String(grant!.forfeited_minor)).toBe(String(400n + 1_200n));
      await expectNoDrift();
    });
  });

  describe('a win landing after its grant converted', () => {
    it("is cash up to what the grant's max win still allows; the rest is forfeited; a replay pays once", async () => {
      const p = await player();
      const { grant } = await grantBonus(db, {
        siteId: p.siteId,
        memberId: p.memberId,
        campaignCode: 'test-max-win',
        periodKey: randomUUID(),
        amountMinor: 1_000n,
        wageringRequiredMinor: 1_000n,
        maxBetMinor: null,
        locksCash: false,
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
        terms: { maxWinMinor: '1500' },
      });
      const member = { kind: 'member' as const, siteId: p.siteId, memberId: p.memberId };
      const stake = (id: bigint, stakeMinor: bigint) =>
        db.transaction((tx) => takeStake(tx, member, { id, gameCode: 'dice', stakeMinor }));
      const win = (id: bigint, payoutMinor: bigint) =>
        db.transaction((tx) => payWinnings(tx, member, { id, gameCode: 'dice', payoutMinor }));
      const base = BigInt(Date.now()) * 1000n + 500_000n;
      // A: 6.00 of bonus staked; its win lands only after the grant has converted.
      await stake(base + 1n, 600n);
      // B: 3.00 staked, 9.00 won back into the grant (wagering 9.00 of 10.00).
      await stake(base + 2n, 300n);
      await win(base + 2n, 900n);
      // C: 1.00 staked: wagering met, the grant's 9.00 converts to cash (under its max win of 15.00).
      await stake(base + 3n, 100n);
      const [converted] = await rowsOf<{ status: string; converted_minor: unknown }>(
        db,
        sql`SELECT status, converted_minor FROM bonus_grants WHERE id = ${grant.id.toString()}::bigint`,
      );
      expect(converted).toMatchObject({ status: 'completed' });
      expect(String(converted!.converted_minor)).toBe('900');
      expect(await getBalances(db, p.memberId)).toMatchObject({ cashMinor: 900n, bonusMinor: 0n });

      // A wins 30.00, all from the grant's bonus: 6.00 more is cash (15.00 in all), 24.00 forfeited.
      const paid = await win(base + 1n, 3_000n);
      expect(paid?.balanceMinor).toBe(1_500n);
      await win(base + 1n, 3_000n);
      expect(await getBalances(db, p.memberId)).toMatchObject({ cashMinor: 1_500n, bonusMinor: 0n });
      const [after] = await rowsOf<{
        balance_minor: unknown;
        converted_minor: unknown;
        forfeited_minor: unknown;
      }>(
        db,
        sql`SELECT balance_minor, converted_minor, forfeited_minor FROM bonus_grants
            WHERE id = ${grant.id.toString()}::bigint`,
      );
      expect([after!.balance_minor, after!.converted_minor, after!.forfeited_minor].map(String)).toEqual([
        '0',
        '1500',
        '2400',
      ]);
      const forfeits = await rowsOf<{ amount_minor: unknown; reason: string }>(
        db,
        sql`SELECT amount_minor, metadata->>'reason' AS reason FROM wallet_transfers
            WHERE kind = 'bonus_forfeit' AND metadata->>'grantId' = ${grant.id.toString()}`,
      );
      expect(forfeits.map((f) => [String(f.amount_minor), f.reason])).toEqual([['2400', 'max_win']]);
      await expectNoDrift();
    });
  });

  describe('other campaigns', () => {
    it('recharge rebate: 20 % of each top-up of 100 or more, each claimed once; none left → No eligible top-ups', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 5_000n);
      expect((await post('/api/rechargerebate/claim', p.token)).body.code).toBe('PROMO_NO_ELIGIBLE_TOPUPS');
      await paidDeposit(db, p.siteId, p.memberId, 10_000n);
      await paidDeposit(db, p.siteId, p.memberId, 30_000n);
      const check = await post('/api/rechargerebate/check', p.token);
      expect(check.body.data.list).toHaveLength(2);
      expect(check.body.data.list[0]).toMatchObject({
        required_amount: '100.00',
        reward_amount: '60.00',
        is_claimed: false,
      });
      expect(Object.keys(check.body.data.list[0]).sort()).toEqual(
        [
          'claimed_at',
          'event_ended_at',
          'id',
          'is_claimed',
          'order_no',
          'recharge_amount',
          'required_amount',
          'reward_amount',
        ].sort(),
      );
      expect((await post('/api/rechargerebate/claim', p.token)).status).toBe(200);
      expect((await post('/api/rechargerebate/claim', p.token)).status).toBe(200);
      const none = await post('/api/rechargerebate/claim?lang=en', p.token);
      expect(none.body).toMatchObject({ code: 'PROMO_NO_ELIGIBLE_TOPUPS', message: 'No eligible top-ups' });
      expect(
        (await grantsOf(p.memberId, 'rechargerebate')).map((g) => BigInt(String(g.amount_minor))).sort(),
      ).toEqual([2_000n, 6_000n]);
      await expectNoDrift();
    });

    it('lottery wheel: spins from today’s deposits, each spin one prize, then No more roll remaining', async () => {
      const p = await player();
      expect((await post('/api/lotterywheel/claim?lang=en', p.token)).body.message).toBe(
        'No more roll remaining',
      );
      await paidDeposit(db, p.siteId, p.memberId, 20_000n);
      const check = await post('/api/lotterywheel/check', p.token);
      expect(check.body.data.extra).toMatchObject({ quantity: 2, remainingspins: 2 });
      expect(check.body.data.list.length).toBeGreaterThan(3);
      const spin = await post('/api/lotterywheel/claim', p.token);
      expect(spin.body.data.prize).toMatchObject({
        status: 'success',
        code: 200,
        remainingspins: 1,
        quantity: 2,
      });
      expect(Object.keys(spin.body.data.prize)).toEqual(
        expect.arrayContaining(['status', 'code', 'remainingspins', 'reward', 'quantity', 'message']),
      );
      const spins = await Promise.all(
        Array.from({ length: 20 }, () => post('/api/lotterywheel/claim', p.token)),
      );
      expect(spins.filter((s) => s.status === 200)).toHaveLength(1);
      expect(await grantsOf(p.memberId, 'lotterywheel')).toHaveLength(2);
      await expectNoDrift();
    });

    it('invitation: unknown name → 409 USER DOES NOT EXIST; invitee without deposit not eligible; then 100 once', async () => {
      const inviter = await player();
      const code = (await call(app, { method: 'POST', url: '/api/auth/me', token: inviter.token })).body.data
        .invite_code;
      const invitee = await registerPlayer(app, HOSTS.intl, { invite_code: code });
      const name = invitee.input.username as string;
      const unknown = await post('/api/invitationactivity/claim?lang=en', inviter.token, {
        name: 'nobody_here',
      });
      expect(unknown.status).toBe(409);
      expect(unknown.body).toMatchObject({ code: 'USER_DOES_NOT_EXIST', message: 'USER DOES NOT EXIST' });
      expect((await post('/api/invitationactivity/claim', inviter.token, { name })).body.code).toBe(
        'PROMO_NOT_ELIGIBLE',
      );
      await paidDeposit(db, intl.id, BigInt(invitee.user.id), 10_000n);
      const claim = await post('/api/invitationactivity/claim', inviter.token, { name });
      expect(claim.status).toBe(200);
      expect(claim.body.data.grant.amount).toBe('100.00');
      expect((await post('/api/invitationactivity/claim', inviter.token, { name })).body.code).toBe(
        'PROMO_NOTHING_TO_CLAIM',
      );
      await expectNoDrift();
    });

    it('daily loss relief fund: yesterday’s loss of 100+ gives its tier once; no loss → not eligible', async () => {
      const p = await player(HOSTS.intl, 50_000n);
      expect((await post('/api/dailyrescue/claim', p.token)).body.code).toBe('PROMO_NOT_ELIGIBLE');
      const yesterday = addDays(localDay(new Date(), 'UTC'), -1);
      await lossOn(p, yesterday, 20_000n);
      const check = await post('/api/dailyrescue/check', p.token);
      expect(check.body.data).toMatchObject({ eligible: true, amount: '6.00' });
      expect((await post('/api/dailyrescue/claim', p.token)).status).toBe(200);
      expect((await post('/api/dailyrescue/claim', p.token)).body.code).toBe('PROMO_NOTHING_TO_CLAIM');
    });
  });

  /** A loss booked at noon of `day` (UTC): a bet transfer dated then. */
  async function lossOn(p: { siteId: bigint; memberId: bigint }, day: string, amountMinor: bigint) {
    const at = new Date(dayBounds(day, 'UTC').start.getTime() + 12 * 3_600_000);
    await transfer(db, {
      siteId: p.siteId,
      kind: 'bet',
      from: { memberId: p.memberId, account: 'cash' },
      to: { system: 'house' },
      amountMinor,
      idempotencyKey: `test-loss:${randomUUID()}`,
    });
    // Test-only: date the bet back (the append-only trigger is skipped for this one statement), and
    // the member's play hours with it, which the ledger's trigger keeps and reconcile checks.
    const member = p.memberId.toString();
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`);
      await tx.execute(sql`
        UPDATE wallet_transfers SET created_at = ${at.toISOString()}::timestamptz
        WHERE id = (SELECT max(t.id) FROM wallet_transfers t JOIN wallet_accounts a ON a.id = t.debit_account_id
                    WHERE a.member_id = ${member}::bigint)`);
      await tx.execute(sql`DELETE FROM member_play_hours WHERE member_id = ${member}::bigint`);
      await tx.execute(sql`
        INSERT INTO member_play_hours (member_id, hour, staked_minor, returned_minor, reversed_minor)
        SELECT member_id, hour, sum(staked_minor), sum(returned_minor), sum(reversed_minor)
        FROM wallet_play_moves WHERE member_id = ${member}::bigint GROUP BY member_id, hour`);
    });
  }

  /** A day no earlier run of this suite used (the PostgreSQL test database persists between runs). */
  function freshDay(): string {
    return addDays('2040-01-01', Math.floor(Math.random() * 20_000));
  }

  describe('jobs: exactly once per period per site', () => {
    it('daily cashback (8 %) run twice for one period pays once; on br too; dailywheel claim then finds it paid', async () => {
      const day = freshDay();
      const now = new Date(dayBounds(addDays(day, 1), 'UTC').start.getTime() + 10 * 3_600_000);
      const a = await player(HOSTS.intl, 100_000n);
      const b = await player(HOSTS.br, 100_000n);
      await lossOn(a, day, 10_000n);
      await lossOn(b, day, 10_000n);
      const first = await runJob(db, 'cashback', intl, { now });
      const second = await runJob(db, 'cashback', intl, { now });
      expect(first.outcome).toBe('started');
      expect(second.outcome).toBe('done');
      expect(await grantsOf(a.memberId, 'dailywheel')).toEqual([
        expect.objectContaining({ period_key: day, amount_minor: expect.anything() }),
      ]);
      expect(BigInt(String((await grantsOf(a.memberId, 'dailywheel'))[0]!.amount_minor))).toBe(800n);
      // br: its own period (São Paulo day); 10 000 at noon UTC is 09:00 there, same day.
      const brRun = await runJob(db, 'cashback', br, { now: new Date(now.getTime() + 2 * 3_600_000) });
      expect(brRun.outcome).toBe('started');
      expect(await grantsOf(b.memberId, 'dailywheel')).toHaveLength(1);
      await expectNoDrift();
    });

    it('killed mid-way and re-run: every member paid once', async () => {
      const day = freshDay();
      const now = new Date(dayBounds(addDays(day, 1), 'UTC').start.getTime() + 3 * 3_600_000);
      const players = [];
      for (let i = 0; i < 4; i += 1) {
        const p = await player(HOSTS.intl, 100_000n);
        await lossOn(p, day, 10_000n + BigInt(i) * 1_000n);
        players.push(p);
      }
      let paidBeforeCrash = 0;
      const crashed = await runJob(db, 'cashback', intl, {
        now,
        afterEach: () => {
          paidBeforeCrash += 1;
          if (paidBeforeCrash === 2) throw new Error('process killed');
        },
      }).catch((error: Error) => error.message);
      expect(crashed).toBe('process killed');
      // Another process sees the run still 'running' and fresh: it skips.
      expect((await runJob(db, 'cashback', intl, { now })).outcome).toBe('running');
      // Once stale, exactly one attempt takes it over and finishes it.
      const resumed = await runJob(db, 'cashback', intl, { now, staleAfterMs: 0 });
      expect(resumed.outcome).toBe('resumed');
      expect((await runJob(db, 'cashback', intl, { now, staleAfterMs: 0 })).outcome).toBe('done');
      for (const p of players) expect(await grantsOf(p.memberId, 'dailywheel')).toHaveLength(1);
      await expectNoDrift();
    });

    it('rebates: per category of the day’s cash bets, paid once; list and details show them', async () => {
      const p = await player(HOSTS.intl, 100_000n);
      await bet(p, 10_000n, 'slot');
      await bet(p, 10_000n, 'dice');
      const list = await post('/api/games/rebates/list', p.token);
      const slots = list.body.data.list.find((r: { category: string }) => r.category === 'slots');
      expect(slots).toMatchObject({ today_bet: '100.00', rate: '0.80', today_rebate: '0.80' });
      // Move the day's turnover to a day no other run settled, and settle that day.
      const day = freshDay();
      await db.execute(
        sql`UPDATE member_turnover SET day = ${day}::date WHERE member_id = ${p.memberId.toString()}::bigint`,
      );
      const tomorrow = new Date(dayBounds(addDays(day, 1), 'UTC').start.getTime() + 3_600_000);
      await runJob(db, 'rebates', intl, { now: tomorrow });
      await runJob(db, 'rebates', intl, { now: tomorrow });
      const grants = await grantsOf(p.memberId, 'rebates');
      expect(grants).toHaveLength(1);
      expect(BigInt(String(grants[0]!.amount_minor))).toBe(80n + 30n);
      const details = await post('/api/games/rebates/details', p.token);
      expect(details.body.data.list[0].categories).toEqual(
        expect.arrayContaining([{ category: 'slots', bet: '100.00', rebate: '0.80' }]),
      );
    });
  });

  describe('VIP', () => {
    it('intl counts reloads: Bronze at 1,000 with the level fields of user info filled', async () => {
      const p = await player();
      await paidDeposit(db, p.siteId, p.memberId, 100_000n);
      const info = await post('/api/member/vip/info', p.token);
      expect(info.body.data.uservip).toMatchObject({
        userviplvl: 1,
        level_name: 'Bronze',
        totalrecharge: '1000.00',
        basis: 'recharge',
      });
      expect(info.body.data.data).toHaveLength(5);
      expect(info.body.data.data[4]).toMatchObject({
        name: 'Diamond',
        min: '60001.00',
        max: '100000.00',
        gift_min: '20.00',
      });
      const me = await call(app, { method: 'POST', url: '/api/auth/me', token: p.token });
      expect(me.body.data).toMatchObject({ level: 1, level_name: 'Bronze' });
    });

    it("a reward kept for a VIP level answers 'Upgrade required' below it, grants nothing, and pays at the level", async () => {
      // The wheel's rules on this site keep it for Gold (level 3) while the test runs.
      await siteCampaigns(db, intl);
      const gate = (level: number | null) =>
        db.execute(sql`UPDATE promo_campaigns
          SET rules = CASE WHEN ${level}::int IS NULL THEN rules - 'minVipLevel'
                           ELSE jsonb_set(rules, '{minVipLevel}', to_jsonb(${level}::int)) END
          WHERE site_id = ${intl.id.toString()}::bigint AND code = 'lotterywheel'`);
      await gate(3);
      try {
        const p = await player();
        // A deposit of 1,000 gives spins and makes the member Bronze (level 1), below Gold.
        await paidDeposit(db, p.siteId, p.memberId, 100_000n);
        const check = await post('/api/lotterywheel/check?lang=pt', p.token);
        expect(check.body.data).toMatchObject({ eligible: false, reason: 'É necessário subir de nível' });
        const claim = await post('/api/lotterywheel/claim?lang=en', p.token);
        expect(claim.status).toBe(403);
        expect(claim.body).toMatchObject({
          status: 'fail',
          code: 'PROMO_UPGRADE_REQUIRED',
          message: 'Upgrade required',
        });
        expect(await grantsOf(p.memberId, 'lotterywheel')).toHaveLength(0);
        // At Gold (15,001 reloaded) the same reward is claimed.
        await paidDeposit(db, p.siteId, p.memberId, 1_500_100n);
        expect((await post('/api/lotterywheel/claim', p.token)).status).toBe(200);
        expect(await grantsOf(p.memberId, 'lotterywheel')).toHaveLength(1);
        await expectNoDrift();
      } finally {
        await gate(null);
      }
    });

    it('br counts wagering, not deposits; a bet crossing two thresholds records both level-ups once', async () => {
      const p = await player(HOSTS.br, 2_000_000n);
      await paidDeposit(db, p.siteId, p.memberId, 200_000n);
      expect((await post('/api/member/vip/info', p.token, {}, HOSTS.br)).body.data.uservip.userviplvl).toBe(
        0,
      );
      for (let i = 0; i < 4; i += 1) await bet(p, 150_000n);
      const info = await post('/api/member/vip/info', p.token, {}, HOSTS.br);
      expect(info.body.data.uservip).toMatchObject({
        userviplvl: 2,
        basis: 'wagering',
        totalbetting: '6000.00',
      });
      expect(info.body.data.data[0].gift_min).toBeNull();
      const ups = await rowsOf<{ track: string; level: number }>(
        db,
        sql`SELECT track, level FROM vip_level_ups WHERE member_id = ${p.memberId.toString()}::bigint ORDER BY track, level`,
      );
      expect(ups.filter((u) => u.track === 'vip').map((u) => Number(u.level))).toEqual([1, 2]);
    });
  });
});
