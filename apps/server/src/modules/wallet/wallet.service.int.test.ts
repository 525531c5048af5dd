import { MAX_MINOR } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { openMemberAccounts } from './accounts.ts';
import { getBalances, getSystemBalances, getTransferByKey, listMemberTransfers } from './balances.ts';
import { hold, releaseHold, settleHold } from './holds.ts';
import { LIMITS, type TransferInput } from './posting/request.ts';
import { type TWalletErrorCode, WalletError } from './wallet.errors.ts';
import { createTestMember, createTestSite } from './wallet.fixtures.ts';
import { reconcile } from './wallet.reconcile.ts';
import { transfer } from './wallet.service.ts';

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

async function expectWalletError(promise: Promise<unknown>, code: TWalletErrorCode): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WalletError);
  expect((error as WalletError).code).toBe(code);
}

async function transferCount(db: Db, siteId: bigint): Promise<number> {
  const rows = await rowsOf<{ n: unknown }>(
    db,
    sql`SELECT count(*)::int AS n FROM wallet_transfers WHERE site_id = ${siteId.toString()}::bigint`,
  );
  return Number(rows[0]!.n);
}

let keySeq = 0;
const key = (label: string) => `${label}-${Date.now()}-${++keySeq}`;

function deposit(
  siteId: bigint,
  memberId: bigint,
  amountMinor: bigint,
  idempotencyKey = key('dep'),
): TransferInput {
  return {
    siteId,
    kind: 'deposit',
    from: { system: 'psp_clearing' },
    to: { memberId, account: 'cash' },
    amountMinor,
    idempotencyKey,
    reference: `order:${idempotencyKey}`,
  };
}

