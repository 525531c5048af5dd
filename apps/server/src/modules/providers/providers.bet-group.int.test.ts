import { randomUUID } from 'node:crypto';
import { AGGREGATOR_SIGNATURE_HEADER, type TWalletResponse } from '@sorte/contract';
import { signBody } from '@sorte/game-aggregator';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { databaseKinds } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { insertExclusion, upsertLimit } from '../responsible-gaming/rg.repo.ts';
import { grantBonus } from '../wallet/bonus/grants.ts';
import { createFundedTestMember } from '../wallet/wallet.fixtures.ts';
import { reconcile } from '../wallet/wallet.reconcile.ts';
import { type AggregatorConnection, connectAggregator } from './aggregator.connection.ts';
import { postAsOneGroup, providerGroupStats, type TCallRequest } from './providers.bet-group.ts';
import { openProviderSession } from './providers.service.ts';
import { type TWalletContext, walletBet, walletRollback, walletWin } from './providers.wallet.ts';

const kinds = await databaseKinds();
const AGGREGATOR = 'sorte-demo';
const SLOT = 'aurora-golden-macaw';

/**
 * The provider wallet's group (providers.bet-group.ts, ADR 038) against the one-by-one calls
 * (providers.wallet.ts): the same scripted calls of many players, posted as one group per step
 * (exact retries in the same group as their original), give the same answers, byte for byte, and
 * the same ledger, rounds and transactions as the same calls one at a time.
 */

type TRole = 'plain' | 'poor' | 'early' | 'loss' | 'paused' | 'fed' | 'part' | 'closed';
const ROLES: TRole[] = ['plain', 'poor', 'early', 'loss', 'paused', 'fed', 'part', 'closed'];
const COPIES = 2;

type TPlayer = { role: TRole; index: number; memberId: bigint; token: string };

/** A call of the script: `id`s and rounds are names the world prefixes. */
type TStep =
  | { kind: 'bet'; id: string; round: string; amount: string; closed?: boolean }
  | { kind: 'win'; id: string; bet: string; round: string; amount: string }
  | { kind: 'rollback'; id: string; bet: string; round: string };

const bet = (id: string, round: string, amount: string, closed?: boolean): TStep => ({
  kind: 'bet',
  id,
  round,
  amount,
  ...(closed ? { closed } : {}),
});
const win = (id: string, betId: string, round: string, amount: string): TStep => ({
  kind: 'win',
  id,
  bet: betId,
  round,
  amount,
});
const rollback = (id: string, betId: string, round: string): TStep => ({
  kind: 'rollback',
  id,
  bet: betId,
  round,
});

/** Each role's calls per step; the calls of one step are retries of each other or independent. */
const SCRIPTS: Record<TRole, TStep[][]> = {
  plain: [
    [bet('b1', 'r1', '1.00'), bet('b1', 'r1', '1.00')],
    [win('w1', 'b1', 'r1', '2.50'), win('w1', 'b1', 'r1', '2.50'), bet('b2', 'r2', '0.50')],
    [rollback('x2', 'b2', 'r2'), bet('b1', 'r1', '9.99')],
    [rollback('x2', 'b2', 'r2'), win('w2', 'b2', 'r2', '1.00')],
  ],
  poor: [
    [bet('b1', 'r1', '1.00'), bet('b1', 'r1', '1.00')],
    [bet('b2', 'r2', '0.40')],
    [win('w2', 'b2', 'r2', '0.00')],
  ],
  early: [
    [rollback('x1', 'b1', 'r1')],
    [bet('b1', 'r1', '1.00'), rollback('x1', 'b1', 'r1')],
    [bet('b2', 'r2', '1.00')],
  ],
  loss: [
    [bet('b1', 'r1', '1.00')],
    [win('w1', 'b1', 'r1', '0.00')],
    [bet('b2', 'r2', '1.00')],
    [bet('b3', 'r3', '0.50')],
  ],
  paused: [[bet('b1', 'r1', '1.00')], [win('w1', 'b1', 'r1', '1.00')]],
  fed: [
    [bet('b1', 'r1', '1.00')],
    [win('w1', 'b1', 'r1', '2.00'), bet('b2', 'r2', '1.00')],
    [rollback('x2', 'b2', 'r2')],
  ],
  part: [
    [bet('b1', 'r1', '1.00')],
    [win('w1', 'b1', 'r1', '3.00')],
    [bet('b2', 'r2', '0.10')],
    [rollback('x2', 'b2', 'r2')],
  ],
  closed: [[bet('b1', 'r1', '1.00', true)], [win('w1', 'b1', 'r1', '1.00'), rollback('x1', 'b1', 'r1')]],
};

