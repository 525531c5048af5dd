import type { TSportsBet } from '@sorte/contract';
import type { Tx } from '../../db/client.ts';
import { memberPushNotice } from '../realtime/member-channel.ts';
import { cashWin } from '../wallet/posting/grant-parts.ts';
import { type PlannedTransfer, planOrFail } from '../wallet/posting/plan.ts';
import { emptyLedger, readLedger, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { sportsProfile } from './sports.profiles.ts';
import { betMessage } from './sports.realtime.ts';
import { betView, type TBetRow, type TLegRow } from './sports.repo.ts';
import { queuePushes, settledBetsSide, type TSettledBet } from './sports.settle-group.repo.ts';

/**
 * Settlement of a match's bets in groups (ADR 027): when the result of a final comes in, tens of
 * thousands of bets are settled in the transaction that enters it, and the winners' accounts stay
 * locked until it commits. Bet by bet that was seven statements each. Here the first settlement of bets staked in cash is written about
 * GROUP_SIZE bets at a time (whole members, ascending id), in two statements per group: lock the
 * members' accounts (the wallet's group lock), then insert every win transfer and move every
 * balance, update every bet and queue every push. Each win is the transfer `payWin` posts for a
 * stake paid in cash, under the same key.
 */

/** Bets per group: each group's statements carry their rows as one JSON parameter. */
const GROUP_SIZE = 1_000;

/** A bet whose outcome changed, as `resettleBets` decided it. */
export type TNewOutcome = {
  bet: TBetRow;
  legs: TLegRow[];
  status: TSportsBet['status'];
  payoutMinor: bigint;
};

export type TGroupSettlement = {
  /** First settlements of cash stakes (no payout to take back). */
  settled: TNewOutcome[];
  /** Bets whose outcome did not change, pushed again for their legs (GROUP_SIZE a statement). */
  pushed: { memberId: bigint; view: TSportsBet }[];
  /** The transaction's start (ms): the settled_at it writes. */
  nowMs: string;
};

/**
 * The settlements in groups of whole members, in ascending member id, each member's in bet order.
 * A member's accounts are created with the member, so the groups take the accounts' locks in
 * ascending id from the first group to the last, the order of every group commit (ADR 019). A
 * settlement then does not deadlock with the bet groups of the same players. About GROUP_SIZE
 * bets a group.
 */
function byMembers(settled: readonly TNewOutcome[]): TNewOutcome[][] {
  const members = new Map<string, TNewOutcome[]>();
  for (const outcome of settled) {
    const list = members.get(outcome.bet.member_id) ?? [];
    list.push(outcome);
    members.set(outcome.bet.member_id, list);
  }
  const order = [...members.keys()].sort((a, b) =>
    BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0,
  );
  const groups: TNewOutcome[][] = [];
  let group: TNewOutcome[] = [];
  for (const member of order) {
    if (group.length >= GROUP_SIZE) {
      groups.push(group);
      group = [];
    }
    group.push(...members.get(member)!);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** The key, stake key and reference of settlement `seq`'s payout of bet `betId`. */
export function settlementWin(betId: string, seq: number) {
  return {
    idempotencyKey: `sports-bet:${betId}:pay:${seq}`,
    stakeKey: `sports-bet:${betId}:stake`,
    reference: `sports-bet:${betId}`,
  };
}

/**
 * Writes the settlements in groups, in the caller's transaction, in their order. A win the wallet
 * refuses (a balance past the ledger's ceiling) fails the settlement, as `payWin` fails it.
 */
export async function settleInGroups(
  tx: Tx,
  site: { id: bigint; jurisdiction: Parameters<typeof sportsProfile>[0] },
  work: TGroupSettlement,
): Promise<void> {
  const marginBp = sportsProfile(site.jurisdiction).cashOutMarginBp;
  const settledAt = new Date(Number(work.nowMs));
  for (const group of byMembers(work.settled)) {
    // The winners' accounts (a lost bet moves no money).
    const winners = [...new Set(group.filter((o) => o.payoutMinor > 0n).map(({ bet }) => bet.member_id))];
    const { ledger } =
      winners.length === 0
        ? { ledger: emptyLedger() }
        : await readLedger(tx, {
            name: 'sorte_sports_settle_lock',
            members: winners.map((id) => ({ siteId: site.id, memberId: BigInt(id) })),
          });
    const plans: PlannedTransfer[] = [];
    const written: { outcome: TNewOutcome; after: TBetRow }[] = [];
    for (const outcome of group) {
      const { bet, status, payoutMinor } = outcome;
      const seq = bet.settle_seq + 1;
      if (payoutMinor > 0n) {
        plans.push(
          planOrFail(
            ledger,
            cashWin({
              siteId: site.id,
              memberId: BigInt(bet.member_id),
              amountMinor: payoutMinor,
              ...settlementWin(bet.id, seq),
              metadata: { product: 'sports', betId: bet.id, outcome: status, settlement: seq },
              kind: status === 'void' ? 'refund' : 'win',
            }),
          ),
        );
      }
      const after: TBetRow = {
        ...bet,
        status,
        payout_minor: payoutMinor.toString(),
        settle_seq: seq,
        settled_at: status === 'open' ? null : settledAt,
      };
      written.push({ outcome, after });
    }
    const bets = written.map(
      ({ after }): TSettledBet => ({
        id: after.id,
        status: after.status,
        payout: after.payout_minor,
        seq: after.settle_seq,
      }),
    );
    const pushes = written.map(({ outcome, after }) =>
      memberPushNotice(site.id, BigInt(after.member_id), betMessage(betView(after, outcome.legs, marginBp))),
    );
    const { rows, answer: resultOf } = await writePosting(tx, {
      name: 'sorte_sports_settle_write',
      ledger,
      plans,
      commitWithIt: false,
      side: settledBetsSide(bets, pushes),
    });
    for (const plan of plans) resultOf(plan, false);
    const count = (what: string) => Number(rows.find((r) => r.what === what)?.row.n ?? -1);
    assertInvariant(count('bets') === bets.length, 'every bet of the group settled');
    assertInvariant(count('pushed') === pushes.length, 'every push of the group queued');
  }
  for (let at = 0; at < work.pushed.length; at += GROUP_SIZE) {
    const pushes = work.pushed
      .slice(at, at + GROUP_SIZE)
      .map(({ memberId, view }) => memberPushNotice(site.id, memberId, betMessage(view)));
    await queuePushes(tx, pushes);
  }
}
