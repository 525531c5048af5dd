import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  call,
  loginOperator,
  registerPlayer,
  registration,
  solvedCaptcha,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { randomCpf } from '../deposits/money.fixtures.ts';
import { localDay } from '../promotions/days.ts';
import { getBalances } from '../wallet/balances.ts';
import { deposit, newSite, play } from './agency.fixtures.ts';
import { AGENCY_DEFAULTS, AGENCY_LIMITS, AgencyRulesError, assertRulesAllowed } from './agency.profiles.ts';
import { getRules, settlePeriod } from './agency.service.ts';

const kinds = await databaseKinds();

describe.each(kinds)('agency on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  /** A chain top → middle → bottom on a site of its own, each invited through the previous one's link. */
  async function chain(jurisdiction: 'intl' | 'br') {
    const { site, host } = await newSite(app, jurisdiction);
    // What a br sign-up adds: the CPF, an adult's birth date and the mandatory limits.
    const extra =
      jurisdiction === 'br'
        ? {
            cpf: randomCpf(),
            birth_date: '1990-05-17',
            limits: [
              { kind: 'loss', period: 'month', value: '10000000' },
              { kind: 'session_time', period: 'day', value: '1440' },
            ],
          }
        : {};
    const top = await registerPlayer(app, host, { ...extra });
    const invite = await call(app, { method: 'GET', url: '/api/agency/invite', host, token: top.token });
    expect(invite.body.data.invite_link).toBe(`http://${host}/?invite=${top.user.invite_code}`);
    const code = new URL(invite.body.data.invite_link).searchParams.get('invite');
    const middle = await registerPlayer(app, host, { ...extra, cpf: randomCpf(), invite_code: code });
    const bottom = await registerPlayer(app, host, {
      ...extra,
      cpf: randomCpf(),
      invite_code: middle.user.invite_code,
    });
    const id = (p: { user: { id: number } }) => BigInt(p.user.id);
    return { site, host, top, middle, bottom, ids: { top: id(top), middle: id(middle), bottom: id(bottom) } };
  }

  it('a subordinate registered through the link appears in the record and pays its inviter after play, once', async () => {
    const c = await chain('intl');
    await deposit(app, c.site.id, c.ids.middle, 100_000n);
    await play(app, c.site.id, c.ids.middle, 50_000n, 20_000n);
    await deposit(app, c.site.id, c.ids.bottom, 20_000n);
    await play(app, c.site.id, c.ids.bottom, 10_000n, 0n);

    const record = await call(app, {
      method: 'POST',
      url: '/api/agency/inviterecord',
      host: c.host,
      token: c.top.token,
    });
    expect(record.status).toBe(200);
    expect(record.body.data.totals).toMatchObject({
      invitees: 2,
      direct_invitees: 1,
      indirect_invitees: 1,
      total_deposit: '1200.00',
      total_bet: '600.00',
      direct_reward: '0.00',
    });
    const team = await call(app, {
      method: 'GET',
      url: '/api/agency/team',
      host: c.host,
      token: c.top.token,
    });
    expect(team.body.data).toMatchObject({
      direct: 1,
      indirect: 1,
      total: 2,
      active_today: 2,
      new_this_week: 2,
    });

    const period = localDay(new Date(), 'UTC');
    const first = await settlePeriod(app.services.db, c.site, period);
    const second = await settlePeriod(app.services.db, c.site, period);
    expect(first).toMatchObject({ settled: true, members: 2 });
    expect(second).toMatchObject({ settled: false, members: 0 });

    // Turnover basis, first tier 0.30 % / 0.10 %; deposits 1 % on level 1.
    // top: level 1 = middle (500.00 staked, 1000.00 deposited) → 1.50 + 10.00; level 2 = bottom (100.00) → 0.10.
    const reward = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.top.token,
    });
    expect(reward.body.data).toMatchObject({ unclaimed: '11.60', claimed: '0.00' });
    expect(reward.body.data.data[0]).toMatchObject({
      period,
      direct: '11.50',
      indirect: '0.10',
      status: 'unclaimed',
    });

    const before = await getBalances(app.services.db, c.ids.top, { siteId: c.site.id });
    const claims = await Promise.all(
      [1, 2, 3].map(() =>
        call(app, { method: 'POST', url: '/api/agency/reward/claim', host: c.host, token: c.top.token }),
      ),
    );
    expect(claims.filter((r) => r.status === 200)).toHaveLength(1);
    expect(
      claims.filter((r) => r.status === 409).every((r) => r.body.code === 'AGENCY_NOTHING_TO_CLAIM'),
    ).toBe(true);
    const after = await getBalances(app.services.db, c.ids.top, { siteId: c.site.id });
    expect(after.cashMinor - before.cashMinor).toBe(1_160n);

    const again = await settlePeriod(app.services.db, c.site, period);
    expect(again.settled).toBe(false);
    const final = await getBalances(app.services.db, c.ids.top, { siteId: c.site.id });
    expect(final.cashMinor).toBe(after.cashMinor);
    const notes = await call(app, {
      method: 'GET',
      url: '/api/informationcenter/notification',
      host: c.host,
      token: c.top.token,
    });
    expect(
      notes.body.data.data.filter((n: { kind: string }) => n.kind === 'commission_settled'),
    ).toHaveLength(1);
  });

  it('a settlement stopped half way leaves nothing and the next run pays each member once', async () => {
    const c = await chain('intl');
    await deposit(app, c.site.id, c.ids.bottom, 100_000n);
    await play(app, c.site.id, c.ids.bottom, 100_000n, 0n);
    const period = localDay(new Date(), 'UTC');
    await expect(
      settlePeriod(app.services.db, c.site, period, {
        afterCommission: () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const none = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.middle.token,
    });
    expect(none.body.data.data).toHaveLength(0);
    const done = await settlePeriod(app.services.db, c.site, period);
    expect(done).toMatchObject({ settled: true, members: 2 });
    const middle = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.middle.token,
    });
    const top = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.top.token,
    });
    // middle: level 1, 1000.00 staked × 0.30 % + 1000.00 deposited × 1 %; top: level 2 × 0.10 %.
    expect(middle.body.data.data).toHaveLength(1);
    expect(middle.body.data.unclaimed).toBe('13.00');
    expect(top.body.data.unclaimed).toBe('1.00');
  });

  it('br pays one level only, on net gaming revenue, never on deposits', async () => {
    const c = await chain('br');
    await deposit(app, c.site.id, c.ids.bottom, 100_000n);
    await play(app, c.site.id, c.ids.bottom, 60_000n, 10_000n);
    const rules = await getRules(app.services.db, c.site);
    const period = localDay(new Date(), rules.timeZone);
    expect(await settlePeriod(app.services.db, c.site, period)).toMatchObject({ settled: true, members: 1 });
    const middle = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.middle.token,
    });
    const top = await call(app, {
      method: 'POST',
      url: '/api/agency/reward',
      host: c.host,
      token: c.top.token,
    });
    // NGR 600.00 − 100.00 = 500.00 at 10 %; the deposit earns nothing.
    expect(middle.body.data.unclaimed).toBe('50.00');
    expect(top.body.data.data).toHaveLength(0);
    const team = await call(app, {
      method: 'GET',
      url: '/api/agency/team',
      host: c.host,
      token: c.top.token,
    });
    expect(team.body.data).toMatchObject({ direct: 1, indirect: 0, max_levels: 1 });

    const recharge = await call(app, {
      method: 'GET',
      url: '/api/agency/mechanism/recharge?lang=pt',
      host: c.host,
    });
    expect(recharge.body.data).toMatchObject({ enabled: false, levels: [] });
    expect(recharge.body.data.off_reason).toMatch(/depósitos/);
    expect(() =>
      assertRulesAllowed({ ...AGENCY_DEFAULTS.br, rechargeRatesBps: [100] }, AGENCY_LIMITS.br),
    ).toThrow(AgencyRulesError);
    expect(() =>
      assertRulesAllowed({ ...AGENCY_DEFAULTS.intl, rechargeRatesBps: null }, AGENCY_LIMITS.br),
    ).toThrow(/level/);
  });

  it('shows the mechanism tables and registers a subordinate under the caller', async () => {
    const { host } = await newSite(app, 'intl');
    const betting = await call(app, { method: 'GET', url: '/api/agency/mechanism/betting', host });
    expect(betting.body.data).toMatchObject({ basis: 'turnover', max_levels: 3 });
    expect(betting.body.data.tiers[0]).toEqual({ min_team_volume: '0.00', rates_bps: [30, 10, 5] });
    const settlement = await call(app, { method: 'GET', url: '/api/agency/mechanism/settlement', host });
    expect(settlement.body.data).toMatchObject({ period: 'day', claim: 'manual', last_period: null });

    const agent = await registerPlayer(app, host);
    const body = { ...registration({ invite_code: 'IGNORED1' }), ...(await solvedCaptcha(app, host)) };
    const created = await call(app, {
      method: 'POST',
      url: '/api/agency/subordinate/register',
      host,
      token: agent.token,
      payload: body,
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({ username: body.username, level: 1 });
    const team = await call(app, { method: 'GET', url: '/api/agency/team', host, token: agent.token });
    expect(team.body.data.direct).toBe(1);
    const guest = await call(app, {
      method: 'POST',
      url: '/api/agency/subordinate/register',
      host,
      payload: body,
    });
    expect(guest.status).toBe(401);
  });
  it('an operator settles the previous period on demand, exactly once like the job', async () => {
    const anonymous = await call(app, { method: 'POST', url: '/api/admin/agency/settle' });
    expect(anonymous.status).toBe(401);
    const player = await registerPlayer(app);
    const asPlayer = await call(app, {
      method: 'POST',
      url: '/api/admin/agency/settle',
      token: player.token,
    });
    expect(asPlayer.status).toBe(401);

    const token = await loginOperator(app);
    const first = await call(app, { method: 'POST', url: '/api/admin/agency/settle', token });
    const second = await call(app, { method: 'POST', url: '/api/admin/agency/settle', token });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.data.period).toBe(first.body.data.period);
    expect(second.body.data).toMatchObject({ settled: false, members: 0, total: '0.00' });
  });
});
