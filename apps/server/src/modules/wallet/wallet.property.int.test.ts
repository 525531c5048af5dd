import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestDatabases, databaseKinds, testDatabase } from '../../../test/databases.ts';
import type { Db } from '../../db/client.ts';
import { getBalances, getSystemBalances } from './balances.ts';
import { hold, releaseHold, settleHold } from './holds.ts';
import type { TransferInput } from './posting/request.ts';
import { WalletError } from './wallet.errors.ts';
import { createTestMember, createTestSite } from './wallet.fixtures.ts';
import { reconcile } from './wallet.reconcile.ts';
import type { TransferResult, TSystemAccountKind } from './wallet.schema.ts';
import { transfer } from './wallet.service.ts';

/**
 * Model-based property: random sequences of deposits, bets (cash and bonus), wins, bonus grants
 * with wagering, withdrawal holds, approvals (settle, with fees), rejections (release), replays of
 * earlier requests and conflicting reuse of earlier keys. After EVERY step the wallet must agree with
 * a plain in-memory model (member balances, wagering, system balances) and reconcile() must report
 * no drift. Each run gets its own site, so the site-scoped reconcile sees exactly this history.
 */

const kinds = await databaseKinds();
afterAll(closeTestDatabases);

// Few members and small amounts so that histories collide: bets exhaust balances and wagering,
// holds meet insufficient funds, settles meet already-resolved holds.
const MEMBERS = 2;
const amount = fc.bigInt({ min: 1n, max: 2_000n });
const member = fc.integer({ min: 0, max: MEMBERS - 1 });

type Op =
  | { op: 'deposit'; m: number; amount: bigint }
  | { op: 'bet'; m: number; amount: bigint; fromBonus: boolean }
  | { op: 'win'; m: number; amount: bigint }
  | { op: 'grant'; m: number; amount: bigint; multiplier: bigint }
  | { op: 'convert'; m: number; amount: bigint }
  | { op: 'hold'; m: number; amount: bigint }
  | { op: 'settle'; pick: number; fee: bigint }
  | { op: 'release'; pick: number }
  | { op: 'replay'; pick: number }
  | { op: 'conflict'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('deposit' as const), m: member, amount }) },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('bet' as const), m: member, amount, fromBonus: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('win' as const), m: member, amount }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('grant' as const),
      m: member,
      amount,
      multiplier: fc.bigInt({ min: 0n, max: 3n }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('convert' as const), m: member, amount }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('hold' as const), m: member, amount }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('settle' as const),
      pick: fc.nat(),
      fee: fc.bigInt({ min: 0n, max: 200n }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('release' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replay' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('conflict' as const), pick: fc.nat() }) },
);

interface MemberModel {
  cash: bigint;
  bonus: bigint;
  hold: bigint;
  wagering: bigint;
}

interface Done {
  input: TransferInput;
  result: TransferResult;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

async function outcome<T>(promise: Promise<T>): Promise<T | string> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof WalletError) return error.code;
    throw error;
  }
}

