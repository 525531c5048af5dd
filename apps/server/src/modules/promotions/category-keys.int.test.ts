import { randomUUID } from 'node:crypto';
import { CATEGORY_WEIGHT_KEYS, GAME_CATEGORIES } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer, HOSTS, loginOperator } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { PROFILES } from './promotions.profiles.ts';
import { siteCampaigns } from './promotions.repo.ts';
import { campaignOf, giveGrant } from './promotions.service.ts';
import { takeBetStake } from './stake.ts';

/** Catalogue games no other test file bets on (so a site override here disturbs nobody). */
const LIVE_ROULETTE = 'lumenlive-live-roulette-rio';
const VIDEO_GAME = 'pixelforge-kart-racer';
const SLOT_TO_MOVE = 'tidewater-viking-gold';

/**
 * Issue 34, items 3 and 4: maps keyed by game category use the catalogue's keys (a live-casino
 * stake weighs 20 %, a video-game bet earns its rebate), and the category a site gives a game in
 * the back office is the one its wagering weight, rebate and VIP track read.
 */
describe.each(await databaseKinds())('category keys and per-site categories (%s)', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let intl: TSite;
  let br: TSite;
  let owner: string;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    intl = (await app.services.sites.byHost(HOSTS.intl))!;
    br = (await app.services.sites.byHost(HOSTS.br))!;
    owner = await loginOperator(app, 'owner', HOSTS.intl, 'qa_owner');
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, token: string, payload: Record<string, unknown> = {}) =>
    call(app, { method: 'POST', url, token, host: HOSTS.intl, payload });

  const bet = (memberId: bigint, amountMinor: bigint, gameCode: string) =>
    db.transaction((tx) =>
      takeBetStake(tx, {
        siteId: intl.id,
        memberId,
        amountMinor,
        idempotencyKey: `category-bet:${randomUUID()}`,
        gameCode,
      }),
    );

  /** A player holding the intl first-deposit bonus (10.00, 500.00 to wager) as the site's rules give it. */
  async function playerWithBonus() {
    const p = await fundedPlayer(app, 10_000n);
    const campaign = await campaignOf(db, intl, 'ftd');
    await giveGrant(db, {
      site: intl,
      memberId: p.memberId,
      campaign,
      periodKey: 'once',
      amountMinor: 1_000n,
      depositMinor: 10_000n,
      now: new Date(),
    });
    return p;
  }

  const wageringDone = async (token: string) =>
    (await post('/api/cover/history', token)).body.data.active.wagering_done as string;

  async function setSiteCategory(code: string, category: string) {
    const [game] = await rowsOf<{ id: string }>(db, sql`SELECT id::text FROM games WHERE code = ${code}`);
    const response = await call(app, {
      method: 'PATCH',
      url: `/api/admin/games/${game!.id}`,
      host: HOSTS.intl,
      token: owner,
      payload: { category },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }

  it('a 10.00 stake on a live-casino table moves the wagering by the 2.00 its 20 % weight counts', async () => {
    const p = await playerWithBonus();
    await bet(p.memberId, 1_000n, LIVE_ROULETTE);
    expect(await wageringDone(p.token)).toBe('2.00');
    // A slot counts in full, the weight of every category the rules leave to the default.
    await bet(p.memberId, 1_000n, 'slot');
    expect(await wageringDone(p.token)).toBe('12.00');
  });

  it('a video-game bet earns its rebate, shown on the video_game row', async () => {
    const p = await fundedPlayer(app, 20_000n);
    await bet(p.memberId, 10_000n, VIDEO_GAME);
    const list = await post('/api/games/rebates/list', p.token);
    const rows = list.body.data.list as { category: string; today_bet: string; today_rebate: string }[];
    expect(rows.map((r) => r.category).sort()).toEqual([...GAME_CATEGORIES].sort());
    expect(rows.find((r) => r.category === 'video_game')).toMatchObject({
      today_bet: '100.00',
      rate: '0.30',
      today_rebate: '0.30',
    });
  });

  it('the seeded campaign rows of both profiles key their weights and rates by catalogue categories only', async () => {
    const known = new Set<string>(CATEGORY_WEIGHT_KEYS);
    const categories = new Set<string>(GAME_CATEGORIES);
    const seeds = [...PROFILES.intl.campaigns, ...PROFILES.br.campaigns].map((c) => c.rules);
    const stored = [...(await siteCampaigns(db, intl)), ...(await siteCampaigns(db, br))].map((c) => c.rules);
    for (const rules of [...seeds, ...stored]) {
      for (const key of Object.keys(rules.wagering.weights)) expect(known).toContain(key);
      for (const key of Object.keys(rules.reward.categoryBps ?? {})) expect(categories).toContain(key);
    }
    const rebates = stored.find((r) => r.trigger === 'daily_turnover')!;
    expect(Object.keys(rebates.reward.categoryBps ?? {}).sort()).toEqual([...GAME_CATEGORIES].sort());
  });

  it('the back office refuses a category the catalogue does not use, in the operator’s language, and keeps the rules', async () => {
    const before = await call(app, {
      method: 'GET',
      url: '/api/admin/promotions',
      host: HOSTS.intl,
      token: owner,
    });
    const rebates = before.body.data.list.find((c: { code: string }) => c.code === 'rebates');
    for (const rules of [
      { ...rebates.rules, reward: { ...rebates.rules.reward, categoryBps: { video: 30 } } },
      { ...rebates.rules, wagering: { ...rebates.rules.wagering, weights: { default: 100, live: 20 } } },
    ]) {
      const refused = await call(app, {
        method: 'PATCH',
        url: '/api/admin/promotions/rebates?lang=pt',
        host: HOSTS.intl,
        token: owner,
        payload: { rules },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('VALIDATION_FAILED');
      expect(refused.body.message).toMatch(/^Categoria de jogo desconhecida\. Use slots, live_casino/);
    }
    const after = await call(app, {
      method: 'GET',
      url: '/api/admin/promotions',
      host: HOSTS.intl,
      token: owner,
    });
    expect(after.body.data.list.find((c: { code: string }) => c.code === 'rebates').rules).toEqual(
      rebates.rules,
    );
    // The database refuses such a key too, whoever writes the row.
    const stored = await db
      .execute(
        sql`UPDATE promo_campaigns SET rules = jsonb_set(rules, '{reward,categoryBps,video}', '30')
            WHERE site_id = ${intl.id.toString()}::bigint AND code = 'rebates'`,
      )
      .catch((error: Error) => error);
    expect(stored).toBeInstanceOf(Error);
  });

  it('a game the site moved to live casino counts as live casino there: weight, rebate row and live level', async () => {
    await setSiteCategory(SLOT_TO_MOVE, 'live_casino');
    try {
      const p = await playerWithBonus();
      await bet(p.memberId, 1_000n, SLOT_TO_MOVE);
      expect(await wageringDone(p.token)).toBe('2.00');
      const rows = (await post('/api/games/rebates/list', p.token)).body.data.list as {
        category: string;
        today_bet: string;
      }[];
      expect(rows.find((r) => r.category === 'live_casino')!.today_bet).toBe('10.00');
      expect(rows.find((r) => r.category === 'slots')!.today_bet).toBe('0.00');
      const vip = (await post('/api/member/vip/info', p.token)).body.data.uservip;
      expect(vip).toMatchObject({ live_betting: '10.00', slot_betting: '0.00' });

      // The operator moves it back: the next stake is a slot again (no stale copy of the category).
      await setSiteCategory(SLOT_TO_MOVE, 'slots');
      await bet(p.memberId, 1_000n, SLOT_TO_MOVE);
      expect(await wageringDone(p.token)).toBe('12.00');
    } finally {
      await setSiteCategory(SLOT_TO_MOVE, 'slots');
    }
  });

  it('an in-house game placed over HTTP counts by the site’s category of it', async () => {
    await setSiteCategory('limbo', 'live_casino');
    try {
      const p = await fundedPlayer(app, 10_000n);
      const placed = await post('/api/originals/limbo/bet', p.token, {
        amount: '1.00',
        target: '2.00',
        idempotency_key: randomUUID(),
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const vip = (await post('/api/member/vip/info', p.token)).body.data.uservip;
      expect(vip).toMatchObject({ live_betting: '1.00', totalbetting: '1.00' });
      const rows = (await post('/api/games/rebates/list', p.token)).body.data.list as {
        category: string;
        today_bet: string;
      }[];
      expect(rows.find((r) => r.category === 'live_casino')!.today_bet).toBe('1.00');
      expect(rows.find((r) => r.category === 'arcade')!.today_bet).toBe('0.00');
    } finally {
      await setSiteCategory('limbo', 'arcade');
    }
  });
});
