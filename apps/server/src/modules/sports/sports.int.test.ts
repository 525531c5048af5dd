import { randomUUID } from 'node:crypto';
import { formatMinor, translate } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, call, fundedPlayer, HOSTS, loginOperator } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { collect, openSocket } from '../../../test/sockets.ts';
import { rowsOf } from '../../db/sql.ts';
import { sumPlay } from '../responsible-gaming/rg.repo.ts';
import { getBalances } from '../wallet/balances.ts';
import { grantBonus } from '../wallet/bonus/grants.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { realignDemo, type SportsFeed, syncFeed } from './sports.feed.ts';
import { formatOdds, parseOdds, returnOf } from './sports.pricing.ts';
import { insertEvents, type TSportsSite } from './sports.service.ts';

const kinds = await databaseKinds();

/** Fixed true probabilities: home 50 %, draw 25 %, away 25 %; over 55 %; both score 50 %. */
const PROBABILITIES = {
  '1x2': { home: 500_000n, draw: 250_000n, away: 250_000n },
  double_chance: { home_draw: 750_000n, home_away: 750_000n, draw_away: 500_000n },
  over_under_2_5: { over: 550_000n, under: 450_000n },
  btts: { yes: 500_000n, no: 500_000n },
};

type TSelection = { id: string; code: string; odds: string; result: string | null };
type TMarket = { id: string; type: string; status: string; selections: TSelection[] };

