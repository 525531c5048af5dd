import type { TWalletResponse } from '@sorte/contract';
import { betTurnover } from '../promotions/stake.ts';
import type { TGroupStake } from '../promotions/vip.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { playRefusal } from '../responsible-gaming/rg.service.ts';
import type { TFedGrant } from '../wallet/posting/grant-parts.ts';
import type { GroupLedger, PlannedTransfer } from '../wallet/posting/plan.ts';
import { groupStake } from '../wallet/wallet.group.ts';
import type {
  TCallRead,
  TRoundInsert,
  TRoundRead,
  TRoundUpdate,
  TTxInsert,
  TTxRead,
} from './provider-group.repo.ts';
import {
  cashPayout,
  planPayout,
  planStake,
  playableOf,
  refOf,
  refusal,
  type TCallItem,
  type TChecked,
  type TGroupRead,
  type TMoney,
} from './providers.group-calls.ts';
import { LIMIT_CODES, ok } from './providers.wallet.ts';

/**
 * A group's decisions in arrival order (ADR 038): each call's checks (providers.group-calls.ts) and
 * money on the group's ledger. A call that names a member, round or transaction id an earlier call
 * of the group writes or leaves to the one-by-one path goes that way too, after it, so the order of
 * dependent calls holds; a retry of a call the group writes answers what that call stored.
 */

/** What a group writes for one call. */
export type TWrite = {
  item: TCallItem;
  plan: PlannedTransfer | null;
  fed: TFedGrant | null;
  stake: TGroupStake | null;
  roundNew: TRoundInsert | null;
  roundMoved: TRoundUpdate | null;
  transactions: TTxInsert[];
  undone: { bet_id: string; aggregator: string; rollback_ref: string } | null;
  response: TWalletResponse;
};

/** A call's outcome in the group: answered, one by one, written, or the retry of one written. */
export type TSlot = { answer: TWalletResponse } | { defer: true } | { write: TWrite } | { retryOf: string };

type TDecided = TSlot | { alone: string };

/** Every call of the group in order, or that the group goes alone (the planner's decision). */
export function decideCalls(
  group: readonly TCallItem[],
  checks: readonly TChecked[],
  gates: ReadonlyMap<number, Record<string, unknown>>,
  read: TGroupRead,
  ledger: GroupLedger,
): { slots: TSlot[] } | { alone: string } {
  const claimed = new Set<string>();
  const written = new Map<string, { kind: string; hash: string }>();
  const slots: TSlot[] = [];
  for (const [ord, item] of group.entries()) {
    const own = refOf(item.context.aggregator, item.call.body.transaction_uuid);
    const earlier = written.get(own);
    if (earlier) {
      slots.push(retried(earlier, item.hash, own));
      continue;
    }
    const keys = keysOf(item);
    const decided: TDecided = keys.some((key) => claimed.has(key))
      ? { defer: true }
      : decideOne(item, checks[ord]!, gates.get(ord), read.calls.get(ord), ledger);
    if ('alone' in decided) return decided;
    // What writes now or later holds its ids for the rest of the group.
    if ('defer' in decided || 'write' in decided) for (const key of keys) claimed.add(key);
    if ('write' in decided) {
      for (const t of decided.write.transactions) written.set(refOf(t.aggregator, t.ref), t);
    }
    slots.push(decided);
  }
  return { slots };
}

/** A call whose transaction id an earlier call of the group wrote, answered as `replay` would. */
function retried(earlier: { kind: string; hash: string }, hash: string, own: string): TSlot {
  if (earlier.kind === 'tombstone') return { answer: { status: 'RS_ERROR_TRANSACTION_ROLLED_BACK' } };
  if (earlier.hash !== hash) return { answer: { status: 'RS_ERROR_DUPLICATE_TRANSACTION' } };
  return { retryOf: own };
}

function keysOf(item: TCallItem): string[] {
  const { aggregator } = item.context;
  const { body } = item.call;
  const keys = [`m:${item.session.siteId}:${item.session.memberId}`, `r:${refOf(aggregator, body.round)}`];
  keys.push(`t:${refOf(aggregator, body.transaction_uuid)}`);
  if ('reference_transaction_uuid' in body)
    keys.push(`t:${refOf(aggregator, body.reference_transaction_uuid)}`);
  return keys;
}