const CASH: Record<TRole, bigint> = {
  plain: 1_000n,
  poor: 50n,
  early: 1_000n,
  loss: 1_000n,
  paused: 1_000n,
  fed: 1_000n,
  part: 50n,
  closed: 1_000n,
};

describe.each(kinds)('provider wallet calls grouped on %s', (kind) => {
  let app: FastifyInstance;
  let db: Db;
  let siteId: bigint;
  let gameId: bigint;
  let connection: AggregatorConnection;
  const context = (): TWalletContext => ({ db, aggregator: AGGREGATOR });

  beforeAll(async () => {
    app = await buildTestApp(kind);
    db = app.services.db;
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    connection = await connectAggregator(
      { id: AGGREGATOR },
      { walletUrl: `${address}/api/providers/${AGGREGATOR}/wallet`, sandboxPort: 0 },
    );
    app.aggregator.attach(connection);
    siteId = (await app.services.sites.byCode('sorte'))!.id;
    const [game] = await rowsOf<{ id: string }>(db, sql`SELECT id FROM games WHERE code = ${SLOT}`);
    gameId = BigInt(game!.id);
  });
  afterAll(async () => {
    await app.aggregator.close();
    await app.close();
  });

  async function newPlayer(role: TRole, index: number): Promise<TPlayer> {
    const memberId = await createFundedTestMember(db, siteId, CASH[role]);
    const limit = { siteId, memberId, period: 'day' as const, pendingRemove: false };
    const grant = (maxBetMinor: bigint | null) =>
      grantBonus(db, {
        siteId,
        memberId,
        campaignCode: 'provider_group_test',
        periodKey: randomUUID(),
        amountMinor: 2_000n,
        wageringRequiredMinor: 100_000n,
        maxBetMinor,
        locksCash: true,
        expiresAt: new Date(Date.now() + 7 * 86_400_000),
        terms: {},
      });
    if (role === 'loss') {
      await upsertLimit(db, {
        ...limit,
        kind: 'loss',
        value: 150n,
        pendingValue: null,
        pendingEffectiveAt: null,
      });
    }
    if (role === 'paused')
      await insertExclusion(db, {
        siteId,
        memberId,
        kind: 'cooling_off',
        endsAt: new Date(Date.now() + 86_400_000),
      });
    if (role === 'fed' || role === 'part') await grant(null);
    const session = await openProviderSession(db, { aggregator: AGGREGATOR, siteId, memberId, gameId });
    return { role, index, memberId, token: session.token };
  }

  async function players(): Promise<TPlayer[]> {
    const all: TPlayer[] = [];
    for (let copy = 0; copy < COPIES; copy++) {
      for (const role of ROLES) all.push(await newPlayer(role, all.length));
    }
    return all;
  }

  /** A step's call as the aggregator sends it, its ids and rounds prefixed by the world's name. */
  function request(world: string, p: TPlayer, step: TStep): TCallRequest {
    const name = (ref: string) => `${world}-${p.index}-${ref}`;
    const base = {
      request_uuid: randomUUID(),
      token: p.token,
      game_code: SLOT,
      transaction_uuid: name(step.id),
    };
    if (step.kind === 'bet') {
      const closed = step.closed ? { round_closed: true } : {};
      const body = { ...base, round: name(step.round), amount: step.amount, currency: 'BRL', ...closed };
      return { kind: 'bet', body };
    }
    const reference_transaction_uuid = name(step.bet);
    if (step.kind === 'win') {
      const body = { ...base, reference_transaction_uuid, round: name(step.round), amount: step.amount };
      return { kind: 'win', body: { ...body, currency: 'BRL', round_closed: true } };
    }
    return { kind: 'rollback', body: { ...base, reference_transaction_uuid, round: name(step.round) } };
  }

  function oneByOne(call: TCallRequest): Promise<TWalletResponse> {
    if (call.kind === 'bet') return walletBet(context(), call.body);
    if (call.kind === 'win') return walletWin(context(), call.body);
    return walletRollback(context(), call.body);
  }

  /** The script's calls of every player per step, in order. */
  function stepsOf(world: string, all: TPlayer[]): { player: TPlayer; call: TCallRequest }[][] {
    const steps = Math.max(...Object.values(SCRIPTS).map((s) => s.length));
    return Array.from({ length: steps }, (_, k) =>
      all.flatMap((p) =>
        (SCRIPTS[p.role][k] ?? []).map((step) => ({ player: p, call: request(world, p, step) })),
      ),
    );
  }

  /** An answer as text, the world's names and the member's id replaced by the player's place. */
  const said = (world: string, p: TPlayer, answer: TWalletResponse) =>
    JSON.stringify(answer)
      .replaceAll(`${world}-${p.index}-`, `P${p.index}-`)
      .replace(`"user":"${p.memberId}"`, `"user":"P${p.index}"`);

  /** Everything the calls left of a player, ids replaced by what they name. */
  async function ledgerOf(world: string, p: TPlayer): Promise<string> {
    const member = sql`${p.memberId.toString()}::bigint`;
    const snapshot = await Promise.all([
      rowsOf(
        db,
        sql`SELECT t.kind, t.amount_minor::text, d.kind AS debit, c.kind AS credit, t.debit_balance_after_minor::text,
              t.credit_balance_after_minor::text, t.wagering_delta_minor::text, t.idempotency_key,
              t.metadata - 'fedGrantId' - 'bonusParts' - 'grantId' AS metadata, t.metadata ? 'bonusParts' AS bonus_parts
            FROM wallet_transfers t JOIN wallet_accounts d ON d.id = t.debit_account_id
              JOIN wallet_accounts c ON c.id = t.credit_account_id
            WHERE (d.member_id = ${member} OR c.member_id = ${member}) AND t.kind NOT IN ('deposit', 'bonus_grant')
            ORDER BY t.idempotency_key`,
      ),
      rowsOf(
        db,
        sql`SELECT kind, balance_minor::text, wagering_required_minor::text FROM wallet_accounts
            WHERE member_id = ${member} ORDER BY kind`,
      ),
      rowsOf(
        db,
        sql`SELECT balance_minor::text, wagering_done_minor::text, status FROM bonus_grants WHERE member_id = ${member}`,
      ),
      rowsOf(
        db,
        sql`SELECT round_ref, stake_minor::text, payout_minor::text, refunded_minor::text, status,
              settled_at IS NOT NULL AS settled
            FROM provider_rounds WHERE member_id = ${member} ORDER BY round_ref`,
      ),
      rowsOf(
        db,
        sql`SELECT transaction_ref, kind, reference_ref, amount_minor::text, response, rolled_back_by IS NOT NULL AS undone,
              transfer_id IS NOT NULL AS moved
            FROM provider_transactions WHERE member_id = ${member} ORDER BY transaction_ref`,
      ),
      rowsOf(
        db,
        sql`SELECT total_betting_minor::text, slot_betting_minor::text FROM member_vip WHERE member_id = ${member}`,
      ),
      rowsOf(
        db,
        sql`SELECT category, sum(stake_minor)::text AS stake, sum(bets)::text AS bets FROM member_turnover
            WHERE member_id = ${member} GROUP BY category`,
      ),
    ]);
    return JSON.stringify(snapshot)
      .replaceAll(`${world}-${p.index}-`, `P${p.index}-`)
      .replaceAll(/provider-round:\d+/g, 'provider-round:#')
      .replaceAll(/:b\d+"/g, ':b#"')
      .replace(new RegExp(`"user":"${p.memberId}"`, 'g'), `"user":"P${p.index}"`);
  }

  it('gives the same answers and the same ledger grouped as one at a time, retries in the same group included', async () => {
    const grouped = await players();
    const alone = await players();
    const before = { ...providerGroupStats(db) };
    const answersGrouped: string[] = [];
    for (const step of stepsOf('G', grouped)) {
      const answers = await postAsOneGroup(
        context(),
        step.map((s) => s.call),
      );
      for (const [i, answer] of answers.entries()) answersGrouped.push(said('G', step[i]!.player, answer));
    }
    const answersAlone: string[] = [];
    for (const step of stepsOf('A', alone)) {
      for (const { player, call } of step) answersAlone.push(said('A', player, await oneByOne(call)));
    }
    expect(answersGrouped).toEqual(answersAlone);
    for (const [i, p] of grouped.entries()) {
      expect(await ledgerOf('G', p)).toEqual(await ledgerOf('A', alone[i]!));
    }
    const after = providerGroupStats(db);
    // No group rolled back; only what the group leaves to `stakeWithBonus` and `payWin` went one by one:
    // the bonus-part stake, its win and its refund, the refund of a stake that fed a grant.
    expect(after.rolledBack - before.rolledBack).toBe(0);
    expect(after.deferred - before.deferred).toBe(7 * COPIES);
    expect((await reconcile(db)).ok).toBe(true);
  });

  const cashOf = async (p: TPlayer) => {
    const [row] = await rowsOf<{ balance: string }>(
      db,
      sql`SELECT balance_minor::text AS balance FROM wallet_accounts
          WHERE member_id = ${p.memberId.toString()}::bigint AND kind = 'cash'`,
    );
    return BigInt(row!.balance);
  };
  const transfersUnder = async (key: string) =>
    (await rowsOf(db, sql`SELECT id FROM wallet_transfers WHERE idempotency_key = ${key}`)).length;
  /** What a group changed of the queue's counters. */
  async function counted<T>(
    work: () => Promise<T>,
  ): Promise<{ result: T; deferred: number; rolledBack: number }> {
    const before = { ...providerGroupStats(db) };
    const result = await work();
    const after = providerGroupStats(db);
    return {
      result,
      deferred: after.deferred - before.deferred,
      rolledBack: after.rolledBack - before.rolledBack,
    };
  }

  it('answers a retry that lands in the group of its original with what the original stored, and moves the money once', async () => {
    const [a, b] = [await newPlayer('plain', 100), await newPlayer('plain', 101)];
    const world = randomUUID();
    const betA = request(world, a, bet('b1', 'r1', '1.00'));
    const { result, deferred, rolledBack } = await counted(() =>
      postAsOneGroup(context(), [betA, request(world, b, bet('b1', 'r1', '2.00')), betA, betA]),
    );
    expect({ deferred, rolledBack }).toEqual({ deferred: 0, rolledBack: 0 });
    const [first, , retry, again] = result;
    expect(first).toEqual({
      status: 'RS_OK',
      balance: '9.00',
      currency: 'BRL',
      user: a.memberId.toString(),
      transaction_uuid: betA.body.transaction_uuid,
    });
    // The retry answers the stored row, byte for byte as a later retry one at a time gets it.
    const later = await oneByOne(betA);
    expect(JSON.stringify(retry)).toBe(JSON.stringify(later));
    expect(JSON.stringify(again)).toBe(JSON.stringify(later));
    expect(await transfersUnder(`provider:${AGGREGATOR}:${betA.body.transaction_uuid}`)).toBe(1);
    expect(await cashOf(a)).toBe(900n);
    expect(await cashOf(b)).toBe(800n);
    // The same id with another body, in the group of the original: a duplicate, nothing moves.
    const other = request(world, a, bet('b2', 'r2', '1.00'));
    const changed = { ...other, body: { ...other.body, amount: '3.00' } } as TCallRequest;
    const [, duplicate] = await postAsOneGroup(context(), [other, changed]);
    expect(duplicate).toEqual({ status: 'RS_ERROR_DUPLICATE_TRANSACTION' });
    expect(await cashOf(a)).toBe(800n);
  });

  it('records a rollback that arrives before its bet inside a group, and refuses the bet when it comes', async () => {
    const [a, b] = [await newPlayer('plain', 102), await newPlayer('plain', 103)];
    const world = randomUUID();
    const early = request(world, a, rollback('x1', 'b1', 'r1'));
    const { result, deferred, rolledBack } = await counted(() =>
      postAsOneGroup(context(), [early, request(world, b, bet('b1', 'r1', '1.00'))]),
    );
    expect({ deferred, rolledBack }).toEqual({ deferred: 0, rolledBack: 0 });
    expect(result[0]).toMatchObject({ status: 'RS_OK', balance: '10.00' });
    expect(result[1]).toMatchObject({ status: 'RS_OK', balance: '9.00' });
    const [tombstone] = await rowsOf<{ kind: string; reference_ref: string }>(
      db,
      sql`SELECT kind, reference_ref FROM provider_transactions
          WHERE aggregator = ${AGGREGATOR} AND transaction_ref = ${`${world}-102-b1`}`,
    );
    expect(tombstone).toEqual({ kind: 'tombstone', reference_ref: `${world}-102-x1` });
    const late = await postAsOneGroup(context(), [
      request(world, a, bet('b1', 'r1', '1.00')),
      request(world, b, bet('b2', 'r2', '1.00')),
    ]);
    expect(late[0]).toEqual({ status: 'RS_ERROR_TRANSACTION_ROLLED_BACK' });
    expect(late[1]).toMatchObject({ status: 'RS_OK', balance: '8.00' });
    expect(await cashOf(a)).toBe(1_000n);
    expect(await transfersUnder(`provider:${AGGREGATOR}:${world}-102-b1`)).toBe(0);
    // A group that moves no money writes its rows all the same.
    const lone = await counted(() =>
      postAsOneGroup(context(), [request(world, b, rollback('x9', 'b9', 'r9'))]),
    );
    expect(lone).toMatchObject({
      deferred: 0,
      rolledBack: 0,
      result: [{ status: 'RS_OK', balance: '8.00' }],
    });
    const [again] = await postAsOneGroup(context(), [request(world, b, bet('b9', 'r9', '1.00'))]);
    expect(again).toEqual({ status: 'RS_ERROR_TRANSACTION_ROLLED_BACK' });
  });

  it('refuses a bet past a loss limit inside a group with the balance as it is, and takes the others', async () => {
    const [limited, b] = [await newPlayer('loss', 104), await newPlayer('plain', 105)];
    const world = randomUUID();
    await postAsOneGroup(context(), [request(world, limited, bet('b1', 'r1', '1.00'))]);
    await postAsOneGroup(context(), [request(world, limited, win('w1', 'b1', 'r1', '0.00'))]);
    // Lost R$ 1,00 of a R$ 1,50 day: a stake of R$ 1,00 could pass the limit, one of R$ 0,50 cannot.
    const { result, deferred, rolledBack } = await counted(() =>
      postAsOneGroup(context(), [
        request(world, b, bet('b1', 'r1', '1.00')),
        request(world, limited, bet('b2', 'r2', '1.00')),
      ]),
    );
    expect({ deferred, rolledBack }).toEqual({ deferred: 0, rolledBack: 0 });
    expect(result[0]).toMatchObject({ status: 'RS_OK', balance: '9.00' });
    expect(result[1]).toEqual({
      status: 'RS_ERROR_LIMIT_REACHED',
      balance: '9.00',
      currency: 'BRL',
      user: limited.memberId.toString(),
    });
    expect(await transfersUnder(`provider:${AGGREGATOR}:${world}-104-b2`)).toBe(0);
    const [within] = await postAsOneGroup(context(), [request(world, limited, bet('b3', 'r3', '0.50'))]);
    expect(within).toMatchObject({ status: 'RS_OK', balance: '8.50' });
  });

  it('places every call of a group whose write fails one by one, each answered as alone', async () => {
    const all = [await newPlayer('plain', 106), await newPlayer('plain', 107), await newPlayer('poor', 108)];
    const world = `failing-${randomUUID()}`;
    // A guard of the rows that only a statement writing two or more of this world's calls trips.
    await db.execute(
      sql.raw(`CREATE FUNCTION pg_group_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF (SELECT count(*) FROM written WHERE transaction_ref LIKE '${world}-%') > 1 THEN
          RAISE EXCEPTION 'one call at a time';
        END IF; RETURN NULL; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER pg_group_guard AFTER INSERT ON provider_transactions REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION pg_group_guard()`),
    );
    try {
      const { result, rolledBack } = await counted(() =>
        postAsOneGroup(
          context(),
          all.map((p) => request(world, p, bet('b1', 'r1', '1.00'))),
        ),
      );
      expect(rolledBack).toBe(1);
      expect(result.map((r) => r.status)).toEqual(['RS_OK', 'RS_OK', 'RS_ERROR_NOT_ENOUGH_MONEY']);
      expect(result[0]).toMatchObject({ balance: '9.00' });
      expect(await cashOf(all[0]!)).toBe(900n);
      expect(await cashOf(all[1]!)).toBe(900n);
      expect(await cashOf(all[2]!)).toBe(50n);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER pg_group_guard ON provider_transactions'));
      await db.execute(sql.raw('DROP FUNCTION pg_group_guard()'));
    }
  });

  it('groups concurrent signed calls of many players that arrive through the route', async () => {
    const all: TPlayer[] = [];
    for (let i = 0; i < 24; i++) all.push(await newPlayer('plain', 200 + i));
    const world = randomUUID();
    const send = (call: TCallRequest) => {
      const raw = JSON.stringify(call.body);
      return app.inject({
        method: 'POST',
        url: `/api/providers/${AGGREGATOR}/wallet/${call.kind}`,
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          [AGGREGATOR_SIGNATURE_HEADER]: signBody(connection.secret, raw),
        },
        payload: raw,
      });
    };
    const before = { ...providerGroupStats(db) };
    const bets = await Promise.all(all.map((p) => send(request(world, p, bet('b1', 'r1', '1.00')))));
    const wins = await Promise.all(all.map((p) => send(request(world, p, win('w1', 'b1', 'r1', '1.50')))));
    const after = providerGroupStats(db);
    expect(bets.map((r) => r.json().status)).toEqual(all.map(() => 'RS_OK'));
    expect(wins.map((r) => r.json())).toEqual(
      all.map((p) =>
        expect.objectContaining({ status: 'RS_OK', balance: '10.50', user: p.memberId.toString() }),
      ),
    );
    expect(after.rolledBack - before.rolledBack).toBe(0);
    expect(after.items - before.items).toBe(48);
    expect(after.groups - before.groups).toBeLessThan(48);
    for (const p of all) expect(await cashOf(p)).toBe(1_050n);
  });
});
