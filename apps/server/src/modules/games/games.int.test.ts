import { GAME_CATEGORIES } from '@sorte/contract';
import { GAME_RULES } from '@sorte/fairness';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, HOSTS, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { MAX_FAVORITES } from './games.service.ts';

const kinds = await databaseKinds();

describe.each(kinds)('games catalogue on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists providers with their game counts, optionally for one category', async () => {
    const all = await call(app, { method: 'GET', url: '/api/games/apisv2' });
    expect(all.status).toBe(200);
    const codes = all.body.data.list.map((p: { code: string }) => p.code);
    expect(codes[0]).toBe('sorte');
    expect(codes.length).toBeGreaterThanOrEqual(6);
    const sorte = all.body.data.list[0];
    expect(sorte).toMatchObject({ name: 'Sorte Originals', is_inhouse: true, game_count: 10 });
    const live = await call(app, { method: 'GET', url: '/api/games/apisv2?category=live_casino' });
    expect(live.body.data.list.map((p: { code: string }) => p.code)).toEqual(['lumenlive']);
  });

  it('has games in every category of the spec', async () => {
    for (const category of GAME_CATEGORIES) {
      const { body } = await call(app, { method: 'GET', url: `/api/games/listsv2?category=${category}` });
      expect(body.data.total, category).toBeGreaterThanOrEqual(3);
      for (const game of body.data.list) expect(game.category).toBe(category);
    }
  });

  it('filters by provider (provider or platType), tag and name, and pages', async () => {
    const byProvider = await call(app, {
      method: 'GET',
      url: '/api/games/listsv2?platType=sorte&page_size=100',
    });
    expect(byProvider.body.data.total).toBe(10);
    expect(byProvider.body.data.list.every((g: { is_inhouse: boolean }) => g.is_inhouse)).toBe(true);
    const same = await call(app, { method: 'GET', url: '/api/games/listsv2?provider=sorte&page_size=100' });
    expect(same.body.data.list).toEqual(byProvider.body.data.list);

    const search = await call(app, { method: 'GET', url: '/api/games/listsv2?name=ROULETTE' });
    const names = search.body.data.list.map((g: { name: string }) => g.name);
    expect(names).toContain('European Roulette');
    expect(names.every((n: string) => n.toLowerCase().includes('roulette'))).toBe(true);
    const literal = await call(app, { method: 'GET', url: '/api/games/listsv2?name=%25' });
    expect(literal.body.data.total).toBe(0);

    const hot = await call(app, { method: 'GET', url: '/api/games/listsv2?tag=hot&page_size=100' });
    expect(hot.body.data.list.every((g: { tags: string[] }) => g.tags.includes('hot'))).toBe(true);

    const page1 = await call(app, { method: 'GET', url: '/api/games/listsv2?page=1&page_size=7' });
    const page2 = await call(app, { method: 'GET', url: '/api/games/listsv2?page=2&page_size=7' });
    expect(page1.body.data.list).toHaveLength(7);
    expect(page1.body.data.last_page).toBe(Math.ceil(page1.body.data.total / 7));
    const ids1 = page1.body.data.list.map((g: { id: string }) => g.id);
    const ids2 = page2.body.data.list.map((g: { id: string }) => g.id);
    expect(ids1.filter((id: string) => ids2.includes(id))).toEqual([]);
  });

  it('refuses bad list parameters with a translated validation error', async () => {
    for (const query of ['category=casino', 'page=0', 'page_size=101', 'page=abc', 'tag=cold']) {
      const { status, body } = await call(app, { method: 'GET', url: `/api/games/listsv2?${query}` });
      expect(status, query).toBe(422);
      expect(body.code).toBe('VALIDATION_FAILED');
    }
  });

  it('shows the in-house games with the RTP and limits of @sorte/fairness', async () => {
    const { body } = await call(app, {
      method: 'GET',
      url: '/api/games/listsv2?platType=sorte&page_size=100',
    });
    for (const game of body.data.list) {
      const rules = GAME_RULES[game.code as keyof typeof GAME_RULES];
      expect(rules, game.code).toBeDefined();
      expect(game.rtp).toBe((Math.round(rules.rtpMin * 10_000) / 100).toFixed(2));
      expect(game.rtp_max).toBe((Math.round(rules.rtpMax * 10_000) / 100).toFixed(2));
      expect(game.min_bet).toBe((Number(rules.limits.minBetMinor) / 100).toFixed(2));
      expect(game.max_bet).toBe((Number(rules.limits.maxBetMinor) / 100).toFixed(2));
      expect(game.max_win).toBe((Number(rules.limits.maxWinMinor) / 100).toFixed(2));
      expect(Number(game.rtp)).toBeGreaterThanOrEqual(96);
      expect(Number(game.rtp_max)).toBeLessThanOrEqual(99);
      expect(game.has_demo).toBe(true); // every in-house game, crash included, has a fun-money mode
    }
  });

  it('serves promotion (new and hot) and popular sections, optionally per category', async () => {
    const promo = await call(app, { method: 'GET', url: '/api/games/promotion?name=slots' });
    expect(promo.body.data.list.length).toBeGreaterThan(0);
    for (const g of promo.body.data.list) {
      expect(g.category).toBe('slots');
      expect(g.tags.some((t: string) => t === 'new' || t === 'hot')).toBe(true);
    }
    const popular = await call(app, { method: 'GET', url: '/api/games/popular?name=all&limit=5' });
    expect(popular.body.data.list).toHaveLength(5);
    expect(popular.body.data.list[0].tags).toContain('popular');
  });

  it('honours per-site enablement and order', async () => {
    const db = app.services.db;
    const [site] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM sites WHERE code = 'sorte-br'`);
    const [keno] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM games WHERE code = 'keno'`);
    const [bingo] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM games WHERE code = 'bingo'`);
    await db.execute(sql`INSERT INTO site_games (site_id, game_id, enabled) VALUES (${site!.id}, ${keno!.id}, false)
      ON CONFLICT (site_id, game_id) DO UPDATE SET enabled = false`);
    await db.execute(sql`INSERT INTO site_games (site_id, game_id, enabled, position) VALUES (${site!.id}, ${bingo!.id}, true, -1)
      ON CONFLICT (site_id, game_id) DO UPDATE SET position = -1`);
    const br = await call(app, { method: 'GET', url: '/api/games/listsv2?platType=sorte', host: HOSTS.br });
    const codes = br.body.data.list.map((g: { code: string }) => g.code);
    expect(codes).not.toContain('keno');
    expect(codes[0]).toBe('bingo');
    const intl = await call(app, { method: 'GET', url: '/api/games/listsv2?platType=sorte' });
    expect(intl.body.data.list.map((g: { code: string }) => g.code)).toContain('keno');
  });

  it('draws thumbnails and provider logos as SVG', async () => {
    const { body } = await call(app, { method: 'GET', url: '/api/games/listsv2?page_size=1' });
    const thumb = await app.inject({ url: body.data.list[0].thumbnail, headers: { host: HOSTS.intl } });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toContain('image/svg+xml');
    expect(thumb.body).toContain('<svg');
    const logo = await app.inject({
      url: '/media/games/providers/aurora.svg',
      headers: { host: HOSTS.intl },
    });
    expect(logo.body).toContain('Aurora Gaming');
    const missing = await app.inject({ url: '/media/games/no-such-game.svg', headers: { host: HOSTS.intl } });
    expect(missing.statusCode).toBe(404);
    // Each game also has a wide banner with its name.
    const banner = await app.inject({ url: '/media/games/crash-banner.svg', headers: { host: HOSTS.intl } });
    expect(banner.statusCode).toBe(200);
    expect(banner.body).toContain('width="640"');
    expect(banner.body).toContain('>Crash<');
  });
});

describe.each(kinds)('favourites and launch on %s', (kind) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(kind);
  });
  afterAll(async () => {
    await app.close();
  });

  it('sets, lists and deletes favourites by id or name', async () => {
    const player = await registerPlayer(app);
    const games = (await call(app, { method: 'GET', url: '/api/games/listsv2?category=slots&page_size=3' }))
      .body.data.list;
    const set1 = await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      token: player.token,
      payload: { member_id: player.user.id, game_id: games[0].id },
    });
    expect(set1.status).toBe(200);
    expect(set1.body).toMatchObject({ code: 200, data: { game_id: games[0].id, is_favorite: true } });
    await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      token: player.token,
      payload: { name: games[1].name, platType: games[1].provider },
    });
    // Setting twice keeps one favourite.
    await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      token: player.token,
      payload: { game_id: games[0].id },
    });
    const list = await call(app, {
      method: 'POST',
      url: `/api/games/follow?member_id=${player.user.id}`,
      token: player.token,
    });
    expect(list.body.data.list.map((g: { id: string }) => g.id).sort()).toEqual(
      [games[0].id, games[1].id].sort(),
    );
    const filtered = await call(app, {
      method: 'POST',
      url: '/api/games/follow?name=fish',
      token: player.token,
    });
    expect(filtered.body.data.list).toEqual([]);

    const del = await call(app, {
      method: 'POST',
      url: '/api/games/follow/delete?lang=pt',
      token: player.token,
      payload: { member_id: String(player.user.id), game_id: games[0].id },
    });
    expect(del.body).toMatchObject({
      code: 200,
      message: 'Removido dos favoritos',
      data: { is_favorite: false },
    });
    const after = await call(app, { method: 'POST', url: '/api/games/follow', token: player.token });
    expect(after.body.data.list.map((g: { id: string }) => g.id)).toEqual([games[1].id]);
  });

  it("a full favourite list refuses one more with 'Error in setting favorite list', translated", async () => {
    const player = await registerPlayer(app);
    const db = app.services.db;
    const memberId = String(player.user.id);
    // MAX_FAVORITES hidden games, all of them the player's favourites.
    await db.execute(sql`INSERT INTO games (code, name, provider_id, category, rtp_min_bp, rtp_max_bp,
        min_bet_minor, max_bet_minor, max_win_minor, enabled)
      SELECT 'fav-fill-' || g, 'Filler ' || g, (SELECT provider_id FROM games ORDER BY id LIMIT 1), 'slots',
             9600, 9600, 10, 1000, 100000, false
      FROM generate_series(1, ${MAX_FAVORITES}) AS g`);
    try {
      await db.execute(sql`INSERT INTO member_favorite_games (member_id, game_id)
        SELECT ${memberId}::bigint, id FROM games WHERE code LIKE 'fav-fill-%'`);
      const games = (await call(app, { method: 'GET', url: '/api/games/listsv2?category=slots&page_size=1' }))
        .body.data.list;
      for (const [lang, message] of [
        ['en', 'Error in setting favorite list'],
        ['pt', 'Erro ao definir a lista de favoritos'],
      ]) {
        const full = await call(app, {
          method: 'POST',
          url: `/api/games/follow/set?lang=${lang}`,
          token: player.token,
          payload: { game_id: games[0].id },
        });
        expect(full.status).toBe(422);
        expect(full.body).toMatchObject({ status: 'fail', code: 'VALIDATION_FAILED', message });
      }
      const [row] = await rowsOf<{ n: unknown }>(
        db,
        sql`SELECT count(*) AS n FROM member_favorite_games WHERE member_id = ${memberId}::bigint`,
      );
      expect(Number(row!.n)).toBe(MAX_FAVORITES);
    } finally {
      await db.execute(sql`DELETE FROM member_favorite_games WHERE member_id = ${memberId}::bigint`);
      await db.execute(sql`DELETE FROM games WHERE code LIKE 'fav-fill-%'`);
    }
  });

  it("refuses another member's id, unknown games and guests", async () => {
    const player = await registerPlayer(app);
    const other = await registerPlayer(app);
    for (const url of ['/api/games/follow/set', '/api/games/follow/delete']) {
      const forbidden = await call(app, {
        method: 'POST',
        url,
        token: player.token,
        payload: { member_id: other.user.id, name: 'dice' },
      });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe('FORBIDDEN');
    }
    const listOther = await call(app, {
      method: 'POST',
      url: `/api/games/follow?member_id=${other.user.id}`,
      token: player.token,
    });
    expect(listOther.status).toBe(403);
    expect(
      (await call(app, { method: 'POST', url: '/api/games/follow', token: other.token })).body.data.list,
    ).toEqual([]);
    const unknown = await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      token: player.token,
      payload: { name: 'no such game' },
    });
    expect(unknown.status).toBe(404);
    for (const game_id of ['9999999999999999999', 2 ** 60, -1, 'abc']) {
      const huge = await call(app, {
        method: 'POST',
        url: '/api/games/follow/set',
        token: player.token,
        payload: { game_id },
      });
      expect(huge.status, String(game_id)).toBe(422);
    }
    const empty = await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      token: player.token,
      payload: {},
    });
    expect(empty.status).toBe(422);
    const guest = await call(app, {
      method: 'POST',
      url: '/api/games/follow/set',
      payload: { name: 'dice' },
    });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toBe('Unauthenticated.');
  });

  it('launches in-house games for real for members and in demo mode for guests', async () => {
    const player = await registerPlayer(app);
    const real = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      token: player.token,
      payload: { name: 'dice' },
    });
    expect(real.status).toBe(200);
    expect(real.body.data).toMatchObject({
      url: '/originals/dice',
      mode: 'real',
      balance: '0.00',
      demo_token: null,
    });
    expect(real.body.data.game.code).toBe('dice');
    const recent = await call(app, { method: 'GET', url: '/api/games/recent', token: player.token });
    expect(recent.body.data.list.map((g: { code: string }) => g.code)).toEqual(['dice']);

    const guest = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      payload: { name: 'mines' },
    });
    expect(guest.body.data).toMatchObject({
      url: '/originals/mines?mode=demo',
      mode: 'demo',
      balance: '1000.00',
    });
    expect(guest.body.data.demo_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      payload: { name: 'dice', demo_token: guest.body.data.demo_token },
    });
    expect(again.body.data.demo_token).toBe(guest.body.data.demo_token);

    const thirdParty = (
      await call(app, { method: 'GET', url: '/api/games/listsv2?platType=aurora&page_size=1' })
    ).body.data.list[0];
    // Third-party games open on our /play page, which embeds the aggregator's game (modules/providers).
    const thirdPartyLaunch = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      token: player.token,
      payload: { game_id: thirdParty.id },
    });
    expect(thirdPartyLaunch.body.data).toMatchObject({ url: `/play?game=${thirdParty.code}`, mode: 'real' });
    // Guests bet fun money on the shared crash rounds too.
    const crashDemo = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      payload: { name: 'crash' },
    });
    expect(crashDemo.body.data).toMatchObject({
      url: '/originals/crash?mode=demo',
      mode: 'demo',
      balance: '1000.00',
    });
    expect(crashDemo.body.data.demo_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expired = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      token: 'not-a-real-token',
      payload: { name: 'dice' },
    });
    expect(expired.status).toBe(401);
  });
});
