import {
  AGGREGATOR_LANGUAGES,
  AGGREGATOR_SIGNATURE_HEADER,
  type TAggregatorLaunchRequest,
} from '@sorte/contract';
import { signBody, verifyBody } from '@sorte/provider-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createAggregator } from './aggregator.ts';
import { TEXTS } from './i18n.ts';
import { PendingCalls, playRound, SessionStore } from './play.ts';
import { WalletClient, WalletUnreachable } from './wallet-client.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';

const LAUNCH: TAggregatorLaunchRequest = {
  mode: 'real',
  token: 't'.repeat(43),
  user: '42',
  game_code: 'aurora-golden-macaw',
  game_name: 'Golden Macaw',
  brand: 'Aurora Gaming',
  category: 'slots',
  currency: 'BRL',
  lang: 'en',
  min_bet: '0.20',
  max_bet: '1000.00',
  balance: '10.00',
};

type TCall = { url: string; body: Record<string, unknown>; signature: string; raw: string };

/** A fake operator: answers each call from `answer`, records what it was sent. */
function operator(answer: (kind: string, body: Record<string, unknown>) => unknown) {
  const calls: TCall[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    const raw = String(init.body);
    const body = JSON.parse(raw) as Record<string, unknown>;
    calls.push({
      url,
      body,
      raw,
      signature: String((init.headers as Record<string, string>)[AGGREGATOR_SIGNATURE_HEADER]),
    });
    const result = answer(url.split('/').pop()!, body);
    if (result instanceof Error) throw result;
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof fetch;
  const wallet = new WalletClient({
    walletUrl: 'http://operator.test/api/providers/sorte-demo/wallet',
    secret: SECRET,
    fetch: fetchImpl,
    sleep: async () => undefined,
  });
  return { calls, wallet };
}

describe('wallet client', () => {
  it('retries an unanswered call with the same transaction id, each attempt signed afresh', async () => {
    let attempts = 0;
    const { calls, wallet } = operator(() => {
      attempts += 1;
      return attempts < 3 ? new TypeError('fetch failed') : { status: 'RS_OK', balance: '9.00' };
    });
    const answer = await wallet.call('bet', { transaction_uuid: 'bet-1', amount: '1.00' });
    expect(answer.status).toBe('RS_OK');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.body.transaction_uuid))).toEqual(new Set(['bet-1']));
    expect(new Set(calls.map((c) => c.body.request_uuid)).size).toBe(3);
    for (const call of calls) expect(verifyBody(SECRET, call.raw, call.signature)).toBe(true);
  });

  it('takes a definite RS answer as final and gives up after its attempts', async () => {
    const refused = operator(() => ({ status: 'RS_ERROR_NOT_ENOUGH_MONEY', balance: '0.50' }));
    expect((await refused.wallet.call('bet', { transaction_uuid: 'b' })).status).toBe(
      'RS_ERROR_NOT_ENOUGH_MONEY',
    );
    expect(refused.calls).toHaveLength(1);
    const down = operator(() => new TypeError('connection refused'));
    await expect(down.wallet.call('bet', { transaction_uuid: 'b' })).rejects.toBeInstanceOf(
      WalletUnreachable,
    );
    expect(down.calls).toHaveLength(3);
  });
});