describe.each(kinds)('wallet service on %s', (kind) => {
  let db: Db;
  let siteId: bigint;

  beforeAll(async () => {
    db = (await testDatabase(kind)).db;
    siteId = await createTestSite(db);
  });

  it('credits a deposit to cash, debits PSP clearing and keeps the site summing to zero', async () => {
    const member = await createTestMember(db, siteId);
    const result = await transfer(db, deposit(siteId, member, 12_345n));
    expect(result.replayed).toBe(false);
    expect(result.creditBalanceAfterMinor).toBe(12_345n);
    expect(result.debitBalanceAfterMinor).toBeNull();
    const balances = await getBalances(db, member);
    expect(balances).toEqual({
      cashMinor: 12_345n,
      bonusMinor: 0n,
      holdMinor: 0n,
      wageringRequiredMinor: 0n,
      totalMinor: 12_345n,
      withdrawableMinor: 12_345n,
    });
    const report = await reconcile(db, { siteId });
    expect(report.drift).toEqual([]);
    expect(report.sites).toEqual([{ siteId, balanceSumMinor: 0n }]);
  });

  it('returns the original transfer when the same key and request are replayed', async () => {
    const member = await createTestMember(db, siteId);
    const input = deposit(siteId, member, 500n);
    const first = await transfer(db, input);
    const again = await transfer(db, { ...input, metadata: {} });
    const third = await transfer(db, input);
    expect(again.transferId).toBe(first.transferId);
    expect(again.replayed).toBe(true);
    expect(third).toEqual({ ...first, replayed: true });
    expect((await getBalances(db, member)).cashMinor).toBe(500n);
  });

  it('replays a request that emptied the balance instead of refusing it for lack of funds', async () => {
    const member = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, member, 800n));
    const bet: TransferInput = {
      siteId,
      kind: 'bet',
      from: { memberId: member, account: 'cash' },
      to: { system: 'house' },
      amountMinor: 300n,
      idempotencyKey: key('bet'),
    };
    const placed = await transfer(db, bet);
    const holdInput = { siteId, memberId: member, amountMinor: 500n, idempotencyKey: key('hold') };
    const held = await hold(db, holdInput);
    expect((await getBalances(db, member)).cashMinor).toBe(0n);
    // A reward now owes wagering: a new hold would be refused, the replayed one is not.
    await transfer(db, {
      siteId,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: member, account: 'bonus' },
      amountMinor: 10n,
      idempotencyKey: key('reward'),
      wageringAddMinor: 50n,
    });
    expect(await transfer(db, bet)).toEqual({ ...placed, replayed: true });
    expect(await hold(db, holdInput)).toEqual({ ...held, replayed: true });
    await expectWalletError(hold(db, { ...holdInput, amountMinor: 1n }), 'IDEMPOTENCY_CONFLICT');
    await expectWalletError(transfer(db, { ...bet, amountMinor: 301n }), 'IDEMPOTENCY_CONFLICT');
    const releaseKey = key('release');
    const released = await releaseHold(db, {
      siteId,
      holdTransferId: held.transferId,
      idempotencyKey: releaseKey,
    });
    expect(
      await releaseHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: releaseKey }),
    ).toEqual({ ...released, replayed: true });
    expect(await getBalances(db, member)).toMatchObject({ cashMinor: 500n, holdMinor: 0n, bonusMinor: 10n });
  });

  it('refuses the same key with a different request and changes nothing', async () => {
    const member = await createTestMember(db, siteId);
    const input = deposit(siteId, member, 500n);
    await transfer(db, input);
    const before = await transferCount(db, siteId);
    await expectWalletError(transfer(db, { ...input, amountMinor: 501n }), 'IDEMPOTENCY_CONFLICT');
    await expectWalletError(transfer(db, { ...input, reference: 'order:other' }), 'IDEMPOTENCY_CONFLICT');
    await expectWalletError(transfer(db, { ...input, metadata: { roundId: 'r1' } }), 'IDEMPOTENCY_CONFLICT');
    expect(await transferCount(db, siteId)).toBe(before);
    expect((await getBalances(db, member)).cashMinor).toBe(500n);
  });

  it('refuses a debit larger than the balance and leaves balances and ledger unchanged', async () => {
    const member = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, member, 1_000n));
    const before = await transferCount(db, siteId);
    const houseBefore = (await getSystemBalances(db, siteId)).house;
    await expectWalletError(
      transfer(db, {
        siteId,
        kind: 'bet',
        from: { memberId: member, account: 'cash' },
        to: { system: 'house' },
        amountMinor: 1_001n,
        idempotencyKey: key('bet'),
      }),
      'INSUFFICIENT_FUNDS',
    );
    expect(await transferCount(db, siteId)).toBe(before);
    expect((await getBalances(db, member)).cashMinor).toBe(1_000n);
    expect((await getSystemBalances(db, siteId)).house).toBe(houseBefore);
    // The refused key was not consumed: the same key can carry a valid request afterwards.
    const ok = await transfer(db, {
      siteId,
      kind: 'bet',
      from: { memberId: member, account: 'cash' },
      to: { system: 'house' },
      amountMinor: 1_000n,
      idempotencyKey: key('bet-ok'),
    });
    expect(ok.debitBalanceAfterMinor).toBe(0n);
  });

  it('refuses zero, negative, too large and non-bigint amounts', async () => {
    const member = await createTestMember(db, siteId);
    for (const amountMinor of [
      0n,
      -1n,
      MAX_MINOR + 1n,
      1.5 as unknown as bigint,
      '100' as unknown as bigint,
    ]) {
      await expectWalletError(transfer(db, deposit(siteId, member, amountMinor)), 'INVALID_AMOUNT');
    }
    const max = await transfer(db, deposit(siteId, member, MAX_MINOR));
    expect(max.creditBalanceAfterMinor).toBe(MAX_MINOR);
  });

  it('refuses a credit that would take a player account past its balance limit', async () => {
    const member = await createTestMember(db, siteId);
    for (let i = 0n; i < LIMITS.balanceMinor / MAX_MINOR; i++)
      await transfer(db, deposit(siteId, member, MAX_MINOR));
    expect((await getBalances(db, member)).cashMinor).toBe(LIMITS.balanceMinor);
    await expectWalletError(transfer(db, deposit(siteId, member, 1n)), 'INVALID_AMOUNT');
    const reward = (wageringAddMinor: bigint) =>
      transfer(db, {
        siteId,
        kind: 'bonus_grant',
        from: { system: 'promotions_expense' },
        to: { memberId: member, account: 'bonus' },
        amountMinor: 1n,
        idempotencyKey: key('reward'),
        wageringAddMinor,
      });
    for (let i = 0n; i < LIMITS.wageringMinor / MAX_MINOR; i++) await reward(MAX_MINOR);
    await expectWalletError(reward(1n), 'INVALID_AMOUNT');
    expect(await getBalances(db, member)).toMatchObject({
      wageringRequiredMinor: LIMITS.wageringMinor,
      bonusMinor: 100n,
    });
    expect((await getBalances(db, member)).cashMinor).toBe(LIMITS.balanceMinor);
  });

  it('refuses malformed transfers: same account, two members, hold accounts, long keys', async () => {
    const a = await createTestMember(db, siteId);
    const b = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, a, 100n));
    const base = { siteId, amountMinor: 1n, idempotencyKey: key('bad') } as const;
    await expectWalletError(
      transfer(db, { ...base, kind: 'correction', from: { system: 'house' }, to: { system: 'house' } }),
      'INVALID_TRANSFER',
    );
    await expectWalletError(
      transfer(db, {
        ...base,
        kind: 'correction',
        from: { memberId: a, account: 'cash' },
        to: { memberId: b, account: 'cash' },
      }),
      'INVALID_TRANSFER',
    );
    await expectWalletError(
      transfer(db, {
        ...base,
        kind: 'correction',
        from: { memberId: a, account: 'cash' },
        to: { memberId: a, account: 'withdrawal_hold' },
      }),
      'INVALID_TRANSFER',
    );
    await expectWalletError(
      transfer(db, { ...deposit(siteId, a, 1n), idempotencyKey: 'k'.repeat(129) }),
      'INVALID_TRANSFER',
    );
    await expectWalletError(
      transfer(db, { ...deposit(siteId, a, 1n), idempotencyKey: '' }),
      'INVALID_TRANSFER',
    );
    await expectWalletError(
      transfer(db, { ...deposit(siteId, a, 1n), metadata: { blob: 'x'.repeat(5000) } }),
      'INVALID_TRANSFER',
    );
    for (const bad of ['nul\u0000key', 'lone\ud800surrogate']) {
      await expectWalletError(
        transfer(db, { ...deposit(siteId, a, 1n), idempotencyKey: bad }),
        'INVALID_TRANSFER',
      );
      await expectWalletError(
        transfer(db, { ...deposit(siteId, a, 1n), reference: bad }),
        'INVALID_TRANSFER',
      );
      await expectWalletError(
        transfer(db, { ...deposit(siteId, a, 1n), metadata: { bad } }),
        'INVALID_TRANSFER',
      );
    }
    for (const metadata of [{ at: new Date() }, { n: Number.NaN }, { f: () => 1 }, { 'k\u0000': 1 }]) {
      await expectWalletError(
        transfer(db, { ...deposit(siteId, a, 1n), metadata: metadata as never }),
        'INVALID_TRANSFER',
      );
    }
    expect((await getBalances(db, a)).cashMinor).toBe(100n);
  });

  it('holds a withdrawal, pays it out with a fee, and refuses to resolve it twice', async () => {
    const member = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, member, 10_000n));
    const before = await getSystemBalances(db, siteId);
    const held = await hold(db, {
      siteId,
      memberId: member,
      amountMinor: 4_000n,
      idempotencyKey: key('hold'),
    });
    expect(await getBalances(db, member)).toMatchObject({ cashMinor: 6_000n, holdMinor: 4_000n });

    const settleKey = key('settle');
    const settled = await settleHold(db, {
      siteId,
      holdTransferId: held.transferId,
      idempotencyKey: settleKey,
      feeMinor: 150n,
    });
    expect(settled.payoutMinor).toBe(3_850n);
    expect(settled.fee?.amountMinor).toBe(150n);
    expect(await getBalances(db, member)).toMatchObject({ cashMinor: 6_000n, holdMinor: 0n });
    const after = await getSystemBalances(db, siteId);
    expect(after.psp_clearing - before.psp_clearing).toBe(3_850n);
    expect(after.fees - before.fees).toBe(150n);

    const replay = await settleHold(db, {
      siteId,
      holdTransferId: held.transferId,
      idempotencyKey: settleKey,
      feeMinor: 150n,
    });
    expect(replay.payout.transferId).toBe(settled.payout.transferId);
    expect(replay.payout.replayed).toBe(true);
    await expectWalletError(
      settleHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: settleKey, feeMinor: 1n }),
      'IDEMPOTENCY_CONFLICT',
    );
    await expectWalletError(
      releaseHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: key('release') }),
      'HOLD_ALREADY_RESOLVED',
    );
    await expectWalletError(
      settleHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: key('settle2') }),
      'HOLD_ALREADY_RESOLVED',
    );
    expect((await reconcile(db, { siteId })).drift).toEqual([]);
  });

  it('returns a rejected withdrawal to cash and refuses holds beyond the cash', async () => {
    const member = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, member, 1_000n));
    await expectWalletError(
      hold(db, { siteId, memberId: member, amountMinor: 1_001n, idempotencyKey: key('hold') }),
      'INSUFFICIENT_FUNDS',
    );
    const held = await hold(db, {
      siteId,
      memberId: member,
      amountMinor: 1_000n,
      idempotencyKey: key('hold'),
    });
    await expectWalletError(
      transfer(db, {
        siteId,
        kind: 'bet',
        from: { memberId: member, account: 'cash' },
        to: { system: 'house' },
        amountMinor: 1n,
        idempotencyKey: key('bet'),
      }),
      'INSUFFICIENT_FUNDS',
    );
    const released = await releaseHold(db, {
      siteId,
      holdTransferId: held.transferId,
      idempotencyKey: key('rel'),
    });
    expect(released.creditBalanceAfterMinor).toBe(1_000n);
    expect(await getBalances(db, member)).toMatchObject({ cashMinor: 1_000n, holdMinor: 0n });
    await expectWalletError(
      settleHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: key('settle') }),
      'HOLD_ALREADY_RESOLVED',
    );
    await expectWalletError(
      releaseHold(db, { siteId, holdTransferId: released.transferId, idempotencyKey: key('rel2') }),
      'HOLD_NOT_FOUND',
    );
    await expectWalletError(
      settleHold(db, {
        siteId,
        holdTransferId: held.transferId,
        idempotencyKey: key('s3'),
        feeMinor: 1_000n,
      }),
      'INVALID_AMOUNT',
    );
  });

  it('keeps rewards unwithdrawable until the wagering requirement is bet', async () => {
    const member = await createTestMember(db, siteId);
    await transfer(db, deposit(siteId, member, 10_000n));
    await transfer(db, {
      siteId,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: member, account: 'cash' },
      amountMinor: 1_000n,
      idempotencyKey: key('reward'),
      reference: 'recharge-reward',
      wageringAddMinor: 5_000n,
    });
    expect(await getBalances(db, member)).toMatchObject({
      cashMinor: 11_000n,
      wageringRequiredMinor: 5_000n,
      withdrawableMinor: 0n,
    });
    await expectWalletError(
      hold(db, { siteId, memberId: member, amountMinor: 100n, idempotencyKey: key('hold') }),
      'WAGERING_NOT_MET',
    );
    const bet = (amountMinor: bigint) =>
      transfer(db, {
        siteId,
        kind: 'bet',
        from: { memberId: member, account: 'cash' },
        to: { system: 'house' },
        amountMinor,
        idempotencyKey: key('bet'),
      });
    expect((await bet(3_000n)).wageringDeltaMinor).toBe(-3_000n);
    expect((await getBalances(db, member)).wageringRequiredMinor).toBe(2_000n);
    expect((await bet(2_500n)).wageringDeltaMinor).toBe(-2_000n);
    expect(await getBalances(db, member)).toMatchObject({
      wageringRequiredMinor: 0n,
      withdrawableMinor: 5_500n,
    });
    expect((await bet(100n)).wageringDeltaMinor).toBe(0n);
    const held = await hold(db, { siteId, memberId: member, amountMinor: 100n, idempotencyKey: key('hold') });
    expect(held.debitBalanceAfterMinor).toBe(5_300n);
    expect((await reconcile(db, { siteId })).drift).toEqual([]);
  });

  it('refuses a member of another site and the database refuses a cross-site transfer row', async () => {
    const otherSite = await createTestSite(db);
    const stranger = await createTestMember(db, otherSite);
    const local = await createTestMember(db, siteId);
    await expectWalletError(transfer(db, deposit(siteId, stranger, 100n)), 'ACCOUNT_NOT_FOUND');
    await expectWalletError(openMemberAccounts(db, { siteId, memberId: stranger }), 'ACCOUNT_NOT_FOUND');
    // Bypassing the service: the (account, site) foreign keys refuse accounts of two sites.
    await expect(
      db.execute(sql`INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id,
          amount_minor, idempotency_key, request_hash)
        SELECT ${siteId.toString()}::bigint, 'correction', d.id, c.id, 1, 'cross-site', repeat('a', 64)
        FROM wallet_accounts d, wallet_accounts c
        WHERE d.member_id = ${local.toString()}::bigint AND d.kind = 'cash'
          AND c.member_id = ${stranger.toString()}::bigint AND c.kind = 'cash'`),
    ).rejects.toThrow();
    // Nor a site that does not exist, between two accounts of one site: the accounts' keys hold the
    // transfer's site (migration 0053 dropped the transfer's own key to sites).
    const foreignKeyViolation = (error: { code?: string; cause?: { code?: string } }) =>
      (error.code ?? error.cause?.code) === '23503';
    await expect(
      db.execute(sql`INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id,
          amount_minor, idempotency_key, request_hash)
        SELECT (SELECT max(id) + 1000 FROM sites), 'correction', d.id, c.id, 1, 'no-such-site', repeat('a', 64)
        FROM wallet_accounts d, wallet_accounts c
        WHERE d.member_id = ${local.toString()}::bigint AND d.kind = 'cash'
          AND c.site_id = ${siteId.toString()}::bigint AND c.kind = 'house'`),
    ).rejects.toSatisfy(foreignKeyViolation);
    expect((await getBalances(db, stranger)).cashMinor).toBe(0n);
    await expectWalletError(getBalances(db, stranger, { siteId }), 'ACCOUNT_NOT_FOUND');
    // A hold of one site cannot be resolved through another.
    await transfer(db, deposit(otherSite, stranger, 100n));
    const held = await hold(db, {
      siteId: otherSite,
      memberId: stranger,
      amountMinor: 100n,
      idempotencyKey: key('h'),
    });
    await expectWalletError(
      releaseHold(db, { siteId, holdTransferId: held.transferId, idempotencyKey: key('r') }),
      'HOLD_NOT_FOUND',
    );
    const report = await reconcile(db);
    expect(report.drift).toEqual([]);
    expect(report.sites.map((s) => s.siteId)).toEqual(expect.arrayContaining([siteId, otherSite]));
  });

  it('keeps transfers append-only and player balances non-negative in the database itself', async () => {
    const member = await createTestMember(db, siteId);
    const t = await transfer(db, deposit(siteId, member, 100n));
    await expect(
      db.execute(
        sql`UPDATE wallet_transfers SET amount_minor = 1 WHERE id = ${t.transferId.toString()}::bigint`,
      ),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`DELETE FROM wallet_transfers WHERE id = ${t.transferId.toString()}::bigint`),
    ).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE wallet_transfers CASCADE`)).rejects.toThrow();
    await expect(
      db.execute(sql`UPDATE wallet_accounts SET balance_minor = -1
                     WHERE member_id = ${member.toString()}::bigint AND kind = 'cash'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`DELETE FROM wallet_accounts WHERE member_id = ${member.toString()}::bigint`),
    ).rejects.toThrow();
    expect((await getBalances(db, member)).cashMinor).toBe(100n);
  });

  it("commits with the caller's transaction, rolls back with it, and a refusal keeps it usable", async () => {
    const member = await createTestMember(db, siteId);
    const rolledBackKey = key('rolled-back');
    await expect(
      db.transaction(async (tx) => {
        await transfer(tx, deposit(siteId, member, 700n, rolledBackKey));
        throw new Error('the round record failed');
      }),
    ).rejects.toThrow('the round record failed');
    expect((await getBalances(db, member)).cashMinor).toBe(0n);

    await db.transaction(async (tx) => {
      await expectWalletError(
        transfer(tx, {
          siteId,
          kind: 'bet',
          from: { memberId: member, account: 'cash' },
          to: { system: 'house' },
          amountMinor: 5n,
          idempotencyKey: key('bet'),
        }),
        'INSUFFICIENT_FUNDS',
      );
      // The refusal wrote nothing and raised no SQL error: the transaction goes on.
      await transfer(tx, deposit(siteId, member, 700n, rolledBackKey));
    });
    expect((await getBalances(db, member)).cashMinor).toBe(700n);
  });

  it('opens accounts idempotently and reports members without accounts', async () => {
    const member = await createTestMember(db, siteId);
    await openMemberAccounts(db, { siteId, memberId: member });
    await openMemberAccounts(db, { siteId, memberId: member });
    const rows = await rowsOf<{ n: unknown }>(
      db,
      sql`SELECT count(*)::int AS n FROM wallet_accounts WHERE member_id = ${member.toString()}::bigint`,
    );
    expect(Number(rows[0]!.n)).toBe(3);
    await expectWalletError(getBalances(db, 987_654_321n), 'ACCOUNT_NOT_FOUND');
    await expectWalletError(openMemberAccounts(db, { siteId, memberId: 987_654_321n }), 'ACCOUNT_NOT_FOUND');
  });

  it('lists a member’s transfers newest first with stable keyset pages and filters', async () => {
    const member = await createTestMember(db, siteId);
    const ids: bigint[] = [];
    for (let i = 1n; i <= 5n; i++)
      ids.push((await transfer(db, deposit(siteId, member, i * 10n))).transferId);
    const first = await listMemberTransfers(db, { memberId: member, siteId, limit: 2 });
    expect(first.map((t) => t.transferId)).toEqual([ids[4], ids[3]]);
    expect(first[0]).toMatchObject({
      debitAccountKind: 'psp_clearing',
      creditAccountKind: 'cash',
      amountMinor: 50n,
    });
    // A transfer arriving between page loads does not shift the next page.
    const bet = await transfer(db, {
      siteId,
      kind: 'bet',
      from: { memberId: member, account: 'cash' },
      to: { system: 'house' },
      amountMinor: 5n,
      idempotencyKey: key('bet'),
    });
    const next = await listMemberTransfers(db, { memberId: member, limit: 2, beforeTransferId: ids[3]! });
    expect(next.map((t) => t.transferId)).toEqual([ids[2], ids[1]]);
    const previous = await listMemberTransfers(db, { memberId: member, limit: 2, afterTransferId: ids[2]! });
    expect(previous.map((t) => t.transferId)).toEqual([ids[4], ids[3]]);
    const bets = await listMemberTransfers(db, { memberId: member, kinds: ['bet'] });
    expect(bets.map((t) => t.transferId)).toEqual([bet.transferId]);
    const future = await listMemberTransfers(db, { memberId: member, since: new Date(Date.now() + 60_000) });
    expect(future).toEqual([]);
    expect(await listMemberTransfers(db, { memberId: member, siteId: siteId + 100_000n })).toEqual([]);
    // A transfer between two of the member's own accounts (cash → withdrawal hold) is listed once.
    const held = await hold(db, { siteId, memberId: member, amountMinor: 7n, idempotencyKey: key('hold') });
    const latest = await listMemberTransfers(db, { memberId: member, limit: 3 });
    expect(latest.map((t) => t.transferId)).toEqual([held.transferId, bet.transferId, ids[4]]);
    expect(await getTransferByKey(db, { siteId, idempotencyKey: bet.idempotencyKey })).toEqual(bet);
    expect(await getTransferByKey(db, { siteId, idempotencyKey: 'never-used' })).toBeNull();
  });

  it('reports drift as data when a stored balance no longer matches its transfers', async () => {
    const driftSite = await createTestSite(db);
    const member = await createTestMember(db, driftSite);
    await transfer(db, deposit(driftSite, member, 300n));
    const sentinel = new Error('roll back the sabotage');
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE wallet_accounts SET balance_minor = balance_minor + 5
                             WHERE member_id = ${member.toString()}::bigint AND kind = 'cash'`);
        const report = await reconcile(tx, { siteId: driftSite });
        expect(report.ok).toBe(false);
        expect(report.drift.map((d) => d.check).sort()).toEqual(['BALANCE_MISMATCH', 'SITE_SUM_NONZERO']);
        expect(report.drift.find((d) => d.check === 'BALANCE_MISMATCH')).toMatchObject({
          siteId: driftSite,
          expectedMinor: 300n,
          actualMinor: 305n,
        });
        throw sentinel;
      }),
    ).rejects.toBe(sentinel);
    expect((await reconcile(db, { siteId: driftSite })).ok).toBe(true);
  });

  it('reports wagering, hold and cross-site drift written behind the service’s back', async () => {
    const driftSite = await createTestSite(db);
    const otherSite = await createTestSite(db);
    const member = await createTestMember(db, driftSite);
    await transfer(db, deposit(driftSite, member, 1_000n));
    const held = await hold(db, {
      siteId: driftSite,
      memberId: member,
      amountMinor: 400n,
      idempotencyKey: key('h'),
    });
    const sentinel = new Error('roll back the sabotage');
    await expect(
      db.transaction(async (tx) => {
        const m = member.toString();
        await tx.execute(sql`UPDATE wallet_accounts SET wagering_required_minor = 7
                             WHERE member_id = ${m}::bigint AND kind = 'cash'`);
        // A release of the wrong amount, without the balance updates the service would make.
        await tx.execute(sql`INSERT INTO wallet_transfers (site_id, kind, debit_account_id, credit_account_id,
            amount_minor, hold_transfer_id, idempotency_key, request_hash)
          SELECT ${driftSite.toString()}::bigint, 'withdrawal_release', h.id, c.id, 100,
                 ${held.transferId.toString()}::bigint, 'sabotage', repeat('a', 64)
          FROM wallet_accounts h, wallet_accounts c
          WHERE h.member_id = ${m}::bigint AND h.kind = 'withdrawal_hold'
            AND c.member_id = ${m}::bigint AND c.kind = 'cash'`);
        await tx.execute(
          sql`UPDATE members SET site_id = ${otherSite.toString()}::bigint WHERE id = ${m}::bigint`,
        );
        const report = await reconcile(tx, { siteId: driftSite });
        expect(report.ok).toBe(false);
        expect(new Set(report.drift.map((d) => d.check))).toEqual(
          new Set(['WAGERING_MISMATCH', 'HOLD_MISMATCH', 'BALANCE_MISMATCH', 'CROSS_SITE']),
        );
        expect(report.drift.find((d) => d.check === 'HOLD_MISMATCH')).toMatchObject({
          expectedMinor: 400n,
          actualMinor: 100n,
        });
        expect(report.drift.find((d) => d.check === 'WAGERING_MISMATCH')).toMatchObject({
          expectedMinor: 0n,
          actualMinor: 7n,
        });
        throw sentinel;
      }),
    ).rejects.toBe(sentinel);
    expect((await reconcile(db, { siteId: driftSite })).drift).toEqual([]);
  });
});
