import { randomUUID } from 'node:crypto';
import { AGGREGATOR_SIGNATURE_HEADER } from '@sorte/contract';
import { signBody } from '@sorte/game-aggregator';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fundedPlayer, HOSTS, solvedCaptcha } from '../../../test/app.ts';
import { crashClockStart } from '../../../test/crash.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import type { CrashEngine } from '../crash/crash.engine.ts';
import { addCard, type MoneyHarness, randomCpf, startMoneyHarness } from '../deposits/money.fixtures.ts';
import { type AggregatorConnection, connectAggregator } from '../providers/aggregator.connection.ts';
import { openProviderSession } from '../providers/providers.service.ts';
import { getBalances } from '../wallet/balances.ts';

const kinds = await databaseKinds();
const AGGREGATOR = 'sorte-demo';
const SLOT = 'aurora-golden-macaw';

describe.each(kinds)('responsible gaming limits and exclusions on %s', (kind) => {
  let h: MoneyHarness;
  let aggregator: AggregatorConnection;
  let engine: CrashEngine;
  let now = 0;
  beforeAll(async () => {
    h = await startMoneyHarness(kind);
    aggregator = await connectAggregator(
      { id: AGGREGATOR },
      { walletUrl: `${h.baseUrl}/api/providers/${AGGREGATOR}/wallet`, sandboxPort: 0 },
    );
    h.app.aggregator.attach(aggregator);
    engine = h.app.crash;
    // After every round earlier test files played on this process's database (they run their own clocks).
    now = await crashClockStart(h.db);
    await engine.start({ clock: () => now, autoRun: false });
  }, 60_000);
  afterAll(async () => {
    await h.app.aggregator.close();
    await h?.close();
  });

  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    call(h.app, { method: 'POST', url, token, payload });
  const setLimit = (token: string, kind: string, period: string, value: string | null, lang = 'en') =>
    post(`/api/responsible-gaming/limits?lang=${lang}`, token, { kind, period, value });
  const channelId = async () =>
    (await call(h.app, { method: 'GET', url: '/api/payment/online/list?payment_type=pix' })).body.data.list[0]
      .id;
  const deposit = async (token: string, money: string, lang = 'en') =>
    post(`/api/recharge/online?lang=${lang}`, token, {
      money,
      payment_id: await channelId(),
      payment_type: 'pix',
    });
  const dice = (token: string, amount = '1.00') =>
    post('/api/originals/dice/bet', token, { amount, direction: 'under', target: 5000 });
  /** Lets a pending loosening reach its time, as 24 hours passing would. */
  const passLoosenDelay = (memberId: bigint) =>
    h.db.execute(sql`UPDATE rg_limits SET pending_effective_at = now() - interval '1 second'
                     WHERE member_id = ${memberId.toString()}::bigint AND pending_effective_at IS NOT NULL`);

  it('refuses a deposit past the deposit limit with the limit, what is left and the reset, in the player language', async () => {
    const p = await fundedPlayer(h.app, 0n);
    expect((await setLimit(p.token, 'deposit', 'day', '100')).body).toMatchObject({ status: 'success' });
    expect((await deposit(p.token, '60.00')).status).toBe(200);
    const refused = await deposit(p.token, '50.00', 'pt');
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('RG_DEPOSIT_LIMIT');
    expect(refused.body.message).toMatch(/limite diário de depósito de R\$\s100,00/);
    expect(refused.body.message).toMatch(/restam R\$\s40,00/);
    expect((await deposit(p.token, '40.00')).status).toBe(200);
  });

  it('tightens at once, and a looser limit waits its delay', async () => {
    const p = await fundedPlayer(h.app, 0n);
    await setLimit(p.token, 'deposit', 'week', '200');
    const raised = await setLimit(p.token, 'deposit', 'week', '500');
    expect(raised.body.message).toMatch(/takes effect on/);
    expect(raised.body.data.limits[0]).toMatchObject({ value: '200.00', pending_value: '500.00' });
    expect((await deposit(p.token, '300.00')).body.code).toBe('RG_DEPOSIT_LIMIT');
    await passLoosenDelay(p.memberId);
    expect((await deposit(p.token, '300.00')).status).toBe(200);
    // Lowering is immediate.
    await setLimit(p.token, 'deposit', 'week', '100');
    expect((await deposit(p.token, '10.00')).body.code).toBe('RG_DEPOSIT_LIMIT');
    // Removing waits too.
    const removed = await setLimit(p.token, 'deposit', 'week', null);
    expect(removed.body.data.limits[0]).toMatchObject({ value: '100.00', pending_remove: true });
  });

  it('refuses an in-house bet past the stake limit and one that could pass the loss limit, moving nothing', async () => {
    const p = await fundedPlayer(h.app, 10_000n);
    await setLimit(p.token, 'stake', 'day', '2');
    expect((await dice(p.token)).status).toBe(200);
    expect((await dice(p.token)).status).toBe(200);
    const before = (await getBalances(h.db, p.memberId)).cashMinor;
    const refused = await dice(p.token);
    expect(refused.body.code).toBe('RG_STAKE_LIMIT');
    expect(refused.body.message).toContain('daily betting limit of R$2.00 (R$0.00 left)');
    expect((await getBalances(h.db, p.memberId)).cashMinor).toBe(before);

    const q = await fundedPlayer(h.app, 10_000n);
    await setLimit(q.token, 'loss', 'month', '1.50');
    expect((await dice(q.token)).status).toBe(200);
    const loss = await dice(q.token, '5.00');
    expect(loss.body.code).toBe('RG_LOSS_LIMIT');
  });

  it('refuses a crash bet past a limit', async () => {
    const p = await fundedPlayer(h.app, 10_000n);
    await setLimit(p.token, 'stake', 'day', '0.50');
    const site = (await h.app.services.sites.byCode('sorte'))!;
    // A round taking bets: earlier files may have left this database's last round past its betting.
    for (let i = 0; i < 12 && (await engine.state(null)).betting_ms_left <= 1; i++) {
      now += 300_000;
      await engine.step();
    }
    now += 1;
    await expect(
      engine.placeBet(
        { kind: 'member', siteId: site.id, memberId: p.memberId },
        { amount: '1.00', idempotencyKey: `rg-${randomUUID()}` },
      ),
    ).rejects.toMatchObject({ code: 'RG_STAKE_LIMIT' });
    expect((await getBalances(h.db, p.memberId)).cashMinor).toBe(10_000n);
  });

  /** A seamless-wallet session of a new member on the demo slot, and its bet call (own round each). */
  async function providerPlayer(fundMinor: bigint) {
    const p = await fundedPlayer(h.app, fundMinor);
    const site = (await h.app.services.sites.byCode('sorte'))!;
    const [game] = await rowsOf<{ id: string }>(h.db, sql`SELECT id FROM games WHERE code = ${SLOT}`);
    const session = await openProviderSession(h.db, {
      aggregator: AGGREGATOR,
      siteId: site.id,
      memberId: p.memberId,
      gameId: BigInt(game!.id),
    });
    const bet = async (amount: string, extra: Record<string, unknown> = {}) => {
      const raw = JSON.stringify({
        request_uuid: randomUUID(),
        token: session.token,
        game_code: SLOT,
        transaction_uuid: randomUUID(),
        round: randomUUID(),
        amount,
        currency: 'BRL',
        ...extra,
      });
      const response = await h.app.inject({
        method: 'POST',
        url: `/api/providers/${AGGREGATOR}/wallet/bet`,
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          [AGGREGATOR_SIGNATURE_HEADER]: signBody(aggregator.secret, raw),
        },
        payload: raw,
      });
      return { http: response.statusCode, ...(response.json() as { status: string; balance?: string }) };
    };
    return { ...p, bet };
  }

  it('refuses a third-party wallet bet past a limit as a limit reached, with the balance, debiting nothing', async () => {
    const p = await providerPlayer(10_000n);
    await setLimit(p.token, 'stake', 'day', '1');
    expect((await p.bet('1.00')).status).toBe('RS_OK');
    expect(await p.bet('0.50')).toMatchObject({ status: 'RS_ERROR_LIMIT_REACHED', balance: '99.00' });
    expect((await getBalances(h.db, p.memberId)).cashMinor).toBe(9_900n);
  });

  it('holds a daily loss limit of 10.00 against 50 parallel third-party bets of 1.00: exactly 10 accepted', async () => {
    const p = await providerPlayer(10_000n);
    await setLimit(p.token, 'loss', 'day', '10');
    // Rounds closed with no win: every accepted stake is lost.
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => p.bet('1.00', { round_closed: true })),
    );
    expect(answers.filter((answer) => answer.http !== 200)).toEqual([]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 'RS_OK')).toHaveLength(10);
    expect(statuses.filter((status) => status === 'RS_ERROR_LIMIT_REACHED')).toHaveLength(40);
    expect((await getBalances(h.db, p.memberId)).cashMinor).toBe(9_000n);
  });

  it('ends a session past its session-time limit and refuses the next login until the reset', async () => {
    const p = await fundedPlayer(h.app, 0n);
    await setLimit(p.token, 'session_time', 'day', '1');
    // The session has been open for two minutes.
    await h.db.execute(sql`UPDATE member_sessions SET created_at = now() - interval '2 minutes', play_until = now() - interval '1 minute'
                           WHERE member_id = ${p.memberId.toString()}::bigint`);
    const ended = await call(h.app, { method: 'POST', url: '/api/auth/me', token: p.token });
    expect(ended.status).toBe(403);
    expect(ended.body.code).toBe('RG_TIME_LIMIT');
    expect(ended.body.message).toContain('daily session time limit of 1 minutes');
    expect((await call(h.app, { method: 'POST', url: '/api/auth/me', token: p.token })).status).toBe(401);
    const login = await call(h.app, {
      method: 'POST',
      url: '/api/auth/login2',
      payload: { username: p.user.name, password: 'secret123', ...(await solvedCaptcha(h.app)) },
    });
    expect(login.body.code).toBe('RG_TIME_LIMIT');
  });

  it('self-exclusion ends every session, refuses login to play and bets, and leaves the balance withdrawable', async () => {
    const p = await fundedPlayer(h.app, 50_000n);
    const qkPwd = '654321';
    const cardId = await addCard(h.db, p.memberId, { cpf: randomCpf() });
    const excluded = await post('/api/responsible-gaming/self-exclusion', p.token, {
      months: 6,
      password: 'secret123',
    });
    expect(excluded.body).toMatchObject({ status: 'success' });
    expect((await call(h.app, { method: 'POST', url: '/api/auth/me', token: p.token })).status).toBe(401);

    const login = await call(h.app, {
      method: 'POST',
      url: '/api/auth/login2?lang=pt',
      payload: { username: p.user.name, password: 'secret123', ...(await solvedCaptcha(h.app)) },
    });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe('SELF_EXCLUDED');
    expect(login.body.message).toContain('Você ainda pode sacar seu saldo');
    const withdrawalToken = (login.body as unknown as { withdrawal_session: { token: string } })
      .withdrawal_session.token;

    expect((await dice(withdrawalToken)).body.code).toBe('SELF_EXCLUDED');
    expect((await deposit(withdrawalToken, '10.00')).body.code).toBe('SELF_EXCLUDED');
    const withdrawal = await post('/api/drawing', withdrawalToken, {
      money: '100.00',
      member_bank_id: cardId.toString(),
      qk_pwd: qkPwd,
    });
    expect(withdrawal.body).toMatchObject({ status: 'success' });
  });

  it('a pause (cooling-off) blocks play the same way', async () => {
    const p = await fundedPlayer(h.app, 1_000n, HOSTS.intl);
    await post('/api/responsible-gaming/cooling-off', p.token, { days: 1, password: 'secret123' });
    const login = await call(h.app, {
      method: 'POST',
      url: '/api/auth/login2',
      payload: { username: p.user.name, password: 'secret123', ...(await solvedCaptcha(h.app)) },
    });
    expect(login.body.code).toBe('COOLING_OFF');
  });
});
