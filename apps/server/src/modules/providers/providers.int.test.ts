import { randomUUID } from 'node:crypto';
import { AGGREGATOR_SIGNATURE_HEADER, type TWalletResponse } from '@sorte/contract';
import { signBody, slotRtp, TABLE_RTP, WalletClient } from '@sorte/game-aggregator';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, call, fundedPlayer, registerPlayer } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import { rowsOf } from '../../db/sql.ts';
import { getBalances } from '../wallet/balances.ts';
import { grantBonus } from '../wallet/bonus/grants.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { transfer } from '../wallet/wallet.service.ts';
import { type AggregatorConnection, connectAggregator } from './aggregator.connection.ts';
import { openProviderSession } from './providers.service.ts';

const kinds = await databaseKinds();
const AGGREGATOR = 'sorte-demo';
const SLOT = 'aurora-golden-macaw';
const TABLE = 'lumenlive-speed-baccarat';

/** What the aggregator's play API answers the game page. */
type TPlayAnswer = {
  ok: boolean;
  win: string;
  balance: string;
  error?: string;
  message?: string;
  outcome: { kind: string };
};

describe.each(kinds)('third-party games (seamless wallet) on %s', (kind) => {
  let app: FastifyInstance;
  let connection: AggregatorConnection;
  let siteId: bigint;
  let walletUrl: string;

  beforeAll(async () => {
    app = await buildTestApp(kind);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    walletUrl = `${address}/api/providers/${AGGREGATOR}/wallet`;
    connection = await connectAggregator({ id: AGGREGATOR }, { walletUrl, sandboxPort: 0 });
    app.aggregator.attach(connection);
    siteId = (await app.services.sites.byCode('sorte'))!.id;
  });
  afterAll(async () => {
    await app.aggregator.close();
    await app.close();
  });

  async function gameId(code: string): Promise<bigint> {
    const [row] = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id FROM games WHERE code = ${code}`,
    );
    return BigInt(row!.id);
  }

  /** A new member (unique, so no other suite's data is touched) with `fundMinor` cash and a session. */
  async function player(fundMinor: bigint, game = SLOT) {
    const registered = await fundedPlayer(app, fundMinor);
    const memberId = registered.memberId;
    const session = await openProviderSession(app.services.db, {
      aggregator: AGGREGATOR,
      siteId,
      memberId,
      gameId: await gameId(game),
    });
    return { memberId, token: session.token, sessionId: session.sessionId, auth: registered.token, game };
  }

  const cash = async (memberId: bigint) => (await getBalances(app.services.db, memberId)).cashMinor;

  async function wallet(
    path: string,
    body: Record<string, unknown>,
    options: { signature?: string | null; provider?: string } = {},
  ): Promise<TWalletResponse> {
    const raw = JSON.stringify({ request_uuid: randomUUID(), ...body });
    const signature = options.signature === undefined ? signBody(connection.secret, raw) : options.signature;
    const response = await app.inject({
      method: 'POST',
      url: `/api/providers/${options.provider ?? AGGREGATOR}/wallet/${path}`,
      headers: {
        host: 'localhost',
        'content-type': 'application/json',
        ...(signature === null ? {} : { [AGGREGATOR_SIGNATURE_HEADER]: signature }),
      },
      payload: raw,
    });
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  type TPlayer = Awaited<ReturnType<typeof player>>;
  const bet = (p: TPlayer, id: string, round: string, amount: string, extra: Record<string, unknown> = {}) =>
    wallet('bet', {
      token: p.token,
      game_code: p.game,
      transaction_uuid: id,
      round,
      amount,
      currency: 'BRL',
      ...extra,
    });
  const win = (p: TPlayer, id: string, betId: string, round: string, amount: string) =>
    wallet('win', {
      token: p.token,
      game_code: p.game,
      transaction_uuid: id,
      reference_transaction_uuid: betId,
      round,
      amount,
      currency: 'BRL',
      round_closed: true,
    });
  const rollback = (p: TPlayer, id: string, betId: string, round: string) =>
    wallet('rollback', {
      token: p.token,
      game_code: p.game,
      transaction_uuid: id,
      reference_transaction_uuid: betId,
      round,
    });
  const ids = () => {
    const base = randomUUID();
    return { round: `r-${base}`, bet: `b-${base}`, win: `w-${base}`, rollback: `rb-${base}` };
  };
  async function transfersOf(memberId: bigint) {
    return rowsOf<{ kind: string; amount_minor: string }>(
      app.services.db,
      sql`SELECT t.kind, t.amount_minor::text AS amount_minor FROM wallet_transfers t JOIN wallet_accounts a
            ON a.id IN (t.debit_account_id, t.credit_account_id)
          WHERE a.member_id = ${memberId.toString()}::bigint AND t.kind IN ('bet', 'win', 'refund')
          ORDER BY t.id`,
    );
  }
  async function roundOf(round: string) {
    const [row] = await rowsOf<{
      status: string;
      stake_minor: string;
      payout_minor: string;
      refunded_minor: string;
    }>(
      app.services.db,
      sql`SELECT status, stake_minor::text AS stake_minor, payout_minor::text AS payout_minor,
            refunded_minor::text AS refunded_minor FROM provider_rounds
          WHERE aggregator = ${AGGREGATOR} AND round_ref = ${round}`,
    );
    return row ?? null;
  }

  it('refuses unsigned, forged and unknown-aggregator calls and moves nothing', async () => {
    const p = await player(10_000n);
    const t = ids();
    const body = {
      token: p.token,
      game_code: p.game,
      transaction_uuid: t.bet,
      round: t.round,
      amount: '1.00',
      currency: 'BRL',
    };
    expect((await wallet('bet', body, { signature: null })).status).toBe('RS_ERROR_INVALID_SIGNATURE');
    expect((await wallet('bet', body, { signature: '0'.repeat(64) })).status).toBe(
      'RS_ERROR_INVALID_SIGNATURE',
    );
    expect(
      (await wallet('bet', body, { signature: signBody('another-secret-of-32-characters!!', '{}') })).status,
    ).toBe('RS_ERROR_INVALID_SIGNATURE');
    expect((await wallet('bet', body, { provider: 'someone-else' })).status).toBe(
      'RS_ERROR_INVALID_SIGNATURE',
    );
    // The signature covers the exact bytes: a body changed after signing is refused.
    const raw = JSON.stringify(body);
    const forged = await app.inject({
      method: 'POST',
      url: `/api/providers/${AGGREGATOR}/wallet/bet`,
      headers: {
        'content-type': 'application/json',
        [AGGREGATOR_SIGNATURE_HEADER]: signBody(connection.secret, raw),
      },
      payload: raw.replace('"1.00"', '"0.01"'),
    });
    expect(forged.json().status).toBe('RS_ERROR_INVALID_SIGNATURE');
    expect(await cash(p.memberId)).toBe(10_000n);
    expect(await roundOf(t.round)).toBeNull();
  });

  it('answers balance, takes a bet and pays a win through the wallet, and settles the round', async () => {
    const p = await player(10_000n);
    const balance = await wallet('balance', { token: p.token, game_code: p.game, currency: 'BRL' });
    expect(balance).toMatchObject({
      status: 'RS_OK',
      balance: '100.00',
      currency: 'BRL',
      user: p.memberId.toString(),
    });
    const t = ids();
    const pushes = vi.spyOn(app.realtime, 'publishBalance');
    expect(await bet(p, t.bet, t.round, '2.50')).toMatchObject({ status: 'RS_OK', balance: '97.50' });
    // The player's other screens hear of it at once (the live balance push).
    expect(pushes).toHaveBeenCalledWith(siteId, p.memberId, 'provider_bet');
    pushes.mockRestore();
    expect(await roundOf(t.round)).toMatchObject({ status: 'open', stake_minor: '250' });
    expect(await win(p, t.win, t.bet, t.round, '10.00')).toMatchObject({
      status: 'RS_OK',
      balance: '107.50',
    });
    expect(await cash(p.memberId)).toBe(10_750n);
    expect(await roundOf(t.round)).toMatchObject({
      status: 'settled',
      stake_minor: '250',
      payout_minor: '1000',
    });
    expect(await transfersOf(p.memberId)).toEqual([
      { kind: 'bet', amount_minor: '250' },
      { kind: 'win', amount_minor: '1000' },
    ]);
    // A closed round takes no more bets.
    expect((await bet(p, `b-${randomUUID()}`, t.round, '1.00')).status).toBe('RS_ERROR_ROUND_CLOSED');
  });

  it('answers a retried transaction id with the same answer and moves the money once', async () => {
    const p = await player(10_000n);
    const t = ids();
    const first = await bet(p, t.bet, t.round, '3.00');
    const again = await bet(p, t.bet, t.round, '3.00');
    expect(again).toEqual(first);
    const won = await win(p, t.win, t.bet, t.round, '1.00');
    expect(await win(p, t.win, t.bet, t.round, '1.00')).toEqual(won);
    expect(await cash(p.memberId)).toBe(10_000n - 300n + 100n);
    expect(await transfersOf(p.memberId)).toHaveLength(2);
  });

  it('refuses a transaction id reused with a different body', async () => {
    const p = await player(10_000n);
    const t = ids();
    expect((await bet(p, t.bet, t.round, '1.00')).status).toBe('RS_OK');
    expect((await bet(p, t.bet, t.round, '2.00')).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    expect((await bet(p, t.bet, `r-${randomUUID()}`, '1.00')).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    // A win cannot reuse a bet's id either.
    expect((await win(p, t.bet, t.bet, t.round, '1.00')).status).toBe('RS_ERROR_DUPLICATE_TRANSACTION');
    expect(await cash(p.memberId)).toBe(9_900n);
  });

  it('refuses a bet above the balance with the balance, and records nothing', async () => {
    const p = await player(500n);
    const t = ids();
    expect(await bet(p, t.bet, t.round, '5.01')).toMatchObject({
      status: 'RS_ERROR_NOT_ENOUGH_MONEY',
      balance: '5.00',
    });
    expect(await cash(p.memberId)).toBe(500n);
    expect(await roundOf(t.round)).toBeNull();
    // The same id can be used once the balance covers it (a refusal leaves no trace).
    expect((await bet(p, t.bet, t.round, '5.00')).status).toBe('RS_OK');
    expect(await cash(p.memberId)).toBe(0n);
  });

  it('refuses a bet above the max bet of a bonus still wagering as RS_ERROR_BET_LIMIT_EXCEEDED; a bonus-funded win goes back to the bonus', async () => {
    const p = await player(0n);
    await grantBonus(app.services.db, {
      siteId,
      memberId: p.memberId,
      campaignCode: 'provider_test',
      periodKey: randomUUID(),
      amountMinor: 2_000n,
      wageringRequiredMinor: 10_000n,
      maxBetMinor: 500n,
      locksCash: true,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
      terms: {},
    });
    const over = ids();
    expect(await bet(p, over.bet, over.round, '10.00')).toMatchObject({
      status: 'RS_ERROR_BET_LIMIT_EXCEEDED',
      balance: '20.00',
      currency: 'BRL',
    });
    expect(await transfersOf(p.memberId)).toEqual([]);
    // A smaller bet passes; its win was staked with bonus, so it stays bonus under the wagering.
    const r = ids();
    expect(await bet(p, r.bet, r.round, '5.00')).toMatchObject({ status: 'RS_OK', balance: '15.00' });
    expect(await win(p, r.win, r.bet, r.round, '10.00')).toMatchObject({ status: 'RS_OK', balance: '25.00' });
    expect(await getBalances(app.services.db, p.memberId)).toMatchObject({
      cashMinor: 0n,
      bonusMinor: 2_500n,
    });
  });

  it('a rolled-back bet paid partly with bonus gives each part back where it came from, and its wagering', async () => {
    const p = await player(300n);
    const { grant } = await grantBonus(app.services.db, {
      siteId,
      memberId: p.memberId,
      campaignCode: 'provider_test',
      periodKey: randomUUID(),
      amountMinor: 2_000n,
      wageringRequiredMinor: 10_000n,
      maxBetMinor: null,
      locksCash: true,
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
      terms: {},
    });
    const grantRow = async () =>
      (
        await rowsOf<{ balance_minor: string; wagering_done_minor: string }>(
          app.services.db,
          sql`SELECT balance_minor::text, wagering_done_minor::text FROM bonus_grants WHERE id = ${grant.id.toString()}::bigint`,
        )
      )[0];
    // 5.00 staked: 3.00 cash, 2.00 bonus; it counts 5.00 towards the grant's wagering.
    const t = ids();
    expect(await bet(p, t.bet, t.round, '5.00')).toMatchObject({ status: 'RS_OK', balance: '18.00' });
    expect(await grantRow()).toEqual({ balance_minor: '1800', wagering_done_minor: '500' });
    const answer = await rollback(p, t.rollback, t.bet, t.round);
    expect(answer).toMatchObject({ status: 'RS_OK', balance: '23.00' });
    // Once, however often it comes.
    expect((await rollback(p, t.rollback, t.bet, t.round)).status).toBe('RS_OK');
    expect(await getBalances(app.services.db, p.memberId)).toMatchObject({
      cashMinor: 300n,
      bonusMinor: 2_000n,
    });
    expect(await grantRow()).toEqual({ balance_minor: '2000', wagering_done_minor: '0' });
    const report = await reconcile(app.services.db, { siteId });
    expect(report.drift).toEqual([]);
  });

  it('refunds a rolled-back bet once, however often and under whichever ids the rollback comes', async () => {
    const p = await player(10_000n);
    const t = ids();
    await bet(p, t.bet, t.round, '4.00');
    const first = await rollback(p, t.rollback, t.bet, t.round);
    expect(first).toMatchObject({ status: 'RS_OK', balance: '100.00' });
    expect(await rollback(p, t.rollback, t.bet, t.round)).toEqual(first);
    expect((await rollback(p, `rb2-${randomUUID()}`, t.bet, t.round)).status).toBe('RS_OK');
    expect(await cash(p.memberId)).toBe(10_000n);
    expect(await transfersOf(p.memberId)).toEqual([
      { kind: 'bet', amount_minor: '400' },
      { kind: 'refund', amount_minor: '400' },
    ]);
    expect(await roundOf(t.round)).toMatchObject({ status: 'rolled_back', refunded_minor: '400' });
    // Nothing is paid for a rolled-back round.
    expect((await win(p, t.win, t.bet, t.round, '8.00')).status).toBe('RS_ERROR_TRANSACTION_ROLLED_BACK');
    expect(await cash(p.memberId)).toBe(10_000n);
  });

  it('gives back the wagering a rolled-back bet took off, so an undone bet never counts as play', async () => {
    const p = await player(0n);
    await transfer(app.services.db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId: p.memberId, account: 'cash' },
      amountMinor: 10_000n,
      wageringAddMinor: 1_000n,
      idempotencyKey: `test-fund:${randomUUID()}`,
    });
    const wagering = async () =>
      (await getBalances(app.services.db, p.memberId, { siteId })).wageringRequiredMinor;
    const t = ids();
    await bet(p, t.bet, t.round, '4.00');
    expect(await wagering()).toBe(600n);
    expect((await rollback(p, t.rollback, t.bet, t.round)).status).toBe('RS_OK');
    expect(await wagering()).toBe(1_000n);
    // A bet that stands keeps counting.
    const kept = ids();
    await bet(p, kept.bet, kept.round, '2.00');
    expect((await win(p, kept.win, kept.bet, kept.round, '0.00')).status).toBe('RS_OK');
    expect(await wagering()).toBe(800n);
    const report = await reconcile(app.services.db, { siteId });
    expect(report.drift).toEqual([]);
  });

  it('answers a rollback of an unknown bet with RS_OK and refuses that bet when it arrives late', async () => {
    const p = await player(10_000n);
    const t = ids();
    expect((await rollback(p, t.rollback, t.bet, t.round)).status).toBe('RS_OK');
    expect((await bet(p, t.bet, t.round, '1.00')).status).toBe('RS_ERROR_TRANSACTION_ROLLED_BACK');
    expect(await cash(p.memberId)).toBe(10_000n);
    expect(await transfersOf(p.memberId)).toEqual([]);
  });

  it('refuses wins for unknown rounds or bets, and rollbacks of a round that paid', async () => {
    const p = await player(10_000n);
    const t = ids();
    expect((await win(p, t.win, t.bet, t.round, '1.00')).status).toBe('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    await bet(p, t.bet, t.round, '1.00');
    expect((await win(p, t.win, `b-${randomUUID()}`, t.round, '1.00')).status).toBe(
      'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
    );
    expect((await win(p, t.win, t.bet, t.round, '1.50')).status).toBe('RS_OK');
    expect((await rollback(p, t.rollback, t.bet, t.round)).status).toBe('RS_ERROR_ROUND_CLOSED');
    expect(await cash(p.memberId)).toBe(10_050n);
  });

  it('checks token, game, currency and body types', async () => {
    const p = await player(10_000n);
    const t = ids();
    expect((await bet({ ...p, token: 'x'.repeat(43) }, t.bet, t.round, '1.00')).status).toBe(
      'RS_ERROR_INVALID_TOKEN',
    );
    expect((await bet({ ...p, game: TABLE }, t.bet, t.round, '1.00')).status).toBe('RS_ERROR_INVALID_TOKEN');
    expect((await bet(p, t.bet, t.round, '1.00', { currency: 'USD' })).status).toBe(
      'RS_ERROR_WRONG_CURRENCY',
    );
    expect((await bet(p, t.bet, t.round, '-1.00')).status).toBe('RS_ERROR_WRONG_TYPES');
    expect((await bet(p, t.bet, t.round, '0.00')).status).toBe('RS_ERROR_WRONG_TYPES');
    expect((await bet(p, t.bet, t.round, '1.001')).status).toBe('RS_ERROR_WRONG_TYPES');
    expect((await bet(p, t.bet, t.round, '1.00', { member_id: 1 })).status).toBe('RS_ERROR_WRONG_TYPES');
    const garbage = await app.inject({
      method: 'POST',
      url: `/api/providers/${AGGREGATOR}/wallet/bet`,
      headers: {
        'content-type': 'application/json',
        [AGGREGATOR_SIGNATURE_HEADER]: signBody(connection.secret, '{no'),
      },
      payload: '{no',
    });
    expect(garbage.json().status).toBe('RS_ERROR_WRONG_TYPES');
    expect(await cash(p.memberId)).toBe(10_000n);
  });

  it('refuses balance and bets on an expired token but still lands the win of a bet taken before', async () => {
    const p = await player(10_000n);
    const t = ids();
    await bet(p, t.bet, t.round, '1.00');
    await app.services.db.execute(
      sql`UPDATE provider_sessions SET created_at = now() - interval '3 hours', expires_at = now() - interval '1 hour'
          WHERE id = ${p.sessionId.toString()}::bigint`,
    );
    expect((await wallet('balance', { token: p.token, game_code: p.game })).status).toBe(
      'RS_ERROR_TOKEN_EXPIRED',
    );
    expect((await bet(p, `b-${randomUUID()}`, `r-${randomUUID()}`, '1.00')).status).toBe(
      'RS_ERROR_TOKEN_EXPIRED',
    );
    expect((await win(p, t.win, t.bet, t.round, '3.00')).status).toBe('RS_OK');
    expect(await cash(p.memberId)).toBe(10_200n);
  });

  it('sweeps launches nobody played once they are a day past expiry, and keeps sessions with rounds', async () => {
    const idle = await player(0n);
    const played = await player(1_000n);
    const t = ids();
    await bet(played, t.bet, t.round, '1.00');
    for (const p of [idle, played]) {
      await app.services.db.execute(
        sql`UPDATE provider_sessions SET created_at = now() - interval '3 days', expires_at = now() - interval '2 days'
            WHERE id = ${p.sessionId.toString()}::bigint`,
      );
    }
    await player(0n); // a new launch sweeps
    const left = await rowsOf<{ id: string }>(
      app.services.db,
      sql`SELECT id::text AS id FROM provider_sessions
          WHERE id IN (${idle.sessionId.toString()}::bigint, ${played.sessionId.toString()}::bigint)`,
    );
    expect(left.map((r) => r.id)).toEqual([played.sessionId.toString()]);
  });

  it('never overdraws under concurrent bets, and runs a concurrently retried id once', async () => {
    const p = await player(500n);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => {
        const t = ids();
        return bet(p, t.bet, t.round, '1.00');
      }),
    );
    expect(answers.filter((a) => a.status === 'RS_OK')).toHaveLength(5);
    expect(answers.filter((a) => a.status === 'RS_ERROR_NOT_ENOUGH_MONEY')).toHaveLength(3);
    expect(await cash(p.memberId)).toBe(0n);

    const q = await player(1_000n);
    const t = ids();
    const same = await Promise.all(Array.from({ length: 5 }, () => bet(q, t.bet, t.round, '2.00')));
    for (const answer of same) expect(answer).toEqual(same[0]);
    expect(same[0]!.status).toBe('RS_OK');
    expect(await cash(q.memberId)).toBe(800n);
  });

  it("takes a bet once when the aggregator's client retries after losing our answer", async () => {
    const p = await player(1_000n);
    let attempt = 0;
    // The first attempt reaches us and is executed, but its answer is lost on the way back.
    const lossy = (async (input: string, init: RequestInit) => {
      attempt += 1;
      const response = await fetch(input, init);
      if (attempt === 1) throw new TypeError('socket hang up');
      return response;
    }) as unknown as typeof fetch;
    const client = new WalletClient({
      walletUrl,
      secret: connection.secret,
      fetch: lossy,
      sleep: async () => undefined,
    });
    const t = ids();
    const answer = await client.call('bet', {
      token: p.token,
      game_code: p.game,
      transaction_uuid: t.bet,
      round: t.round,
      amount: '2.00',
      currency: 'BRL',
    });
    expect(attempt).toBe(2);
    expect(answer).toMatchObject({ status: 'RS_OK', balance: '8.00' });
    expect(await cash(p.memberId)).toBe(800n);
    expect(await transfersOf(p.memberId)).toEqual([{ kind: 'bet', amount_minor: '200' }]);
  });

  it('launches a member into the demo aggregator, whose rounds move real money through our wallet', async () => {
    const registered = await registerPlayer(app);
    const memberId = BigInt(registered.user.id);
    await transfer(app.services.db, {
      siteId,
      kind: 'deposit',
      from: { system: 'psp_clearing' },
      to: { memberId, account: 'cash' },
      amountMinor: 5_000n,
      idempotencyKey: `test-fund:${randomUUID()}`,
    });
    const relay = await call(app, {
      method: 'POST',
      url: '/api/day7/day7LoginV2',
      token: registered.token,
      payload: { name: SLOT },
    });
    expect(relay.status).toBe(200);
    expect(relay.body.data).toMatchObject({ url: `/play?game=${SLOT}`, mode: 'real', balance: '50.00' });

    const launch = await call(app, {
      method: 'POST',
      url: '/api/providers/launch?lang=pt',
      token: registered.token,
      payload: { game: SLOT },
    });
    expect(launch.status).toBe(200);
    expect(launch.body.data).toMatchObject({ mode: 'real', balance: '50.00', game: { code: SLOT } });
    const gameUrl = new URL(launch.body.data.game_url);
    expect(gameUrl.origin).toBe(connection.origin);
    // The player site may frame the aggregator's pages, and only those.
    const page = await app.inject({ method: 'GET', url: '/', headers: { host: 'localhost' } });
    expect(String(page.headers['content-security-policy'])).toContain(
      `frame-src 'self' ${connection.origin}`,
    );

    const html = await fetch(gameUrl).then((r) => r.text());
    expect(html).toContain('Girar'); // launched in Portuguese
    const session = gameUrl.searchParams.get('session')!;
    const played = await fetch(`${connection.origin}/api/v1/sessions/${session}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bet: '1.00' }),
    }).then((r) => r.json() as Promise<TPlayAnswer>);
    expect(played.ok).toBe(true);
    const expected = 5_000n - 100n + BigInt(played.win.replace('.', ''));
    expect(await cash(memberId)).toBe(expected);
    expect(played.balance).toBe(`${expected / 100n}.${String(expected % 100n).padStart(2, '0')}`);
    const rounds = await rowsOf<{ status: string; stake_minor: string }>(
      app.services.db,
      sql`SELECT status, stake_minor::text AS stake_minor FROM provider_rounds WHERE member_id = ${memberId.toString()}::bigint`,
    );
    expect(rounds).toEqual([{ status: 'settled', stake_minor: '100' }]);

    // The round is in the player's game record under the provider's brand, paged like the others.
    const record = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: registered.token,
      payload: {},
    });
    expect(record.status).toBe(200);
    const [entry] = record.body.data.list;
    expect(entry).toMatchObject({
      brand: 'Aurora Gaming',
      name: 'Golden Macaw',
      game: SLOT,
      bet_amount: '1.00',
      status: 'settled',
    });
    expect(entry.payout).toBe(played.win);
    expect(BigInt(entry.id)).toBeGreaterThan(800_000_000_000_000_000n);
    expect(record.body.data.totals).toMatchObject({ count: 1, bet_amount: '1.00' });
    const filtered = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: registered.token,
      payload: { game: 'dice' },
    });
    expect(filtered.body.data.list).toEqual([]);
    const older = await call(app, {
      method: 'POST',
      url: '/api/game/record',
      token: registered.token,
      payload: { before_id: entry.id },
    });
    expect(older.body.data.list).toEqual([]);
    // Its details: the provider's round id and wallet calls, no seed pair (the provider's RNG).
    const details = await call(app, {
      method: 'POST',
      url: '/api/game/record/details',
      token: registered.token,
      payload: { id: entry.id },
    });
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({
      id: entry.id,
      game: SLOT,
      status: 'settled',
      stake: '1.00',
      payout: played.win,
      fairness: null,
      params: { provider: 'Aurora Gaming' },
    });
    const calls = details.body.data.outcome.transactions as { kind: string; amount: string }[];
    expect(calls[0]).toMatchObject({ kind: 'bet', amount: '1.00' });
    // The aggregator closes every round with one win call, 0.00 on a loss.
    expect(calls.filter((c) => c.kind === 'win').map((c) => c.amount)).toEqual([played.win]);
    const stranger = await registerPlayer(app);
    const foreign = await call(app, {
      method: 'POST',
      url: '/api/game/record/details',
      token: stranger.token,
      payload: { id: entry.id },
    });
    expect(foreign.body.code).toBe('NOT_FOUND');

    // A bet beyond the balance comes back as the translated refusal, nothing taken.
    const before = await cash(memberId);
    const tooMuch = await fetch(`${connection.origin}/api/v1/sessions/${session}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bet: '100.00' }),
    }).then((r) => r.json() as Promise<TPlayAnswer>);
    expect(tooMuch).toMatchObject({ ok: false, error: 'not_enough_money' });
    expect(tooMuch.message).toContain('Saldo insuficiente');
    expect(await cash(memberId)).toBe(before);
  });

  it('gives a guest the fun-money mode without touching any wallet', async () => {
    const catalogue = await call(app, {
      method: 'GET',
      url: '/api/games/listsv2?platType=lumenlive&page_size=100',
    });
    expect(catalogue.body.data.list.length).toBeGreaterThan(0);
    for (const game of catalogue.body.data.list) {
      expect(game.has_demo).toBe(true);
      // The catalogue shows the return of the engine the title plays on (migration 0010).
      expect([game.rtp, game.rtp_max]).toEqual([TABLE_RTP.tie.toFixed(2), TABLE_RTP.banker.toFixed(2)]);
    }
    const slots = await call(app, {
      method: 'GET',
      url: '/api/games/listsv2?platType=aurora&category=slots',
    });
    expect(slots.body.data.list.length).toBeGreaterThan(0);
    for (const game of slots.body.data.list) expect(game.rtp).toBe(slotRtp().toFixed(2));
    const relay = await call(app, { method: 'POST', url: '/api/day7/day7LoginV2', payload: { name: TABLE } });
    expect(relay.body.data).toMatchObject({ url: `/play?game=${TABLE}&mode=demo`, mode: 'demo' });
    const launch = await call(app, {
      method: 'POST',
      url: '/api/providers/launch',
      payload: { game: TABLE },
    });
    expect(launch.body.data).toMatchObject({ mode: 'demo', balance: null });
    const session = new URL(launch.body.data.game_url).searchParams.get('session')!;
    const played = await fetch(`${connection.origin}/api/v1/sessions/${session}/play`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ bet: '1.00', side: 'banker' }),
    }).then((r) => r.json() as Promise<TPlayAnswer>);
    expect(played.ok).toBe(true);
    expect(played.outcome.kind).toBe('table');
    // In-house games are not launched through the provider layer.
    const inhouse = await call(app, {
      method: 'POST',
      url: '/api/providers/launch',
      payload: { game: 'dice' },
    });
    expect(inhouse.body.code).toBe('GAME_UNAVAILABLE');
  });

  it('publishes the player launch in the OpenAPI document, not the aggregator-only wallet', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { host: 'localhost' },
    });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toContain('/api/providers/launch');
    expect(paths.filter((path) => path.includes('/wallet/'))).toEqual([]);
  });

  it('keeps the ledger consistent after all of it', async () => {
    const report = await reconcile(app.services.db);
    expect(report.ok).toBe(true);
  });
});
