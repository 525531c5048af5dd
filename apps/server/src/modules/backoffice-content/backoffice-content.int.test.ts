import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  brRegistration,
  buildTestApp,
  call,
  HOSTS,
  loginOperator,
  registerPlayer,
} from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { siteDomains, sites } from '../sites/sites.schema.ts';

const kinds = await databaseKinds();

/**
 * Every edit runs on a site of its own made for this run (host <code>.localhost), so the suites
 * that read the demo sites at the same time never see these changes.
 */
async function newSite(app: FastifyInstance, jurisdiction: 'intl' | 'br') {
  const code = `bo${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const host = `${code}.localhost`;
  const [site] = await app.services.db
    .insert(sites)
    .values({
      code,
      name: `Site ${code}`,
      jurisdiction,
      defaultLang: jurisdiction === 'br' ? 'pt' : 'en',
      languages: ['en', 'pt', 'cn'],
      logo: '/media/sites/sorte/logo.svg',
      favicon: '/media/sites/sorte/favicon.svg',
      theme: { '--color-accent': '#19c37d' },
      minAge: 18,
      categories: ['slots', 'crash'],
      sessionIdleMinutes: jurisdiction === 'br' ? 30 : 1440,
      status: 1,
    })
    .returning();
  await app.services.db.insert(siteDomains).values({ host, siteId: site!.id });
  return { id: site!.id, code, host };
}

async function auditEntries(app: FastifyInstance, siteId: bigint, action: string) {
  return rowsOf<{
    action: string;
    entity: string | null;
    entity_id: string | null;
    before: unknown;
    after: unknown;
  }>(
    app.services.db,
    sql`SELECT action, entity, entity_id, before, after FROM operator_actions
        WHERE site_id = ${siteId.toString()}::bigint AND action = ${action} ORDER BY id`,
  );
}

const json = (value: unknown) =>
  (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

describe.each(kinds)('back office content on %s', (kind) => {
  let app: FastifyInstance;
  let intl: Awaited<ReturnType<typeof newSite>>;
  let br: Awaited<ReturnType<typeof newSite>>;
  let owner: string;
  let content: string;
  let brOwner: string;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    intl = await newSite(app, 'intl');
    br = await newSite(app, 'br');
    owner = await loginOperator(app, 'owner', intl.host, 'qa_owner');
    content = await loginOperator(app, 'content', intl.host);
    brOwner = await loginOperator(app, 'owner', br.host, 'qa_owner');
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('lets only the owner edit the site; a content operator and a player token are refused', async () => {
    const asContent = await call(app, {
      method: 'GET',
      url: '/api/admin/site',
      host: intl.host,
      token: content,
    });
    expect(asContent.status).toBe(403);
    expect(asContent.body.code).toBe('FORBIDDEN');
    const support = await loginOperator(app, 'support', intl.host);
    const games = await call(app, {
      method: 'PATCH',
      url: '/api/admin/games/1',
      host: intl.host,
      token: support,
      payload: { enabled: false },
    });
    expect(games.status).toBe(403);
    const player = await registerPlayer(app, intl.host);
    const asPlayer = await call(app, {
      method: 'GET',
      url: '/api/admin/site',
      host: intl.host,
      token: player.token,
    });
    expect(asPlayer.status).toBe(401);
    const none = await call(app, { method: 'GET', url: '/api/admin/promotions', host: intl.host });
    expect(none.status).toBe(401);
    // An operator token of one site opens nothing on another.
    const otherSite = await call(app, { method: 'GET', url: '/api/admin/site', host: br.host, token: owner });
    expect(otherSite.status).toBe(401);
  });

  it('renames the site, adds a host name and social links: players see it at once; audited', async () => {
    const current = (
      await call(app, { method: 'GET', url: '/api/admin/site', host: intl.host, token: owner })
    ).body.data;
    // Read once so the site is cached the way a busy server holds it.
    await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: intl.host });
    const extraHost = `www.${intl.host}`;
    const saved = await call(app, {
      method: 'PUT',
      url: '/api/admin/site',
      host: intl.host,
      token: owner,
      payload: {
        ...current,
        code: undefined,
        name: 'Sorte Renamed',
        hosts: [intl.host, extraHost],
        theme: { '--color-accent': '#ff8800' },
        social_links: [{ name: 'telegram', url: 'https://t.me/sorte_renamed' }],
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ name: 'Sorte Renamed', hosts: [intl.host, extraHost].sort() });

    const seen = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: intl.host });
    expect(seen.body.data).toMatchObject({ name: 'Sorte Renamed', theme: { '--color-accent': '#ff8800' } });
    const viaNewHost = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: extraHost });
    expect(viaNewHost.status).toBe(200);
    expect(viaNewHost.body.data.site).toBe(intl.code);
    const links = await call(app, { method: 'GET', url: '/api/socialmedialinks/get', host: intl.host });
    expect(links.body.data).toEqual([
      { name: 'telegram', url: 'https://t.me/sorte_renamed', icon: '/media/social/telegram.svg' },
    ]);

    const [entry] = await auditEntries(app, intl.id, 'site.update');
    expect(entry).toBeDefined();
    expect(json(entry!.before).name).toBe(current.name);
    expect(json(entry!.after).name).toBe('Sorte Renamed');
  });

  it('another server process sharing the database drops its cached site when the edit commits', async () => {
    const other = await buildTestApp(kind);
    try {
      const before = await call(other, { method: 'GET', url: '/api/dynamicwebs/getdata', host: intl.host });
      expect(before.status).toBe(200);
      const current = (
        await call(app, { method: 'GET', url: '/api/admin/site', host: intl.host, token: owner })
      ).body.data;
      const saved = await call(app, {
        method: 'PUT',
        url: '/api/admin/site',
        host: intl.host,
        token: owner,
        payload: { ...current, code: undefined, name: 'Sorte Everywhere' },
      });
      expect(saved.status).toBe(200);
      // The other process hears sorte_site_changed (pg_notify on commit) and reads the site again.
      await expect
        .poll(
          async () =>
            (await call(other, { method: 'GET', url: '/api/dynamicwebs/getdata', host: intl.host })).body.data
              .name,
          { timeout: 10_000 },
        )
        .toBe('Sorte Everywhere');
    } finally {
      await other.close();
    }
  });

  it('refuses invalid site edits with translated messages and changes nothing', async () => {
    const current = (
      await call(app, { method: 'GET', url: '/api/admin/site', host: intl.host, token: owner })
    ).body.data;
    const base = { ...current, code: undefined };
    const badLang = await call(app, {
      method: 'PUT',
      url: '/api/admin/site?lang=pt',
      host: intl.host,
      token: owner,
      payload: { ...base, name: 'Never', default_lang: 'th', languages: ['en', 'pt'] },
    });
    expect(badLang.status).toBe(422);
    expect(badLang.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(badLang.body)).toContain('O idioma padrão deve ser um dos idiomas do site');

    const taken = await call(app, {
      method: 'PUT',
      url: '/api/admin/site?lang=pt',
      host: intl.host,
      token: owner,
      payload: { ...base, name: 'Never', hosts: [intl.host, HOSTS.intl] },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('HOST_TAKEN');
    expect(taken.body.message).toBe('Este domínio já pertence a outro site');

    const dropsOwnHost = await call(app, {
      method: 'PUT',
      url: '/api/admin/site',
      host: intl.host,
      token: owner,
      payload: { ...base, name: 'Never', hosts: [`other.${intl.host}`] },
    });
    expect(dropsOwnHost.status).toBe(422);

    const script = await call(app, {
      method: 'PUT',
      url: '/api/admin/site',
      host: intl.host,
      token: owner,
      payload: { ...base, name: 'Never', theme: { '--color-bg': 'red;}</style><script>' } },
    });
    expect(script.status).toBe(422);

    const after = (await call(app, { method: 'GET', url: '/api/admin/site', host: intl.host, token: owner }))
      .body.data;
    expect(after).toEqual(current);
    const seen = await call(app, { method: 'GET', url: '/api/dynamicwebs/getdata', host: intl.host });
    expect(seen.body.data.name).not.toBe('Never');
  });

  it('sets payment channels and withdrawal rules that deposits and withdrawals then use', async () => {
    const channels = {
      channels: [
        {
          method: 'pix',
          method_name: 'PIX',
          code: 'pix_fast',
          name: 'PIX Fast',
          min: '15.00',
          max: '2000.00',
          fee_bps: 0,
          bonus_bps: 0,
          presets: ['20.00', '50.00'],
          expires_seconds: 900,
          enabled: true,
        },
      ],
    };
    const saved = await call(app, {
      method: 'PUT',
      url: '/api/admin/site/payment-channels',
      host: intl.host,
      token: owner,
      payload: channels,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.inherited).toBe(false);
    const list = await call(app, { method: 'GET', url: '/api/payment/online/list', host: intl.host });
    expect(list.body.data.list).toHaveLength(1);
    expect(list.body.data.list[0]).toMatchObject({ code: 'pix_fast' });

    const bad = await call(app, {
      method: 'PUT',
      url: '/api/admin/site/payment-channels',
      host: intl.host,
      token: owner,
      payload: { channels: [{ ...channels.channels[0], min: '50.00', max: '10.00' }] },
    });
    expect(bad.status).toBe(422);
    const unchanged = await call(app, { method: 'GET', url: '/api/payment/online/list', host: intl.host });
    expect(unchanged.body.data.list[0].code).toBe('pix_fast');

    const rules = await call(app, {
      method: 'PUT',
      url: '/api/admin/site/withdrawals',
      host: intl.host,
      token: owner,
      payload: {
        min: '30.00',
        max: '1000.00',
        daily_count_max: 2,
        fees: [{ channel: 'pix', fee_bps: 50, fee_min: '1.00' }],
      },
    });
    expect(rules.status, JSON.stringify(rules.body)).toBe(200);
    const player = await registerPlayer(app, intl.host);
    const info = await call(app, {
      method: 'GET',
      url: '/api/drawing/info',
      host: intl.host,
      token: player.token,
    });
    expect(JSON.stringify(info.body.data)).toContain('30.00');
    expect(await auditEntries(app, intl.id, 'site.payment_channels')).toHaveLength(1);
    expect(await auditEntries(app, intl.id, 'site.withdrawal_rules')).toHaveLength(1);
  });

  it('a disabled game leaves the lobby and cannot be launched on that site only; category and tags per site', async () => {
    const listed = await call(app, {
      method: 'GET',
      url: '/api/admin/games?search=dice&page_size=5',
      host: intl.host,
      token: content,
    });
    expect(listed.status).toBe(200);
    const dice = listed.body.data.list.find((g: { code: string }) => g.code === 'dice');
    expect(dice).toMatchObject({ enabled: true, is_inhouse: true });

    const off = await call(app, {
      method: 'PATCH',
      url: `/api/admin/games/${dice.id}`,
      host: intl.host,
      token: content,
      payload: { enabled: false },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const lobby = await call(app, { method: 'GET', url: '/api/games/listsv2?name=dice', host: intl.host });
    expect(lobby.body.data.list.map((g: { code: string }) => g.code)).not.toContain('dice');
    const launch = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      host: intl.host,
      payload: { name: 'dice' },
    });
    expect(launch.status).toBe(404);
    const elsewhere = await call(app, { method: 'GET', url: '/api/games/listsv2?name=dice', host: br.host });
    expect(elsewhere.body.data.list.map((g: { code: string }) => g.code)).toContain('dice');

    const moved = await call(app, {
      method: 'PATCH',
      url: `/api/admin/games/${dice.id}`,
      host: intl.host,
      token: content,
      payload: { enabled: true, category: 'card', tags: ['hot'], position: 0 },
    });
    expect(moved.status).toBe(200);
    const cards = await call(app, {
      method: 'GET',
      url: '/api/games/listsv2?category=card&tag=hot',
      host: intl.host,
    });
    expect(cards.body.data.list.find((g: { code: string }) => g.code === 'dice')).toMatchObject({
      category: 'card',
      tags: ['hot'],
    });
    const csv = await app.inject({
      method: 'GET',
      url: '/api/admin/games?format=csv&search=dice',
      headers: { host: intl.host, authorization: `Bearer ${content}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('id,code,name,provider,category,tags,position,enabled');
    expect(csv.body).toMatch(/,dice,.*,card,hot,0,true/);
    const badTag = await call(app, {
      method: 'PATCH',
      url: `/api/admin/games/${dice.id}`,
      host: intl.host,
      token: content,
      payload: { tags: ['free-money'] },
    });
    expect(badTag.status).toBe(422);
    const audit = await auditEntries(app, intl.id, 'game.update');
    expect(audit).toHaveLength(2);
    expect(json(audit[0]!.before).enabled).toBe(true);
    expect(json(audit[0]!.after).enabled).toBe(false);
  });

  it('pauses a campaign (players see it off) and enforces the br profile on campaigns, channels and commission', async () => {
    const list = await call(app, {
      method: 'GET',
      url: '/api/admin/promotions',
      host: intl.host,
      token: content,
    });
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((c: { code: string }) => c.code)).toContain('ftd');
    const paused = await call(app, {
      method: 'PATCH',
      url: '/api/admin/promotions/dailywheel',
      host: intl.host,
      token: content,
      payload: { enabled: false },
    });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    const player = await registerPlayer(app, intl.host);
    const check = await call(app, {
      method: 'POST',
      url: '/api/dailywheel/check',
      host: intl.host,
      token: player.token,
      payload: {},
    });
    expect(check.body.data).toMatchObject({ enabled: false, off_reason: 'This promotion is paused' });
    const [pause] = await auditEntries(app, intl.id, 'promotion.pause');
    expect(json(pause!.before).enabled).toBe(true);
    expect(json(pause!.after).enabled).toBe(false);

    // A rules edit reaches players' next check; a malformed one is refused and changes nothing.
    const rebate = list.body.data.list.find((c: { code: string }) => c.code === 'rechargerebate');
    const richer = await call(app, {
      method: 'PATCH',
      url: '/api/admin/promotions/rechargerebate',
      host: intl.host,
      token: content,
      payload: { rules: { ...rebate.rules, reward: { ...rebate.rules.reward, bps: 2500 } } },
    });
    expect(richer.status, JSON.stringify(richer.body)).toBe(200);
    const malformed = await call(app, {
      method: 'PATCH',
      url: '/api/admin/promotions/rechargerebate',
      host: intl.host,
      token: content,
      payload: { rules: { ...rebate.rules, reward: { ...rebate.rules.reward, bps: -5 } } },
    });
    expect(malformed.status).toBe(422);
    const rebateCheck = await call(app, {
      method: 'POST',
      url: '/api/rechargerebate/check',
      host: intl.host,
      token: player.token,
      payload: {},
    });
    expect(rebateCheck.body.data.rules.ratio).toBe('25.00');
    expect(await auditEntries(app, intl.id, 'promotion.update')).toHaveLength(1);

    // br: a deposit-tied campaign cannot be turned on, nor a deposit reward on a channel, nor deep commission.
    const ftd = await call(app, {
      method: 'PATCH',
      url: '/api/admin/promotions/ftd?lang=pt',
      host: br.host,
      token: brOwner,
      payload: { enabled: true },
    });
    expect(ftd.status).toBe(422);
    expect(ftd.body.code).toBe('JURISDICTION_FORBIDS');
    expect(ftd.body.message).toContain('Portaria SPA/MF 1.231/2024');
    const brList = await call(app, {
      method: 'GET',
      url: '/api/admin/promotions',
      host: br.host,
      token: brOwner,
    });
    expect(brList.body.data.list.find((c: { code: string }) => c.code === 'ftd')).toMatchObject({
      enabled: false,
    });
    // Changing the trigger of an allowed campaign to a deposit is refused too.
    const wheel = brList.body.data.list.find((c: { code: string }) => c.code === 'dailywheel');
    const retrigger = await call(app, {
      method: 'PATCH',
      url: '/api/admin/promotions/dailywheel',
      host: br.host,
      token: brOwner,
      payload: { rules: { ...wheel.rules, trigger: 'each_deposit' } },
    });
    expect(retrigger.status).toBe(422);

    const channel = await call(app, {
      method: 'PUT',
      url: '/api/admin/site/payment-channels',
      host: br.host,
      token: brOwner,
      payload: {
        channels: [
          {
            method: 'pix',
            method_name: 'PIX',
            code: 'pix_bonus',
            name: 'PIX +2%',
            min: '10.00',
            max: '1000.00',
            fee_bps: 0,
            bonus_bps: 200,
            presets: [],
            expires_seconds: 900,
            enabled: true,
          },
        ],
      },
    });
    expect(channel.status).toBe(422);
    expect(channel.body.code).toBe('JURISDICTION_FORBIDS');

    const rules = (
      await call(app, { method: 'GET', url: '/api/admin/agency/rules', host: br.host, token: brOwner })
    ).body.data.rules;
    const deeper = await call(app, {
      method: 'PUT',
      url: '/api/admin/agency/rules?lang=pt',
      host: br.host,
      token: brOwner,
      payload: {
        ...rules,
        maxLevels: 2,
        tiers: rules.tiers.map((t: { ratesBps: number[] }) => ({ ...t, ratesBps: [...t.ratesBps, 10] })),
      },
    });
    expect(deeper.status).toBe(422);
    expect(deeper.body.message).toBe('No máximo 1 nível(is) de comissão neste site');
    const onDeposits = await call(app, {
      method: 'PUT',
      url: '/api/admin/agency/rules',
      host: br.host,
      token: brOwner,
      payload: { ...rules, rechargeRatesBps: [100] },
    });
    expect(onDeposits.status).toBe(422);
    const fine = await call(app, {
      method: 'PUT',
      url: '/api/admin/agency/rules',
      host: br.host,
      token: brOwner,
      payload: { ...rules, tiers: [{ minTeamVolumeMinor: '0', ratesBps: [1200] }] },
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    const mechanism = await call(app, { method: 'GET', url: '/api/agency/mechanism/betting', host: br.host });
    expect(mechanism.body.data.tiers).toEqual([{ min_team_volume: '0.00', rates_bps: [1200] }]);
    expect(await auditEntries(app, br.id, 'agency.rules')).toHaveLength(1);

    // A site cannot move to br while a campaign br forbids is on.
    const site = (await call(app, { method: 'GET', url: '/api/admin/site', host: intl.host, token: owner }))
      .body.data;
    const toBr = await call(app, {
      method: 'PUT',
      url: '/api/admin/site',
      host: intl.host,
      token: owner,
      payload: { ...site, code: undefined, jurisdiction: 'br' },
    });
    expect(toBr.status).toBe(422);
    expect(toBr.body.code).toBe('JURISDICTION_FORBIDS');
    expect(toBr.body.message).toContain('ftd');
  });

  it('publishes an announcement players see, sends a message to one player, and refuses empty ones', async () => {
    const player = await registerPlayer(app, br.host, brRegistration());
    const created = await call(app, {
      method: 'POST',
      url: '/api/admin/announcements',
      host: br.host,
      token: brOwner,
      payload: {
        code: 'maintenance_night',
        title: { en: 'Maintenance tonight', pt: 'Manutenção hoje à noite' },
        body: { en: 'From 2 to 3 am.', pt: 'Das 2h às 3h.' },
        position: 0,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const seen = await call(app, {
      method: 'GET',
      url: '/api/informationcenter/announcement?lang=pt',
      host: br.host,
      token: player.token,
    });
    expect(seen.body.data.data.map((a: { title: string }) => a.title)).toContain('Manutenção hoje à noite');

    const empty = await call(app, {
      method: 'POST',
      url: '/api/admin/announcements',
      host: br.host,
      token: brOwner,
      payload: { code: 'empty_one', title: { en: '' }, body: { en: '' }, position: 0 },
    });
    expect(empty.status).toBe(422);
    const page = await call(app, {
      method: 'GET',
      url: '/api/admin/announcements',
      host: br.host,
      token: brOwner,
    });
    expect(page.body.data.list.map((a: { code: string }) => a.code)).not.toContain('empty_one');

    const removed = await call(app, {
      method: 'DELETE',
      url: `/api/admin/announcements/${created.body.data.id}`,
      host: br.host,
      token: brOwner,
    });
    expect(removed.status).toBe(200);
    const gone = await call(app, {
      method: 'GET',
      url: '/api/informationcenter/announcement',
      host: br.host,
    });
    expect(gone.body.data.data.map((a: { title: string }) => a.title)).not.toContain('Maintenance tonight');

    const terms = await call(app, { method: 'GET', url: '/api/admin/terms', host: br.host, token: brOwner });
    expect(terms.body.data.list).toMatchObject([{ version: 1, announced_by: null }]);
    const announced = await call(app, {
      method: 'POST',
      url: '/api/admin/terms',
      host: br.host,
      token: brOwner,
      payload: {
        effective_at: new Date(Date.now() + 20 * 86_400_000).toISOString(),
        summary: 'Novas regras de bônus',
      },
    });
    expect(announced.status, JSON.stringify(announced.body)).toBe(200);
    const versions = await call(app, {
      method: 'GET',
      url: '/api/admin/terms',
      host: br.host,
      token: brOwner,
    });
    expect(versions.body.data.list).toMatchObject([
      { version: 2, summary: 'Novas regras de bônus', announced_by: 'qa_owner', accepted: 0 },
      { version: 1 },
    ]);

    const sent = await call(app, {
      method: 'POST',
      url: '/api/admin/notifications?lang=pt',
      host: br.host,
      token: brOwner,
      payload: { username: player.input.username, title: 'Bônus', body: 'Sua conta foi verificada' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.sent).toBe(1);
    expect(sent.body.message).toBe('Mensagem enviada para 1 jogador(es)');
    const inbox = await call(app, {
      method: 'GET',
      url: '/api/informationcenter/notification',
      host: br.host,
      token: player.token,
    });
    expect(inbox.body.data.data[0]).toMatchObject({
      kind: 'operator_message',
      params: { title: 'Bônus', body: 'Sua conta foi verificada' },
    });
    const both = await call(app, {
      method: 'POST',
      url: '/api/admin/notifications',
      host: br.host,
      token: brOwner,
      payload: { username: player.input.username, all: true, title: 'x', body: 'y' },
    });
    expect(both.status).toBe(422);
    expect(await auditEntries(app, br.id, 'announcement.create')).toHaveLength(1);
    expect(await auditEntries(app, br.id, 'announcement.delete')).toHaveLength(1);
    expect(await auditEntries(app, br.id, 'notification.send')).toHaveLength(1);
  });

  it('lists chat messages for moderation and sets the community settings the room then uses', async () => {
    const player = await registerPlayer(app, intl.host);
    const posted = await call(app, {
      method: 'POST',
      url: '/api/chat/send',
      host: intl.host,
      token: player.token,
      payload: { text: 'hello room' },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const listed = await call(app, {
      method: 'GET',
      url: `/api/admin/chat/messages?username=${player.input.username}`,
      host: intl.host,
      token: content,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toMatchObject({ total: 1, list: [{ text: 'hello room', muted: false }] });

    // Moderation through the chat module's routes, each audited with before and after.
    const muted = await call(app, {
      method: 'POST',
      url: '/api/admin/chat/mute',
      host: intl.host,
      token: content,
      payload: { username: player.input.username, minutes: 60, reason: 'spam' },
    });
    expect(muted.status, JSON.stringify(muted.body)).toBe(200);
    const mutes = await call(app, {
      method: 'GET',
      url: '/api/admin/chat/mutes',
      host: intl.host,
      token: content,
    });
    expect(mutes.body.data.list).toMatchObject([{ username: player.input.username, reason: 'spam' }]);
    const deleted = await call(app, {
      method: 'POST',
      url: `/api/admin/chat/messages/${listed.body.data.list[0].id}/delete`,
      host: intl.host,
      token: content,
    });
    expect(deleted.status).toBe(200);
    const unmuted = await call(app, {
      method: 'POST',
      url: '/api/admin/chat/unmute',
      host: intl.host,
      token: content,
      payload: { username: player.input.username },
    });
    expect(unmuted.status).toBe(200);
    const deletedList = await call(app, {
      method: 'GET',
      url: `/api/admin/chat/messages?username=${player.input.username}&deleted=true`,
      host: intl.host,
      token: content,
    });
    expect(deletedList.body.data.list[0]).toMatchObject({ text: 'hello room', deleted_by: 'qa_content' });
    const [mute] = await auditEntries(app, intl.id, 'chat.mute');
    expect(json(mute!.before).muted).toBe(false);
    expect(json(mute!.after).muted).toBe(true);
    expect(await auditEntries(app, intl.id, 'chat.delete')).toHaveLength(1);
    expect(await auditEntries(app, intl.id, 'chat.unmute')).toHaveLength(1);

    const settings = (
      await call(app, { method: 'GET', url: '/api/admin/community', host: intl.host, token: content })
    ).body.data;
    const off = await call(app, {
      method: 'PUT',
      url: '/api/admin/community',
      host: intl.host,
      token: content,
      payload: {
        ...settings,
        rain_off_reason: undefined,
        chat_enabled: false,
        rain_enabled: false,
        rain_pot: '250.00',
        rain_min_wager: '25.00',
        rain_wager_days: 3,
      },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(settings).toMatchObject({ rain_min_wager: '10.00', rain_wager_days: 7 });
    const room = await call(app, { method: 'GET', url: '/api/chat/room', host: intl.host });
    expect(room.body.data.enabled).toBe(false);
    expect(room.body.data.rain).toMatchObject({
      enabled: false,
      pot: '250.00',
      min_wager: '25.00',
      wager_days: 3,
    });
    const bad = await call(app, {
      method: 'PUT',
      url: '/api/admin/community',
      host: intl.host,
      token: content,
      payload: { ...settings, rain_off_reason: undefined, chat_max_chars: 0 },
    });
    expect(bad.status).toBe(422);
    const [entry] = await auditEntries(app, intl.id, 'community.update');
    expect(json(entry!.before).chat_enabled).toBe(true);
    expect(json(entry!.after).chat_enabled).toBe(false);
  });
});