describe('rounds', () => {
  const store = new SessionStore();

  it('takes the bet, then reports the win that closes the round', async () => {
    const session = store.create(LAUNCH);
    const { calls, wallet } = operator((kind) => ({
      status: 'RS_OK',
      balance: kind === 'bet' ? '9.00' : '9.50',
    }));
    const result = await playRound(
      session,
      { betMinor: 100n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result.ok).toBe(true);
    expect(calls.map((c) => c.url.split('/').pop())).toEqual(['bet', 'win']);
    const [bet, win] = calls;
    expect(bet!.body).toMatchObject({
      token: LAUNCH.token,
      amount: '1.00',
      currency: 'BRL',
      game_code: LAUNCH.game_code,
    });
    expect(win!.body).toMatchObject({
      reference_transaction_uuid: bet!.body.transaction_uuid,
      round: bet!.body.round,
      round_closed: true,
    });
  });

  it('tells the player about a short balance and sends no win', async () => {
    const session = store.create(LAUNCH);
    const { calls, wallet } = operator(() => ({ status: 'RS_ERROR_NOT_ENOUGH_MONEY', balance: '0.10' }));
    const result = await playRound(
      session,
      { betMinor: 100n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result).toEqual({ ok: false, error: 'not_enough_money', balanceMinor: 10n });
    expect(calls).toHaveLength(1);
  });

  it('tells the player a bet is above the bonus max bet, without rolling it back or sending a win', async () => {
    const session = store.create(LAUNCH);
    const { calls, wallet } = operator(() => ({ status: 'RS_ERROR_BET_LIMIT_EXCEEDED', balance: '20.00' }));
    const result = await playRound(
      session,
      { betMinor: 1_000n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result).toEqual({ ok: false, error: 'bet_limit', balanceMinor: 2_000n });
    expect(calls).toHaveLength(1);
  });

  it('tells the player a limit they set refuses the bet, without rolling it back or sending a win', async () => {
    const session = store.create(LAUNCH);
    const { calls, wallet } = operator(() => ({ status: 'RS_ERROR_LIMIT_REACHED', balance: '20.00' }));
    const result = await playRound(
      session,
      { betMinor: 1_000n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result).toEqual({ ok: false, error: 'play_limit', balanceMinor: 2_000n });
    expect(calls).toHaveLength(1);
  });

  it('rolls back a bet whose fate is unknown, under the same bet id', async () => {
    const session = store.create(LAUNCH);
    const { calls, wallet } = operator((kind) =>
      kind === 'bet' ? new TypeError('socket hang up') : { status: 'RS_OK', balance: '10.00' },
    );
    const result = await playRound(
      session,
      { betMinor: 100n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result).toMatchObject({ ok: false, error: 'round_cancelled', balanceMinor: 1_000n });
    const bets = calls.filter((c) => c.url.endsWith('/bet'));
    const rollback = calls.find((c) => c.url.endsWith('/rollback'))!;
    expect(bets).toHaveLength(3);
    expect(rollback.body.reference_transaction_uuid).toBe(bets[0]!.body.transaction_uuid);
  });

  it('keeps an undelivered win for later, with the same transaction id', async () => {
    const session = store.create(LAUNCH);
    let winReachable = false;
    const { calls, wallet } = operator((kind) =>
      kind === 'win' && !winReachable ? new TypeError('timeout') : { status: 'RS_OK', balance: '9.00' },
    );
    const pending = new PendingCalls(wallet, 60_000);
    const result = await playRound(session, { betMinor: 100n }, { wallet, pending });
    expect(result.ok).toBe(true);
    expect(pending.length).toBe(1);
    winReachable = true;
    await pending.flush();
    pending.stop();
    expect(pending.length).toBe(0);
    const wins = calls.filter((c) => c.url.endsWith('/win'));
    expect(new Set(wins.map((c) => c.body.transaction_uuid)).size).toBe(1);
    expect(wins.length).toBe(4);
  });

  it('plays demo rounds with its own fun money and never calls the operator', async () => {
    const session = store.create({ ...LAUNCH, mode: 'demo', token: undefined, balance: undefined });
    const { calls, wallet } = operator(() => ({ status: 'RS_OK' }));
    const before = session.balanceMinor;
    const result = await playRound(
      session,
      { betMinor: 500n },
      { wallet, pending: new PendingCalls(wallet) },
    );
    expect(result.ok).toBe(true);
    if (result.ok) expect(session.balanceMinor).toBe(before - 500n + result.winMinor);
    expect(calls).toEqual([]);
  });
});

describe('aggregator HTTP', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((a) => a.close()));
  });

  async function start() {
    const aggregator = createAggregator({
      secret: SECRET,
      walletUrl: 'http://127.0.0.1:9/wallet',
      publicUrl: 'http://games.test',
    });
    opened.push(aggregator);
    await aggregator.app.ready();
    return aggregator;
  }
  const launch = async (aggregator: Awaited<ReturnType<typeof start>>, body: unknown, signature?: string) => {
    const raw = JSON.stringify(body);
    return aggregator.app.inject({
      method: 'POST',
      url: '/api/v1/launch',
      headers: {
        'content-type': 'application/json',
        [AGGREGATOR_SIGNATURE_HEADER]: signature ?? signBody(SECRET, raw),
      },
      payload: raw,
    });
  };

  it('launches only on a signed, valid request', async () => {
    const aggregator = await start();
    expect((await launch(aggregator, LAUNCH, '0'.repeat(64))).statusCode).toBe(401);
    expect((await launch(aggregator, { ...LAUNCH, currency: 'USD' })).statusCode).toBe(400);
    expect((await launch(aggregator, { ...LAUNCH, token: undefined })).statusCode).toBe(400);
    const ok = await launch(aggregator, LAUNCH);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().game_url).toMatch(
      /^http:\/\/games\.test\/games\/aurora-golden-macaw\?session=[\w-]{32}$/,
    );
  });

  it('renders the game page in each of the eight languages, and a translated page for a dead link', async () => {
    const aggregator = await start();
    for (const lang of AGGREGATOR_LANGUAGES) {
      for (const category of ['slots', 'live_casino']) {
        const url = new URL((await launch(aggregator, { ...LAUNCH, lang, category })).json().game_url);
        const page = await aggregator.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-security-policy']).toContain("script-src 'nonce-");
        const t = TEXTS[lang];
        expect(page.body).toContain(category === 'slots' ? t.spin : t.deal);
        expect(page.body).toContain(category === 'slots' ? t.rules_slot : t.rules_table);
        expect(page.body).toContain('class="emblem"');
      }
    }
    const dead = await aggregator.app.inject({
      method: 'GET',
      url: '/games/aurora-golden-macaw?session=nope&lang=th',
    });
    expect(dead.statusCode).toBe(404);
    expect(dead.body).toContain(TEXTS.th.unknown_session);
  });

  it('refuses bets outside the limits and plays a demo round', async () => {
    const aggregator = await start();
    const url = new URL(
      (await launch(aggregator, { ...LAUNCH, mode: 'demo', token: undefined })).json().game_url,
    );
    const session = url.searchParams.get('session');
    const play = (body: unknown) =>
      aggregator.app.inject({
        method: 'POST',
        url: `/api/v1/sessions/${session}/play`,
        payload: body as object,
      });
    expect((await play({ bet: '0.10' })).statusCode).toBe(400);
    expect((await play({ bet: '2000.00' })).statusCode).toBe(400);
    expect((await play({ bet: '1.05' })).statusCode).toBe(400);
    const round = await play({ bet: '1.00' });
    expect(round.statusCode).toBe(200);
    expect(round.json()).toMatchObject({ ok: true, bet: '1.00' });
    expect(
      (
        await aggregator.app.inject({
          method: 'POST',
          url: '/api/v1/sessions/unknown-session-id-123/play',
          payload: { bet: '1.00' },
        })
      ).statusCode,
    ).toBe(404);
  });
});