describe.each(kinds)('wallet ledger property on %s', (kind) => {
  let db: Db;
  let run = 0;

  beforeAll(async () => {
    db = (await testDatabase(kind)).db;
  });

  it('agrees with the model and reconciles after every step of random histories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 40 }), async (ops) => {
        run += 1;
        const siteId = await createTestSite(db);
        const memberIds: bigint[] = [];
        for (let i = 0; i < MEMBERS; i++) memberIds.push(await createTestMember(db, siteId));
        const model: MemberModel[] = memberIds.map(() => ({ cash: 0n, bonus: 0n, hold: 0n, wagering: 0n }));
        const system: Record<TSystemAccountKind, bigint> = {
          house: 0n,
          psp_clearing: 0n,
          promotions_expense: 0n,
          provider_settlement: 0n,
          fees: 0n,
          suspense: 0n,
        };
        const done: Done[] = [];
        const holds: { transferId: bigint; m: number; amount: bigint; resolved: boolean }[] = [];
        let seq = 0;
        const nextKey = () => `p${run}-${++seq}`;

        /** Posts a generic transfer and records it when it succeeds. */
        const post = async (input: TransferInput, expected: string | null): Promise<void> => {
          const got = await outcome(transfer(db, input));
          if (typeof got === 'string') {
            expect(got).toBe(expected);
            return;
          }
          expect(expected).toBeNull();
          expect(got.replayed).toBe(false);
          done.push({ input, result: got });
        };

        for (const step of ops) {
          switch (step.op) {
            case 'deposit': {
              const mm = model[step.m]!;
              await post(
                {
                  siteId,
                  kind: 'deposit',
                  from: { system: 'psp_clearing' },
                  to: { memberId: memberIds[step.m]!, account: 'cash' },
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                  reference: 'order',
                },
                null,
              );
              mm.cash += step.amount;
              system.psp_clearing -= step.amount;
              break;
            }
            case 'bet': {
              const mm = model[step.m]!;
              const balance = step.fromBonus ? mm.bonus : mm.cash;
              const ok = balance >= step.amount;
              await post(
                {
                  siteId,
                  kind: 'bet',
                  from: { memberId: memberIds[step.m]!, account: step.fromBonus ? 'bonus' : 'cash' },
                  to: { system: 'house' },
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                  metadata: { roundId: `r${seq}` },
                },
                ok ? null : 'INSUFFICIENT_FUNDS',
              );
              if (ok) {
                if (step.fromBonus) mm.bonus -= step.amount;
                else mm.cash -= step.amount;
                mm.wagering -= min(mm.wagering, step.amount);
                system.house += step.amount;
              }
              break;
            }
            case 'win': {
              const mm = model[step.m]!;
              await post(
                {
                  siteId,
                  kind: 'win',
                  from: { system: 'house' },
                  to: { memberId: memberIds[step.m]!, account: 'cash' },
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                },
                null,
              );
              mm.cash += step.amount;
              system.house -= step.amount;
              break;
            }
            case 'grant': {
              const mm = model[step.m]!;
              const wageringAddMinor = step.amount * step.multiplier;
              await post(
                {
                  siteId,
                  kind: 'bonus_grant',
                  from: { system: 'promotions_expense' },
                  to: { memberId: memberIds[step.m]!, account: 'bonus' },
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                  wageringAddMinor,
                },
                null,
              );
              mm.bonus += step.amount;
              mm.wagering += wageringAddMinor;
              system.promotions_expense -= step.amount;
              break;
            }
            case 'convert': {
              const mm = model[step.m]!;
              const ok = mm.bonus >= step.amount;
              await post(
                {
                  siteId,
                  kind: 'bonus_convert',
                  from: { memberId: memberIds[step.m]!, account: 'bonus' },
                  to: { memberId: memberIds[step.m]!, account: 'cash' },
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                },
                ok ? null : 'INSUFFICIENT_FUNDS',
              );
              if (ok) {
                mm.bonus -= step.amount;
                mm.cash += step.amount;
              }
              break;
            }
            case 'hold': {
              const mm = model[step.m]!;
              const expected =
                mm.wagering > 0n ? 'WAGERING_NOT_MET' : mm.cash < step.amount ? 'INSUFFICIENT_FUNDS' : null;
              const got = await outcome(
                hold(db, {
                  siteId,
                  memberId: memberIds[step.m]!,
                  amountMinor: step.amount,
                  idempotencyKey: nextKey(),
                }),
              );
              if (typeof got === 'string') expect(got).toBe(expected);
              else {
                expect(expected).toBeNull();
                holds.push({ transferId: got.transferId, m: step.m, amount: step.amount, resolved: false });
                mm.cash -= step.amount;
                mm.hold += step.amount;
              }
              break;
            }
            case 'settle':
            case 'release': {
              if (holds.length === 0) break;
              const h = holds[step.pick % holds.length]!;
              const mm = model[h.m]!;
              const key = nextKey();
              if (step.op === 'settle') {
                const fee = step.fee < h.amount ? step.fee : 0n;
                const got = await outcome(
                  settleHold(db, {
                    siteId,
                    holdTransferId: h.transferId,
                    idempotencyKey: key,
                    feeMinor: fee,
                  }),
                );
                if (h.resolved) expect(got).toBe('HOLD_ALREADY_RESOLVED');
                else {
                  expect(typeof got).toBe('object');
                  mm.hold -= h.amount;
                  system.psp_clearing += h.amount - fee;
                  system.fees += fee;
                  h.resolved = true;
                }
              } else {
                const got = await outcome(
                  releaseHold(db, { siteId, holdTransferId: h.transferId, idempotencyKey: key }),
                );
                if (h.resolved) expect(got).toBe('HOLD_ALREADY_RESOLVED');
                else {
                  expect(typeof got).toBe('object');
                  mm.hold -= h.amount;
                  mm.cash += h.amount;
                  h.resolved = true;
                }
              }
              break;
            }
            case 'replay': {
              if (done.length === 0) break;
              const earlier = done[step.pick % done.length]!;
              const again = await transfer(db, earlier.input);
              expect(again).toEqual({ ...earlier.result, replayed: true });
              break;
            }
            case 'conflict': {
              if (done.length === 0) break;
              const earlier = done[step.pick % done.length]!;
              const got = await outcome(
                transfer(db, { ...earlier.input, amountMinor: earlier.input.amountMinor + 1n }),
              );
              expect(got).toBe('IDEMPOTENCY_CONFLICT');
              break;
            }
          }

          for (let i = 0; i < MEMBERS; i++) {
            const b = await getBalances(db, memberIds[i]!);
            const mm = model[i]!;
            expect({
              cash: b.cashMinor,
              bonus: b.bonusMinor,
              hold: b.holdMinor,
              wagering: b.wageringRequiredMinor,
            }).toEqual(mm);
          }
          expect(await getSystemBalances(db, siteId)).toEqual(system);
          const report = await reconcile(db, { siteId });
          expect(report.drift).toEqual([]);
          expect(report.sites).toEqual([{ siteId, balanceSumMinor: 0n }]);
        }
      }),
      { numRuns: 40 },
    );
    // 40 histories of up to 40 steps, each step followed by a full site reconcile: generous time on a
    // shared, busy machine (a limit on hanging, not a performance assertion).
  }, 240_000);
});