function decideOne(
  item: TCallItem,
  check: TChecked,
  gate: Record<string, unknown> | undefined,
  callRead: TCallRead | undefined,
  ledger: GroupLedger,
): TDecided {
  if ('answer' in check || 'defer' in check) return check;
  if ('bet' in check) return decideBet(item, check.bet, gate, callRead, ledger);
  if ('win' in check) return decideWin(item, check.win.round, check.win.bet, ledger);
  if ('refund' in check) return decideRefund(item, check.refund.round, check.refund.bet, ledger);
  if ('tombstone' in check)
    return { write: rollbackWrite(item, ledger, { roundId: null, plan: null, tombstone: true }) };
  const roundId = check.undone.bet.round_id;
  return { write: rollbackWrite(item, ledger, { roundId, plan: null, tombstone: false }) };
}

/** A bet: the play gate, the stake (a bonus part or max bet: one by one), the round and its row. */
function decideBet(
  item: TCallItem,
  bet: { round: TRoundRead | null; roundId: bigint },
  gate: Record<string, unknown> | undefined,
  callRead: { vip: TGroupStake['vipBefore'] } | undefined,
  ledger: GroupLedger,
): TDecided {
  if (item.call.kind !== 'bet' || !gate || !callRead || gate.gate_due === true) return { defer: true };
  const { session, context, call, jurisdiction, category } = item;
  const site = { id: session.siteId, jurisdiction };
  const refused = playRefusal(site, gateOf(gate), call.amountMinor);
  if (refused) {
    const status = LIMIT_CODES.has(refused.code) ? 'RS_ERROR_LIMIT_REACHED' : 'RS_ERROR_USER_DISABLED';
    return { answer: refusal(item, ledger, status) };
  }
  const key = `provider:${context.aggregator}:${call.body.transaction_uuid}`;
  const staked = groupStake(ledger, {
    siteId: session.siteId,
    memberId: session.memberId,
    amountMinor: call.amountMinor,
    idempotencyKey: key,
    reference: `provider-round:${bet.roundId}`,
    metadata: { aggregator: context.aggregator, game: call.body.game_code, round: call.body.round },
    category,
  });
  if (!staked) return { defer: true };
  const money = planStake(ledger, staked.stake);
  if ('refused' in money) return { answer: refusal(item, ledger, 'RS_ERROR_NOT_ENOUGH_MONEY') };
  if (!('plan' in money)) return money;
  const response = ok(session, playableOf(item, ledger), { transaction_uuid: call.body.transaction_uuid });
  const closed = call.body.round_closed ?? false;
  const stake: TGroupStake = {
    siteId: session.siteId,
    memberId: session.memberId,
    jurisdiction,
    category,
    stakeMinor: call.amountMinor,
    turnover: betTurnover(jurisdiction, category, call.amountMinor, 0n),
    vipBefore: callRead.vip,
  };
  const roundId = String(bet.roundId);
  return {
    write: {
      ...noWrite(item, response),
      plan: money.plan,
      fed: staked.fed,
      stake,
      roundNew: bet.round ? null : roundInsert(item, roundId, call.amountMinor, closed),
      roundMoved: bet.round ? moved(bet.round, { stake: call.amountMinor }, closed ? 'settled' : null) : null,
      transactions: [txRow(item, 'bet', { roundId, amount: call.amountMinor, transferKey: key, response })],
    },
  };
}

/** A win: all of it to cash (its stake was cash alone), the round's payout, the win's row. */
function decideWin(item: TCallItem, round: TRoundRead, bet: TTxRead, ledger: GroupLedger): TDecided {
  if (item.call.kind !== 'win') return { defer: true };
  const { call } = item;
  let money: TMoney | null = null;
  if (call.amountMinor > 0n) {
    const payout = cashPayout(item, {
      kind: 'win',
      amountMinor: call.amountMinor,
      betRef: bet.transaction_ref,
      roundId: round.id,
    });
    money = planPayout(ledger, payout);
    if (!('plan' in money)) return 'alone' in money ? money : { defer: true };
  }
  const plan = money && 'plan' in money ? money.plan : null;
  const response = ok(item.session, playableOf(item, ledger), {
    transaction_uuid: call.body.transaction_uuid,
  });
  const closes = call.body.round_closed !== false;
  return {
    write: {
      ...noWrite(item, response),
      plan,
      roundMoved: moved(round, { payout: call.amountMinor }, closes ? 'settled' : null),
      transactions: [
        txRow(item, 'win', {
          roundId: round.id,
          referenceRef: call.body.reference_transaction_uuid,
          amount: call.amountMinor,
          transferKey: plan ? plan.prepared.posting.idempotencyKey : null,
          response,
        }),
      ],
    },
  };
}