describe.each(kinds)('sportsbook on %s', (kind) => {
  let app: FastifyInstance;
  let site: TSportsSite;
  let competitionId: bigint;
  let operator: string;
  let wsUrl: string;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    await app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `ws://127.0.0.1:${(app.server.address() as { port: number }).port}/ws`;
    const row = (await app.services.sites.byHost(HOSTS.intl))!;
    site = { id: row.id, jurisdiction: row.jurisdiction };
    operator = await loginOperator(app);
    await app.services.db.execute(
      sql`INSERT INTO sports_competitions (site_id, code, country, name, season, position)
          VALUES (${site.id.toString()}::bigint, 'test-league', 'BR', 'Test League', '2026', 99)
          ON CONFLICT (site_id, code) DO NOTHING`,
    );
    const [competition] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id::text AS id FROM sports_competitions WHERE site_id = ${site.id.toString()}::bigint AND code = 'test-league'`,
    );
    competitionId = BigInt(competition!.id);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  /** A new match a day ahead with the fixed prices; its markets by type. */
  async function newEvent(): Promise<{
    id: string;
    markets: Record<string, TMarket>;
    sel: (type: string, code: string) => TSelection;
  }> {
    const ref = randomUUID();
    const ids = await insertEvents(app.services.db, site, competitionId, [
      {
        externalRef: ref,
        round: 1,
        home: `Home ${ref.slice(0, 6)}`,
        away: `Away ${ref.slice(0, 6)}`,
        kickoffAt: new Date(Date.now() + 86_400_000),
        probabilities: PROBABILITIES,
      },
    ]);
    const id = ids.get(ref)!.toString();
    const { body } = await call(app, { method: 'GET', url: `/api/sports/events/${id}` });
    const markets = Object.fromEntries((body.data.event.markets as TMarket[]).map((m) => [m.type, m]));
    return {
      id,
      markets,
      sel: (type, code) => markets[type]!.selections.find((s) => s.code === code)!,
    };
  }

  const place = (
    token: string,
    legs: TSelection[],
    stake: string,
    options: { key?: string; policy?: string; odds?: string[]; lang?: string } = {},
  ) =>
    call(app, {
      method: 'POST',
      url: `/api/sports/bets${options.lang ? `?lang=${options.lang}` : ''}`,
      token,
      headers: { 'idempotency-key': options.key ?? randomUUID() },
      payload: {
        type: legs.length === 1 ? 'single' : 'accumulator',
        legs: legs.map((leg, i) => ({ selection_id: leg.id, odds: options.odds?.[i] ?? leg.odds })),
        stake,
        accept_odds_changes: options.policy ?? 'none',
      },
    });

  const result = (eventId: string, home: number, away: number) =>
    call(app, {
      method: 'POST',
      url: `/api/admin/sports/events/${eventId}/result`,
      token: operator,
      payload: { home_goals: home, away_goals: away },
    });

  const cash = async (memberId: bigint) =>
    (await getBalances(app.services.db, memberId, { siteId: site.id })).cashMinor;

  const betTransfers = (betId: string) =>
    rowsOf<{ kind: string; amount: string; key: string }>(
      app.services.db,
      sql`SELECT kind, amount_minor::text AS amount, idempotency_key AS key FROM wallet_transfers
          WHERE site_id = ${site.id.toString()}::bigint AND reference = ${`sports-bet:${betId}`} ORDER BY id`,
    );

  it('shows the seeded Brasileirão on the br site: upcoming matches with four priced markets, past rounds settled', async () => {
    const { status, body } = await call(app, {
      method: 'GET',
      url: '/api/sports/events?state=upcoming&limit=20',
      host: HOSTS.br,
    });
    expect(status).toBe(200);
    expect(body.data.competitions[0]).toMatchObject({
      name: 'Brasileirão Série A',
      country: 'BR',
      season: '2025',
    });
    // The br profile's second competition; the list keeps the competitions' order.
    expect(body.data.competitions[1]).toMatchObject({ name: 'Brasileirão Série B', season: '2025' });
    const intl = await call(app, { method: 'GET', url: '/api/sports/competitions' });
    expect(intl.body.data.list.map((c: { name: string }) => c.name)).not.toContain('Brasileirão Série B');
    expect(body.data.limits).toMatchObject({ min_stake: '1.00', max_legs: 10 });
    expect(body.data.list.length).toBe(20);
    const first = body.data.list[0];
    expect(first.status).toBe('scheduled');
    expect(new Date(first.kickoff_at).getTime()).toBeGreaterThan(Date.now());
    expect(first.markets.map((m: TMarket) => m.type)).toEqual([
      '1x2',
      'double_chance',
      'over_under_2_5',
      'btts',
    ]);
    for (const market of first.markets as TMarket[]) {
      expect(market.status).toBe('open');
      for (const selection of market.selections) expect(selection.odds).toMatch(/^\d{1,4}\.\d{2}$/);
    }
    const finished = await call(app, {
      method: 'GET',
      url: '/api/sports/events?state=finished&limit=200',
      host: HOSTS.br,
    });
    const flamengo = finished.body.data.list.find(
      (e: { home_team: string; away_team: string }) =>
        e.home_team === 'CR Flamengo' && e.away_team === 'EC Juventude',
    );
    expect(flamengo).toMatchObject({ status: 'finished', score: { home: 6, away: 0 } });
    expect(flamengo.markets[0].status).toBe('settled');
    expect(flamengo.markets[0].selections.map((s: TSelection) => s.result)).toEqual(['won', 'lost', 'lost']);
    expect(new Date(flamengo.kickoff_at).getTime()).toBeLessThan(Date.now());
  });

  it('moves a stale demo competition’s unplayed matches ahead again, unless a bet waits on one', async () => {
    await app.services.db.execute(
      sql`INSERT INTO sports_competitions (site_id, code, country, name, season, position)
          VALUES (${site.id.toString()}::bigint, 'stale-league', 'BR', 'Stale League', '2026', 98)
          ON CONFLICT (site_id, code) DO NOTHING`,
    );
    const [stale] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id::text AS id FROM sports_competitions WHERE site_id = ${site.id.toString()}::bigint AND code = 'stale-league'`,
    );
    const staleId = BigInt(stale!.id);
    const past = new Date(Date.now() - 10 * 86_400_000);
    await insertEvents(app.services.db, site, staleId, [
      { externalRef: 'a', round: 1, home: 'A', away: 'B', kickoffAt: past, probabilities: PROBABILITIES },
      {
        externalRef: 'b',
        round: 2,
        home: 'B',
        away: 'A',
        kickoffAt: new Date(past.getTime() + 86_400_000),
        probabilities: PROBABILITIES,
      },
    ]);
    const kickoffs = async () =>
      (
        await rowsOf<{ at: Date | string }>(
          app.services.db,
          sql`SELECT kickoff_at AS at FROM sports_events WHERE competition_id = ${staleId.toString()}::bigint ORDER BY kickoff_at`,
        )
      ).map((row) => new Date(row.at).getTime());
    await realignDemo(app.services.db, staleId, new Date());
    const [first, second] = await kickoffs();
    expect(first!).toBeGreaterThan(Date.now());
    expect(first!).toBeLessThan(Date.now() + 2 * 86_400_000);
    expect(second! - first!).toBe(86_400_000);
    // Ahead again: a second start changes nothing.
    await realignDemo(app.services.db, staleId, new Date());
    expect(await kickoffs()).toEqual([first, second]);
  });

  it('prices from true probabilities with the market margin (rounded down)', async () => {
    const event = await newEvent();
    // 1 / (0.5 × 1.06) = 1.886… → 1.88; 1 / (0.25 × 1.06) = 3.77…; double chance 5 %: 1 / (0.75 × 1.05) = 1.269… → 1.26.
    expect(event.sel('1x2', 'home').odds).toBe('1.88');
    expect(event.sel('1x2', 'draw').odds).toBe('3.77');
    expect(event.sel('double_chance', 'home_draw').odds).toBe('1.26');
    expect(event.sel('over_under_2_5', 'over').odds).toBe('1.71');
    expect(event.sel('btts', 'no').odds).toBe('1.88');
  });

  it('settles every market type from the score and pays through the wallet', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 100_000n);
    const all = Object.values(event.markets).flatMap((m) => m.selections);
    const bets: { id: string; selection: TSelection }[] = [];
    for (const selection of all) {
      const placed = await place(player.token, [selection], '10.00');
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(placed.body.data.bet).toMatchObject({ status: 'open', stake: '10.00', type: 'single' });
      bets.push({ id: placed.body.data.bet.id, selection });
    }
    expect(await cash(player.memberId)).toBe(100_000n - 10n * 1_000n);

    const settled = await result(event.id, 2, 1);
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect(settled.body.data.bets_settled).toBe(10);
    // 2-1: home wins, 3 goals, both scored.
    const winners = new Set([
      '1x2:home',
      'double_chance:home_draw',
      'double_chance:home_away',
      'over_under_2_5:over',
      'btts:yes',
    ]);
    let paid = 0n;
    for (const bet of bets) {
      const { body } = await call(app, {
        method: 'GET',
        url: `/api/sports/bets/${bet.id}`,
        token: player.token,
      });
      const type = Object.values(event.markets).find((m) => m.selections.includes(bet.selection))!.type;
      const won = winners.has(`${type}:${bet.selection.code}`);
      const payout = won ? returnOf(1_000n, [parseOdds(bet.selection.odds)!]) : 0n;
      paid += payout;
      expect(body.data.bet).toMatchObject({ status: won ? 'won' : 'lost', cash_out: null });
      expect(parseOdds(body.data.bet.payout)).toBe(payout);
      expect(body.data.bet.legs[0]).toMatchObject({
        status: won ? 'won' : 'lost',
        score: { home: 2, away: 1 },
      });
    }
    expect(await cash(player.memberId)).toBe(100_000n - 10_000n + paid);
    const { body: mine } = await call(app, {
      method: 'GET',
      url: '/api/sports/bets?status=settled',
      token: player.token,
    });
    expect(mine.data.list).toHaveLength(10);
    // The stake and payouts are in the transaction record.
    const record = await call(app, {
      method: 'POST',
      url: '/api/transaction/record',
      token: player.token,
      payload: {},
    });
    expect(record.body.data.list.filter((row: { kind: string }) => row.kind === 'bet')).toHaveLength(10);
    expect(record.body.data.list.filter((row: { kind: string }) => row.kind === 'win')).toHaveLength(5);
    // And in the game record, with the match as the name and the legs in the details.
    const games = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: player.token,
      payload: {},
    });
    expect(games.status, JSON.stringify(games.body)).toBe(200);
    const rows = games.body.data.list.filter((row: { game: string }) => row.game === 'sportsbook');
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({ brand: 'sportsbook', status: 'settled', bet_amount: '10.00' });
    expect(rows[0].name).toContain(' x ');
    const details = await call(app, {
      method: 'POST',
      url: '/api/game/record/details',
      token: player.token,
      payload: { id: rows[0].id },
    });
    expect(details.status, JSON.stringify(details.body)).toBe(200);
    expect(details.body.data).toMatchObject({ game: 'sportsbook', fairness: null, stake: '10.00' });
    expect(details.body.data.params.legs).toHaveLength(1);
  });

  it('pays an accumulator at the remaining legs’ odds when a leg is void (cancelled match)', async () => {
    const [a, b, c] = [await newEvent(), await newEvent(), await newEvent()];
    const player = await fundedPlayer(app, 10_000n);
    const legs = [a.sel('1x2', 'home'), b.sel('1x2', 'away'), c.sel('over_under_2_5', 'over')];
    const placed = await place(player.token, legs, '10.00');
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body.data.bet.type).toBe('accumulator');
    expect(placed.body.data.bet.potential_return).toBe('121.19'); // 10 × 1.88 × 3.77 × 1.71 = 121.198…
    const betId = placed.body.data.bet.id;

    expect((await result(a.id, 1, 0)).status).toBe(200);
    const cancelled = await call(app, {
      method: 'POST',
      url: `/api/admin/sports/events/${b.id}/cancel`,
      token: operator,
    });
    expect(cancelled.status).toBe(200);
    let bet = (await call(app, { method: 'GET', url: `/api/sports/bets/${betId}`, token: player.token })).body
      .data.bet;
    expect(bet.status).toBe('open');
    expect(bet.legs.map((l: { status: string }) => l.status)).toEqual(['won', 'void', 'open']);
    expect((await result(c.id, 2, 2)).status).toBe(200);
    bet = (await call(app, { method: 'GET', url: `/api/sports/bets/${betId}`, token: player.token })).body
      .data.bet;
    // 10 × 1.88 × 1.71 = 32.148 → 32.14; the void leg drops out.
    expect(bet).toMatchObject({ status: 'won', payout: '32.14', total_odds: '3.21' });
    expect(await cash(player.memberId)).toBe(10_000n - 1_000n + 3_214n);

    // Every leg void: the stake comes back (refund).
    const d = await newEvent();
    const single = await place(player.token, [d.sel('btts', 'yes')], '5.00');
    await call(app, { method: 'POST', url: `/api/admin/sports/events/${d.id}/cancel`, token: operator });
    const voided = (
      await call(app, {
        method: 'GET',
        url: `/api/sports/bets/${single.body.data.bet.id}`,
        token: player.token,
      })
    ).body.data.bet;
    expect(voided).toMatchObject({ status: 'void', payout: '5.00' });
    expect((await betTransfers(single.body.data.bet.id)).map((t) => t.kind)).toEqual(['bet', 'refund']);
    // My bets by status, and the accumulator in the game record named by its number of legs.
    const voids = await call(app, {
      method: 'GET',
      url: '/api/sports/bets?status=void',
      token: player.token,
    });
    expect(voids.body.data.list.map((b: { id: string }) => b.id)).toEqual([single.body.data.bet.id]);
    const won = await call(app, { method: 'GET', url: '/api/sports/bets?status=won', token: player.token });
    expect(won.body.data.list.map((b: { id: string }) => b.id)).toEqual([betId]);
    const games = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: player.token,
      payload: {},
    });
    const accRow = games.body.data.list.find((row: { bet_amount: string }) => row.bet_amount === '10.00');
    expect(accRow).toMatchObject({ game: 'sportsbook', brand: 'sportsbook', name: '3', status: 'settled' });
  });

  it('resettles after a corrected result as ledger reversals: balanced, reconcile without drift', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 10_000n);
    const home = event.sel('1x2', 'home');
    const acc = await newEvent();
    const single = await place(player.token, [home], '20.00');
    const accumulator = await place(player.token, [event.sel('btts', 'no'), acc.sel('1x2', 'draw')], '10.00');
    expect(accumulator.status).toBe(200);
    const betId = single.body.data.bet.id;

    await result(event.id, 2, 0);
    expect(await cash(player.memberId)).toBe(10_000n - 3_000n + 3_760n);
    // Corrected to 1-1: the single loses; the payout is taken back.
    const corrected = await result(event.id, 1, 1);
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.event.score).toEqual({ home: 1, away: 1 });
    let bet = (await call(app, { method: 'GET', url: `/api/sports/bets/${betId}`, token: player.token })).body
      .data.bet;
    expect(bet).toMatchObject({ status: 'lost', payout: '0.00' });
    expect(await cash(player.memberId)).toBe(10_000n - 3_000n);
    // Corrected again to 3-0: it wins again, paid anew.
    await result(event.id, 3, 0);
    bet = (await call(app, { method: 'GET', url: `/api/sports/bets/${betId}`, token: player.token })).body
      .data.bet;
    expect(bet).toMatchObject({ status: 'won', payout: '37.60' });
    expect((await betTransfers(betId)).map((t) => [t.kind, t.amount, t.key])).toEqual([
      ['bet', '2000', `sports-bet:${betId}:stake`],
      ['win', '3760', `sports-bet:${betId}:pay:1`],
      ['win_reversal', '3760', `sports-bet:${betId}:reverse:1`],
      ['win', '3760', `sports-bet:${betId}:pay:3`],
    ]);
    // The accumulator's first leg (btts no) lost at 1-1 and won again at 3-0: still open on the other leg.
    const accBet = (
      await call(app, {
        method: 'GET',
        url: `/api/sports/bets/${accumulator.body.data.bet.id}`,
        token: player.token,
      })
    ).body.data.bet;
    expect(accBet.status).toBe('open');
    expect(accBet.legs.map((l: { status: string }) => l.status)).toEqual(['won', 'open']);
    // The RG loss count sees the reversal: what came back is the new payout only.
    const play = await sumPlay(app.services.db, player.memberId, new Date(Date.now() - 3_600_000));
    expect(play).toEqual({ stakedMinor: 3_000n, returnedMinor: 3_760n });
    // Each payout equals a pure recomputation, and the ledger is balanced.
    expect(await cash(player.memberId)).toBe(10_000n - 3_000n + 3_760n);
    const report = await reconcile(app.services.db, { siteId: site.id });
    expect(report.drift).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('takes 200 concurrent bets on one event while its odds move: no money lost or duplicated, refusals translated', async () => {
    const event = await newEvent();
    const home = event.sel('1x2', 'home');
    const players = await Promise.all(Array.from({ length: 20 }, () => fundedPlayer(app, 20_000n)));
    const moves = ['1.95', '1.88', '2.05', '1.80', '1.88'];
    const oddsChanges = (async () => {
      for (const odds of moves) {
        await new Promise((resolve) => setTimeout(resolve, 15));
        const moved = await call(app, {
          method: 'POST',
          url: `/api/admin/sports/markets/${event.markets['1x2']!.id}/odds`,
          token: operator,
          payload: { selections: [{ selection_id: home.id, odds }] },
        });
        expect(moved.status).toBe(200);
      }
    })();
    const attempts = Array.from({ length: 200 }, (_, i) => {
      const player = players[i % players.length]!;
      return place(player.token, [home], '10.00', { lang: 'pt' }).then((answer) => ({ answer, player }));
    });
    const [answers] = await Promise.all([Promise.all(attempts), oddsChanges]);
    let accepted = 0;
    for (const { answer } of answers) {
      if (answer.status === 200) {
        accepted += 1;
        expect(answer.body.data.bet.legs[0].odds).toBe('1.88');
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect(answer.body.code).toBe('ODDS_CHANGED');
        expect(answer.body.message).toBe(translate('pt', 'errors.ODDS_CHANGED'));
        expect(answer.body.data.changes[0]).toMatchObject({ selection_id: home.id, odds_seen: '1.88' });
      }
    }
    expect(accepted).toBeGreaterThan(0);
    for (const player of players) {
      const count = await rowsOf<{ n: string; staked: string }>(
        app.services.db,
        sql`SELECT count(*)::text AS n, COALESCE(sum(stake_minor), 0)::text AS staked FROM sports_bets
            WHERE member_id = ${player.memberId.toString()}::bigint`,
      );
      const stakes = await rowsOf<{ total: string }>(
        app.services.db,
        sql`SELECT COALESCE(sum(t.amount_minor), 0)::text AS total FROM wallet_transfers t
            WHERE t.kind = 'bet' AND t.reference IN (SELECT 'sports-bet:' || id FROM sports_bets
              WHERE member_id = ${player.memberId.toString()}::bigint)`,
      );
      expect(stakes[0]!.total).toBe(count[0]!.staked);
      expect(await cash(player.memberId)).toBe(20_000n - BigInt(count[0]!.staked));
    }
    const total = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*)::text AS n FROM sports_bet_legs WHERE event_id = ${event.id}::bigint`,
    );
    expect(Number(total[0]!.n)).toBe(accepted);
    // Settle them all at once: every accepted bet paid exactly once.
    await result(event.id, 1, 0);
    const wins = await rowsOf<{ n: string }>(
      app.services.db,
      sql`SELECT count(*)::text AS n FROM wallet_transfers WHERE kind = 'win' AND reference IN
            (SELECT 'sports-bet:' || bet_id FROM sports_bet_legs WHERE event_id = ${event.id}::bigint)`,
    );
    expect(Number(wins[0]!.n)).toBe(accepted);
    const report = await reconcile(app.services.db, { siteId: site.id });
    expect(report.drift).toEqual([]);
  }, 120_000);

  it('lets exactly one of a cash-out and a settlement win when they race', async () => {
    const outcomes = { cashedOut: 0, settled: 0 };
    for (let round = 0; round < 6; round += 1) {
      const event = await newEvent();
      const player = await fundedPlayer(app, 10_000n);
      const placed = await place(player.token, [event.sel('1x2', 'home')], '10.00');
      const betId = placed.body.data.bet.id;
      const offer = placed.body.data.bet.cash_out;
      expect(offer).toMatchObject({ available: true });
      const [cashOut, settled] = await Promise.all([
        call(app, {
          method: 'POST',
          url: `/api/sports/bets/${betId}/cash-out`,
          token: player.token,
          headers: { 'idempotency-key': randomUUID() },
          payload: { value: offer.value },
        }),
        result(event.id, 1, 0),
      ]);
      expect(settled.status).toBe(200);
      const transfers = await betTransfers(betId);
      const credits = transfers.filter((t) => t.kind !== 'bet');
      expect(credits).toHaveLength(1);
      const bet = (await call(app, { method: 'GET', url: `/api/sports/bets/${betId}`, token: player.token }))
        .body.data.bet;
      if (cashOut.status === 200) {
        outcomes.cashedOut += 1;
        expect(bet).toMatchObject({ status: 'cashed_out', payout: offer.value });
        expect(credits[0]!.key).toBe(`sports-bet:${betId}:cash-out`);
      } else {
        outcomes.settled += 1;
        expect(cashOut.body.code).toBe('CASH_OUT_UNAVAILABLE');
        expect(bet).toMatchObject({ status: 'won', payout: '18.80' });
      }
      expect(await cash(player.memberId)).toBe(10_000n - 1_000n + BigInt(credits[0]!.amount));
    }
    expect(outcomes.cashedOut + outcomes.settled).toBe(6);
  });

  it('answers a replayed placement or cash-out with the first result and refuses a different body', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 10_000n);
    const key = randomUUID();
    const first = await place(player.token, [event.sel('btts', 'yes')], '10.00', { key });
    const again = await place(player.token, [event.sel('btts', 'yes')], '10.00', { key });
    expect(again.status).toBe(200);
    expect(again.body.data.bet.id).toBe(first.body.data.bet.id);
    // The placement answers from what it wrote; the replay reads the bet back: the same view.
    expect(again.body.data).toEqual(first.body.data);
    expect(await cash(player.memberId)).toBe(9_000n);
    // So does an accumulator: its legs in the order placed, as GET /sports/bets/:id shows them.
    const [a, b] = [await newEvent(), await newEvent()];
    const treble = await place(player.token, [b.sel('1x2', 'draw'), a.sel('over_under_2_5', 'over')], '1.00');
    expect(treble.status).toBe(200);
    const shown = await call(app, {
      method: 'GET',
      url: `/api/sports/bets/${treble.body.data.bet.id}`,
      token: player.token,
    });
    expect(shown.body.data).toEqual(treble.body.data);
    expect(treble.body.data.bet.legs.map((leg: { event_id: string }) => leg.event_id)).toEqual([b.id, a.id]);
    expect(await cash(player.memberId)).toBe(8_900n);
    const other = await place(player.token, [event.sel('btts', 'no')], '10.00', { key });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_CONFLICT');
    // Both at once with a fresh key: one bet.
    const key2 = randomUUID();
    const both = await Promise.all(
      [1, 2].map(() => place(player.token, [event.sel('1x2', 'away')], '5.00', { key: key2 })),
    );
    expect(both.map((b) => b.status)).toEqual([200, 200]);
    expect(both[0]!.body.data.bet.id).toBe(both[1]!.body.data.bet.id);
    expect(await cash(player.memberId)).toBe(8_400n);
    // A body without a key is refused.
    const noKey = await call(app, {
      method: 'POST',
      url: '/api/sports/bets',
      token: player.token,
      payload: {
        type: 'single',
        legs: [{ selection_id: event.sel('1x2', 'home').id, odds: '1.88' }],
        stake: '1.00',
      },
    });
    expect(noKey.status).toBe(422);

    const offer = first.body.data.bet.cash_out.value;
    const cashKey = randomUUID();
    const cashOut = () =>
      call(app, {
        method: 'POST',
        url: `/api/sports/bets/${first.body.data.bet.id}/cash-out`,
        token: player.token,
        headers: { 'idempotency-key': cashKey },
        payload: { value: offer },
      });
    const [c1, c2] = await Promise.all([cashOut(), cashOut()]);
    expect([c1.status, c2.status]).toEqual([200, 200]);
    expect((await betTransfers(first.body.data.bet.id)).map((t) => t.kind)).toEqual(['bet', 'win']);
    expect(await cash(player.memberId)).toBe(8_400n + parseOdds(offer)!);
  });

  it('pushes each bet of a group to its member’s socket once it commits, with the balance', async () => {
    const event = await newEvent();
    const players = await Promise.all([fundedPlayer(app, 10_000n), fundedPlayer(app, 10_000n)]);
    const inboxes = await Promise.all(
      players.map(async (player) => {
        const socket = await openSocket(wsUrl);
        const inbox = collect(socket);
        socket.send(JSON.stringify({ type: 'auth', token: player.token }));
        await inbox.next((m) => m.type === 'ready', 'ready');
        return { socket, inbox };
      }),
    );
    // Sent together: they are posted in one group (or two), each member's push to its own sockets.
    const placed = await Promise.all(
      players.map((player, i) => place(player.token, [event.sel('1x2', i === 0 ? 'home' : 'away')], '10.00')),
    );
    for (const [i, { socket, inbox }] of inboxes.entries()) {
      expect(placed[i]!.status).toBe(200);
      const bet = await inbox.next((m) => m.type === 'sports_bet', 'bet push');
      expect(bet.bet).toEqual(placed[i]!.body.data.bet);
      const balance = await inbox.next(
        (m) => m.type === 'balance' && m.reason === 'sports_bet',
        'balance push',
      );
      expect(balance).toMatchObject({ money: '90.00' });
      expect(inbox.messages.filter((m) => m.type === 'sports_bet')).toHaveLength(1);
      socket.close();
    }
  });

  it('pushes the settlement and the new balance to the member’s socket and audits the operator', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 10_000n);
    const placed = await place(player.token, [event.sel('1x2', 'away')], '10.00');
    const socket = await openSocket(wsUrl);
    const inbox = collect(socket);
    socket.send(JSON.stringify({ type: 'auth', token: player.token }));
    await inbox.next((m) => m.type === 'ready', 'ready');
    await result(event.id, 0, 2);
    const bet = await inbox.next((m) => m.type === 'sports_bet', 'bet push');
    expect(bet.bet).toMatchObject({ id: placed.body.data.bet.id, status: 'won', payout: '37.70' });
    const balance = await inbox.next(
      (m) => m.type === 'balance' && m.reason === 'sports_settled',
      'balance push',
    );
    expect(balance).toMatchObject({ money: '127.70' });
    socket.close();
    const audit = await rowsOf<{ action: string; after: { score: unknown } }>(
      app.services.db,
      sql`SELECT action, after FROM operator_actions WHERE entity = 'sports_event' AND entity_id = ${event.id}`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'sports.result', after: { score: { home: 0, away: 2 } } });
  });

  it('syncs an odds feed: new matches at its prices, its price moves (operator overrides kept), its results settle', async () => {
    const ref = randomUUID();
    const code = `feed-${ref.slice(0, 8)}`;
    const odds = { '1x2': { home: 210n, draw: 330n, away: 350n } };
    let score: { home: number; away: number } | null = null;
    const kickoffAt = new Date(Date.now() + 86_400_000);
    // A provider's adapter: the interface a real odds feed implements.
    const feed: SportsFeed = {
      name: 'test-provider',
      competitions: async () => [
        {
          code,
          name: 'Feed Cup',
          country: 'BR',
          season: '2026',
          events: [{ ref, round: 1, home: 'Alpha FC', away: 'Beta EC', kickoffAt, score, odds }],
        },
      ],
    };
    const deps = { db: app.services.db };
    expect(await syncFeed(deps, site, feed)).toEqual({ created: 1, repriced: 0, settled: 0 });
    expect(await syncFeed(deps, site, feed)).toEqual({ created: 0, repriced: 0, settled: 0 });
    const [row] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id::text AS id FROM sports_events WHERE external_ref = ${ref}`,
    );
    const event = (await call(app, { method: 'GET', url: `/api/sports/events/${row!.id}` })).body.data.event;
    expect(event).toMatchObject({ competition_name: 'Feed Cup', home_team: 'Alpha FC', status: 'scheduled' });
    const market = event.markets[0] as TMarket;
    expect(market.selections.map((s) => s.odds)).toEqual(['2.10', '3.30', '3.50']);
    const player = await fundedPlayer(app, 10_000n);
    const placed = await place(player.token, [market.selections[0]!], '10.00');
    expect(placed.status).toBe(200);

    odds['1x2'].home = 230n;
    expect(await syncFeed(deps, site, feed)).toMatchObject({ repriced: 1 });
    const moved = await call(app, { method: 'GET', url: `/api/sports/events/${event.id}` });
    expect(moved.body.data.event.markets[0].selections[0].odds).toBe('2.30');
    // The operator overrides the market: the feed no longer moves it.
    await call(app, {
      method: 'POST',
      url: `/api/admin/sports/markets/${market.id}/odds`,
      token: operator,
      payload: { selections: [{ selection_id: market.selections[1]!.id, odds: '3.40' }] },
    });
    odds['1x2'].draw = 310n;
    expect(await syncFeed(deps, site, feed)).toMatchObject({ repriced: 0 });
    const kept = await call(app, { method: 'GET', url: `/api/sports/events/${event.id}` });
    expect(kept.body.data.event.markets[0].selections[1].odds).toBe('3.40');

    score = { home: 2, away: 0 };
    expect(await syncFeed(deps, site, feed)).toMatchObject({ settled: 1 });
    const bet = (
      await call(app, {
        method: 'GET',
        url: `/api/sports/bets/${placed.body.data.bet.id}`,
        token: player.token,
      })
    ).body.data.bet;
    expect(bet).toMatchObject({ status: 'won', payout: '21.00' });
    expect(await syncFeed(deps, site, feed)).toMatchObject({ settled: 0 });
  });

  it('feeds the wagering of rewards like any bet (the promotions stake path)', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 10_000n);
    await transfer(app.services.db, {
      siteId: site.id,
      kind: 'rebate',
      from: { system: 'promotions_expense' },
      to: { memberId: player.memberId, account: 'cash' },
      amountMinor: 1_000n,
      idempotencyKey: `test-reward:${randomUUID()}`,
      wageringAddMinor: 5_000n,
    });
    const before = await getBalances(app.services.db, player.memberId, { siteId: site.id });
    expect(before.wageringRequiredMinor).toBe(5_000n);
    const placed = await place(player.token, [event.sel('btts', 'yes')], '20.00');
    expect(placed.status).toBe(200);
    const after = await getBalances(app.services.db, player.memberId, { siteId: site.id });
    expect(after.wageringRequiredMinor).toBe(3_000n);
    expect(after.cashMinor).toBe(9_000n);
  });

  it('counts a stake paid partly by a bonus in the day’s turnover and the VIP totals, once', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 400n);
    await grantBonus(app.services.db, {
      siteId: site.id,
      memberId: player.memberId,
      campaignCode: 'test-sports-bonus',
      periodKey: randomUUID(),
      amountMinor: 1_000n,
      wageringRequiredMinor: 50_000n,
      maxBetMinor: null,
      locksCash: false,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
      terms: {},
    });
    const counters = async () => {
      const [turnover] = await rowsOf<{ stake: string; bonus: string; bets: number }>(
        app.services.db,
        sql`SELECT coalesce(sum(stake_minor), 0)::text AS stake, coalesce(sum(bonus_stake_minor), 0)::text AS bonus,
                   coalesce(sum(bets), 0)::int AS bets
            FROM member_turnover WHERE member_id = ${player.memberId.toString()}::bigint AND category = 'sports'`,
      );
      const [vip] = await rowsOf<{ betting: string | null }>(
        app.services.db,
        sql`SELECT total_betting_minor::text AS betting FROM member_vip
            WHERE member_id = ${player.memberId.toString()}::bigint`,
      );
      return { ...turnover!, betting: vip?.betting ?? '0' };
    };
    // 10.00 staked: the 4.00 of cash first, then 6.00 of bonus.
    const key = randomUUID();
    const placed = await place(player.token, [event.sel('btts', 'yes')], '10.00', { key });
    expect(placed.status).toBe(200);
    expect(placed.body.data.balance).toBe('4.00');
    expect(await counters()).toEqual({ stake: '1000', bonus: '600', bets: 1, betting: '1000' });
    // A replay counts nothing again.
    const again = await place(player.token, [event.sel('btts', 'yes')], '10.00', { key });
    expect(again.body.data.bet.id).toBe(placed.body.data.bet.id);
    expect(await counters()).toEqual({ stake: '1000', bonus: '600', bets: 1, betting: '1000' });
  });

  it('refuses, translated and changing nothing: stale odds, suspended markets, stake limits, RG limits', async () => {
    const event = await newEvent();
    const player = await fundedPlayer(app, 10_000n);
    const home = event.sel('1x2', 'home');
    // Stale odds: 'none' refuses, 'higher' accepts better odds, 'any' accepts worse ones at the new price.
    await call(app, {
      method: 'POST',
      url: `/api/admin/sports/markets/${event.markets['1x2']!.id}/odds`,
      token: operator,
      payload: { selections: [{ selection_id: home.id, odds: '2.00' }] },
    });
    const stale = await place(player.token, [home], '10.00', { lang: 'pt' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'ODDS_CHANGED',
      message: translate('pt', 'errors.ODDS_CHANGED'),
      data: { changes: [{ selection_id: home.id, odds_seen: '1.88', odds_now: '2.00' }] },
    });
    const higher = await place(player.token, [home], '10.00', { policy: 'higher' });
    expect(higher.status).toBe(200);
    expect(higher.body.data.bet.legs[0].odds).toBe('2.00');
    const lower = await place(player.token, [home], '10.00', { policy: 'higher', odds: ['2.10'] });
    expect(lower.body.code).toBe('ODDS_CHANGED');
    const any = await place(player.token, [home], '10.00', { policy: 'any', odds: ['2.10'] });
    expect(any.status).toBe(200);
    expect(await cash(player.memberId)).toBe(8_000n);

    // Repriced from the model with a new margin.
    const repriced = await call(app, {
      method: 'POST',
      url: `/api/admin/sports/markets/${event.markets['1x2']!.id}/odds`,
      token: operator,
      payload: { margin: '0.10' },
    });
    expect(repriced.body.data.event.markets[0].selections[0].odds).toBe(
      formatOdds(1_000_000_000_000n / (500_000n * 11_000n)),
    );

    // A suspended market takes no bets and offers no cash-out.
    const watcher = await openSocket(wsUrl);
    const inbox = collect(watcher);
    watcher.send(JSON.stringify({ type: 'sports_watch' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const suspend = await call(app, {
      method: 'POST',
      url: `/api/admin/sports/markets/${event.markets['1x2']!.id}/suspend`,
      token: operator,
    });
    expect(suspend.status).toBe(200);
    // The repricing above pushed the market open; that push may land after the watch began,
    // so wait for the one that says suspended (the wait fails when it never comes).
    const pushed = await inbox.next(
      (m) =>
        m.type === 'sports_market' &&
        (m.market as TMarket).id === event.markets['1x2']!.id &&
        (m.market as TMarket).status === 'suspended',
      'market push saying suspended',
    );
    expect((pushed.market as TMarket).selections.length).toBeGreaterThan(0);
    watcher.close();
    const suspended = await place(player.token, [event.sel('1x2', 'draw')], '10.00', {
      lang: 'en',
      policy: 'any',
    });
    expect(suspended.body).toMatchObject({
      code: 'MARKET_SUSPENDED',
      message: translate('en', 'errors.MARKET_SUSPENDED'),
    });
    const bet = (
      await call(app, {
        method: 'GET',
        url: `/api/sports/bets/${higher.body.data.bet.id}`,
        token: player.token,
      })
    ).body.data.bet;
    expect(bet.cash_out.available).toBe(false);
    const refusedCashOut = await call(app, {
      method: 'POST',
      url: `/api/sports/bets/${bet.id}/cash-out`,
      token: player.token,
      headers: { 'idempotency-key': randomUUID() },
      payload: { value: bet.cash_out.value },
    });
    expect(refusedCashOut.body.code).toBe('CASH_OUT_UNAVAILABLE');
    await call(app, {
      method: 'POST',
      url: `/api/admin/sports/markets/${event.markets['1x2']!.id}/reopen`,
      token: operator,
    });

    // Two legs of one match; a stake out of range.
    const same = await place(player.token, [home, event.sel('btts', 'yes')], '10.00', { policy: 'any' });
    expect(same.body.code).toBe('SPORTS_SAME_EVENT');
    const tiny = await place(player.token, [event.sel('btts', 'yes')], '0.50');
    expect(tiny.body).toMatchObject({ code: 'BET_OUT_OF_RANGE', data: { min: '1.00' } });

    // A return above the site's max payout (R$ 100.000,00 on intl): refused with the largest stake allowed.
    const longShots = [await newEvent(), await newEvent(), await newEvent()];
    const legs: TSelection[] = [];
    for (const match of longShots) {
      const away = match.sel('1x2', 'away');
      await call(app, {
        method: 'POST',
        url: `/api/admin/sports/markets/${match.markets['1x2']!.id}/odds`,
        token: operator,
        payload: { selections: [{ selection_id: away.id, odds: '100.00' }] },
      });
      legs.push({ ...away, odds: '100.00' });
    }
    const huge = await place(player.token, legs, '20.00', { lang: 'pt' });
    expect(huge.status).toBe(422);
    // 20 × 100³ = 20.000.000 > 100.000: at most 100.000 / 1.000.000 = 0,10 — the refusal names it.
    expect(huge.body).toMatchObject({
      code: 'SPORTS_MAX_PAYOUT',
      data: { max_payout: '100000.00', max: '0.10' },
    });
    expect(huge.body.message).toMatch(/R\$\s100\.000,00/);
    expect(huge.body.message).toContain('0,10');

    // Responsible gaming: a daily stake limit of R$ 25 (20 already staked today).
    const limit = await call(app, {
      method: 'POST',
      url: '/api/responsible-gaming/limits',
      token: player.token,
      payload: { kind: 'stake', period: 'day', value: '25' },
    });
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);
    const limited = await place(player.token, [event.sel('btts', 'yes')], '10.00', { lang: 'pt' });
    expect(limited.status).toBe(409);
    expect(limited.body.code).toBe('RG_STAKE_LIMIT');
    expect(limited.body.message).not.toContain('errors.');
    expect(await cash(player.memberId)).toBe(8_000n);
    const within = await place(player.token, [event.sel('btts', 'yes')], '5.00');
    expect(within.status).toBe(200);
  });
  it('collects a corrected payout the player had spent from the cash that comes in, once, in parts if need be', async () => {
    const match = await newEvent();
    const player = await fundedPlayer(app, 1_000n);
    const home = match.sel('1x2', 'home');
    const placed = await place(player.token, [home], '10.00');
    expect(placed.status).toBe(200);
    const betId = placed.body.data.bet.id as string;
    expect((await result(match.id, 2, 0)).status).toBe(200);
    const paid = await cash(player.memberId);
    expect(paid).toBe(returnOf(1_000n, [parseOdds(home.odds)!]));
    // The player loses the payout elsewhere but for R$ 1,00, then the result is corrected.
    await transfer(app.services.db, {
      siteId: site.id,
      kind: 'bet',
      from: { memberId: player.memberId, account: 'cash' },
      to: { system: 'house' },
      amountMinor: paid - 100n,
      idempotencyKey: `spent-${betId}`,
    });
    expect((await result(match.id, 0, 1)).status).toBe(200);
    expect(await cash(player.memberId)).toBe(0n);
    const owed = paid - 100n;
    const unrecovered = (token = operator) =>
      call(app, { method: 'GET', url: '/api/admin/sports/unrecovered', token });
    const list = await unrecovered();
    expect(list.body.data.list).toEqual([
      expect.objectContaining({ bet_id: betId, username: expect.any(String), owed: formatMinor(owed) }),
    ]);
    const collect = () =>
      call(app, { method: 'POST', url: `/api/admin/sports/bets/${betId}/collect`, token: operator });
    // Nothing to take yet.
    expect((await collect()).body.data.list).toEqual([
      expect.objectContaining({ bet_id: betId, collected: '0.00', still_owed: formatMinor(owed) }),
    ]);
    // A deposit of R$ 5,00: all of it goes to the debt; then one covering the rest.
    const deposit = (amountMinor: bigint, key: string) =>
      transfer(app.services.db, {
        siteId: site.id,
        kind: 'deposit',
        from: { system: 'psp_clearing' },
        to: { memberId: player.memberId, account: 'cash' },
        amountMinor,
        idempotencyKey: `${key}-${betId}`,
      });
    await deposit(500n, 'first');
    const [part] = (await collect()).body.data.list;
    expect(part).toMatchObject({ collected: '5.00', still_owed: formatMinor(owed - 500n) });
    await deposit(10_000n, 'second');
    const [rest] = (await collect()).body.data.list;
    expect(rest).toMatchObject({ collected: formatMinor(owed - 500n), still_owed: '0.00' });
    expect(await cash(player.memberId)).toBe(10_000n - (owed - 500n));
    expect((await collect()).body.data.list).toEqual([]);
    expect((await unrecovered()).body.data.list).toEqual([]);
    const finance = await loginOperator(app, 'finance');
    expect((await unrecovered(finance)).status).toBe(403);
    const collections = await rowsOf<{ amount: string }>(
      app.services.db,
      sql`SELECT amount_minor::text AS amount FROM wallet_transfers
          WHERE reference = ${`sports-bet:${betId}`} AND metadata->>'collection' = 'true' ORDER BY id`,
    );
    expect(collections.map((row) => row.amount)).toEqual(['500', String(owed - 500n)]);
    expect((await reconcile(app.services.db, { siteId: site.id })).drift).toEqual([]);
  });

  describe('in play', () => {
    const settings = (
      payload?: { in_play_delay_ms: number; score_suspension_seconds: number },
      token = operator,
    ) =>
      call(app, {
        method: payload ? 'PUT' : 'GET',
        url: '/api/admin/sports/settings',
        token,
        ...(payload ? { payload } : {}),
      });
    const live = (eventId: string, home: number, away: number) =>
      call(app, {
        method: 'POST',
        url: `/api/admin/sports/events/${eventId}/live`,
        token: operator,
        payload: { home_goals: home, away_goals: away },
      });
    const setOdds = (marketId: string, selectionId: string, odds: string) =>
      call(app, {
        method: 'POST',
        url: `/api/admin/sports/markets/${marketId}/odds`,
        token: operator,
        payload: { selections: [{ selection_id: selectionId, odds }] },
      });
    const marketStatus = async (eventId: string, type: string) => {
      const { body } = await call(app, { method: 'GET', url: `/api/sports/events/${eventId}` });
      return (body.data.event.markets as TMarket[]).find((m) => m.type === type)!.status;
    };

    it('settings come from the jurisdiction until an operator sets them; audited; other roles refused', async () => {
      const before = await settings();
      expect(before.status).toBe(200);
      expect(before.body.data).toEqual({ in_play_delay_ms: 5000, score_suspension_seconds: 60 });
      const set = await settings({ in_play_delay_ms: 1500, score_suspension_seconds: 90 });
      expect(set.body.data).toEqual({ in_play_delay_ms: 1500, score_suspension_seconds: 90 });
      expect((await settings()).body.data).toEqual({ in_play_delay_ms: 1500, score_suspension_seconds: 90 });
      const bad = await settings({ in_play_delay_ms: 60_000, score_suspension_seconds: 90 });
      expect(bad.status).toBe(422);
      const finance = await loginOperator(app, 'finance');
      expect((await settings({ in_play_delay_ms: 0, score_suspension_seconds: 0 }, finance)).status).toBe(
        403,
      );
      const [entry] = await rowsOf<{ before: unknown; after: unknown }>(
        app.services.db,
        sql`SELECT before, after FROM operator_actions WHERE action = 'sports.settings'
            AND site_id = ${site.id.toString()}::bigint ORDER BY id DESC LIMIT 1`,
      );
      expect(entry).toMatchObject({
        before: { in_play_delay_ms: 5000, score_suspension_seconds: 60 },
        after: { in_play_delay_ms: 1500, score_suspension_seconds: 90 },
      });
    });

    it('a bet on a live match waits the delay and is refused when the price moves meanwhile; taken when it holds', async () => {
      await settings({ in_play_delay_ms: 1500, score_suspension_seconds: 90 });
      const match = await newEvent();
      expect((await live(match.id, 0, 0)).status).toBe(200);
      const player = await fundedPlayer(app, 10_000n);
      const home = match.sel('1x2', 'home');
      // The price moves while the bet waits: with policy none the bet is refused and nothing moves.
      const pending = place(player.token, [home], '10.00');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await setOdds(match.markets['1x2']!.id, home.id, '1.50')).status).toBe(200);
      const moved = await pending;
      expect(moved.status).toBe(409);
      expect(moved.body).toMatchObject({
        code: 'ODDS_CHANGED',
        data: { changes: [{ selection_id: home.id, odds_now: '1.50' }] },
      });
      expect(await cash(player.memberId)).toBe(10_000n);
      // At the new price, unchanged during the delay: taken, after the delay.
      const started = Date.now();
      const taken = await place(player.token, [{ ...home, odds: '1.50' }], '10.00');
      expect(taken.status, JSON.stringify(taken.body)).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
      expect(taken.body.data.bet.legs[0].odds).toBe('1.50');
      expect(await cash(player.memberId)).toBe(9_000n);
    });

    it('a goal suspends the match markets until each is repriced or the window ends', async () => {
      await settings({ in_play_delay_ms: 0, score_suspension_seconds: 90 });
      const match = await newEvent();
      await live(match.id, 0, 0);
      expect(await marketStatus(match.id, '1x2')).toBe('open');
      const player = await fundedPlayer(app, 10_000n);
      // The first goal: every open market of the match is suspended at once.
      await live(match.id, 1, 0);
      expect(await marketStatus(match.id, '1x2')).toBe('suspended');
      expect(await marketStatus(match.id, 'btts')).toBe('suspended');
      const refused = await place(player.token, [match.sel('1x2', 'home')], '10.00');
      expect(refused.body.code).toBe('MARKET_SUSPENDED');
      expect(await cash(player.memberId)).toBe(10_000n);
      // Repriced: open again; the other markets stay suspended.
      const home = match.sel('1x2', 'home');
      await setOdds(match.markets['1x2']!.id, home.id, '1.30');
      expect(await marketStatus(match.id, '1x2')).toBe('open');
      expect(await marketStatus(match.id, 'btts')).toBe('suspended');
      expect((await place(player.token, [{ ...home, odds: '1.30' }], '10.00')).status).toBe(200);
      // The same score again is no goal; the window's end reopens the rest.
      const kickedOffAtOne = await newEvent();
      await live(kickedOffAtOne.id, 0, 1);
      expect(await marketStatus(kickedOffAtOne.id, '1x2')).toBe('suspended');
      await live(match.id, 1, 0);
      expect(await marketStatus(match.id, '1x2')).toBe('open');
      await app.services.db.execute(
        sql`UPDATE sports_markets SET suspended_until = now() - interval '1 second'
            WHERE event_id = ${match.id}::bigint AND suspended_until IS NOT NULL`,
      );
      expect(await marketStatus(match.id, 'btts')).toBe('open');
      expect((await place(player.token, [match.sel('btts', 'yes')], '10.00')).status).toBe(200);
      await settings({ in_play_delay_ms: 5000, score_suspension_seconds: 60 });
    });
  });
});