/** A rollback of a bet taken: its stake back to cash with the wagering it lowered, the bet undone. */
function decideRefund(item: TCallItem, round: TRoundRead, bet: TTxRead, ledger: GroupLedger): TDecided {
  const wagering = BigInt(bet.stake?.wagering ?? '0');
  const amount = BigInt(bet.amount_minor);
  const payout = cashPayout(item, {
    kind: 'refund',
    amountMinor: amount,
    betRef: bet.transaction_ref,
    roundId: round.id,
    wagering: wagering < 0n ? -wagering : 0n,
  });
  const money = planPayout(ledger, payout);
  if (!('plan' in money)) return 'alone' in money ? money : { defer: true };
  const write = rollbackWrite(item, ledger, { roundId: round.id, plan: money.plan, tombstone: false });
  const refunded = BigInt(round.refunded_minor) + amount;
  const status = refunded === BigInt(round.stake_minor) ? 'rolled_back' : null;
  const { aggregator } = item.context;
  return {
    write: {
      ...write,
      roundMoved: moved(round, { refunded: amount }, status),
      undone: { bet_id: bet.id, aggregator, rollback_ref: item.call.body.transaction_uuid },
    },
  };
}

/** A rollback's row (and, for a bet that never reached us, the tombstone under the bet's id). */
function rollbackWrite(
  item: TCallItem,
  ledger: GroupLedger,
  what: { roundId: string | null; plan: PlannedTransfer | null; tombstone: boolean },
): TWrite {
  if (item.call.kind !== 'rollback') throw new Error('a rollback write for another call');
  const { body } = item.call;
  const response = ok(item.session, playableOf(item, ledger), {
    transaction_uuid: body.transaction_uuid,
    reference_transaction_uuid: body.reference_transaction_uuid,
  });
  const transactions = [
    txRow(item, 'rollback', {
      roundId: what.roundId,
      referenceRef: body.reference_transaction_uuid,
      amount: 0n,
      transferKey: what.plan ? what.plan.prepared.posting.idempotencyKey : null,
      response,
    }),
  ];
  // The rollback named a bet that never reached us: a tombstone under the bet's id refuses it later.
  if (what.tombstone) {
    transactions.push({
      ...txRow(item, 'tombstone', {
        roundId: null,
        referenceRef: body.transaction_uuid,
        amount: 0n,
        transferKey: null,
        response: {},
      }),
      ref: body.reference_transaction_uuid,
    });
  }
  return { ...noWrite(item, response), plan: what.plan, transactions };
}

/** A write of nothing but the call's response (each decision fills in what it moves). */
function noWrite(item: TCallItem, response: TWalletResponse): TWrite {
  return {
    item,
    plan: null,
    fed: null,
    stake: null,
    roundNew: null,
    roundMoved: null,
    transactions: [],
    undone: null,
    response,
  };
}

/** A provider_transactions row of the call (its own id unless a tombstone's `ref` replaces it). */
function txRow(
  item: TCallItem,
  kind: TTxInsert['kind'],
  what: {
    roundId: string | null;
    referenceRef?: string;
    amount: bigint;
    transferKey: string | null;
    response: Record<string, unknown>;
  },
): TTxInsert {
  return {
    ord: 0,
    aggregator: item.context.aggregator,
    ref: item.call.body.transaction_uuid,
    kind,
    site_id: String(item.session.siteId),
    member_id: String(item.session.memberId),
    round_id: what.roundId,
    reference_ref: what.referenceRef ?? null,
    amount: String(what.amount),
    hash: item.hash,
    transfer_key: what.transferKey,
    response: what.response,
  };
}

/** The round a bet opens (`openRoundForUpdate`), with its stake (settled when the bet closes it). */
function roundInsert(item: TCallItem, id: string, stakeMinor: bigint, closed: boolean): TRoundInsert {
  const { session } = item;
  return {
    id,
    aggregator: item.context.aggregator,
    round_ref: item.call.body.round,
    site_id: String(session.siteId),
    member_id: String(session.memberId),
    game_id: String(session.gameId),
    session_id: String(session.id),
    stake: String(stakeMinor),
    closed,
  };
}

/** A round's totals after a call adds to them (`updateRound`), and the status it takes. */
function moved(
  round: TRoundRead,
  add: { stake?: bigint; payout?: bigint; refunded?: bigint },
  status: string | null,
): TRoundUpdate {
  return {
    id: round.id,
    stake: String(BigInt(round.stake_minor) + (add.stake ?? 0n)),
    payout: String(BigInt(round.payout_minor) + (add.payout ?? 0n)),
    refunded: String(BigInt(round.refunded_minor) + (add.refunded ?? 0n)),
    status,
  };
}
