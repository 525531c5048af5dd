import type {
  TGameCategory,
  TProviderStatus,
  TWalletBetRequest,
  TWalletResponse,
  TWalletRollbackRequest,
  TWalletWinRequest,
} from '@sorte/contract';
import type { GroupItem } from '../../db/group-queue.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { cashWin } from '../wallet/posting/grant-parts.ts';
import { decideTransfer, type GroupLedger, type PlannedTransfer } from '../wallet/posting/plan.ts';
import type { PreparedTransfer } from '../wallet/posting/request.ts';
import { groupPlayable } from '../wallet/wallet.group.ts';
import type { TCallRead, TRoundRead, TTxRead } from './provider-group.repo.ts';
import type { TSessionWithGame } from './providers.repo.ts';
import { ok, replay, type TWalletContext, WITH_BALANCE } from './providers.wallet.ts';

/**
 * What a group of provider wallet calls decides for each call from the rows its read locked
 * (providers.bet-group.ts, ADR 038), by the rules of the one-by-one call (providers.wallet.ts) and in
 * its order: a replay, the round's and the referenced transaction's refusals, then the money. Pure:
 * nothing here reads or writes.
 */

export type TCall =
  | { kind: 'bet'; body: TWalletBetRequest; amountMinor: bigint }
  | { kind: 'win'; body: TWalletWinRequest; amountMinor: bigint }
  | { kind: 'rollback'; body: TWalletRollbackRequest };

export type TReady = { category: TGameCategory; jurisdiction: TJurisdiction };

/** A call queued for a group. */
export type TQueued = {
  context: TWalletContext;
  session: TSessionWithGame;
  call: TCall;
  hash: string;
} & GroupItem<TReady, TWalletResponse>;

export type TCallItem = TQueued & TReady;

/** The provider rows a group's read locked, by `aggregator:ref`, and its per-call rows by order. */
export type TGroupRead = {
  transactions: Map<string, TTxRead>;
  rounds: Map<string, TRoundRead>;
  calls: Map<number, TCallRead>;
};

export const refOf = (aggregator: string, ref: string) => `${aggregator}:${ref}`;

/** What the checks before the money decided: an answer, one by one, or the money to move. */
export type TChecked =
  | { answer: TWalletResponse }
  | { defer: true }
  | { bet: { round: TRoundRead | null; roundId: bigint } }
  | { win: { round: TRoundRead; bet: TTxRead } }
  | { tombstone: true }
  | { undone: { bet: TTxRead } }
  | { refund: { round: TRoundRead; bet: TTxRead; stake: NonNullable<TTxRead['stake']> } };

const answer = (status: TProviderStatus): TChecked => ({ answer: { status } });

/** A refusal as the one-by-one call answers it: with the balance as it is for some statuses. */
export function refusal(item: TCallItem, ledger: GroupLedger, status: TProviderStatus): TWalletResponse {
  if (!WITH_BALANCE.has(status)) return { status };
  return { ...ok(item.session, playableOf(item, ledger)), status };
}

/** The member's cash and bonus as the group's planned transfers leave them (0 without accounts). */
export function playableOf(item: TCallItem, ledger: GroupLedger): bigint {
  return groupPlayable(ledger, item.session.siteId, item.session.memberId);
}

/** The checks of a call up to its money, on the group's read (`moneyCall` and each call's rules). */
export function checkCall(item: TCallItem, ord: number, read: TGroupRead): TChecked {
  const { aggregator } = item.context;
  const own = read.transactions.get(refOf(aggregator, item.call.body.transaction_uuid));
  if (own) return { answer: replay(ownRow(own), item.hash) };
  const { call, session } = item;
  if (call.kind === 'bet' && session.expired) return answer('RS_ERROR_TOKEN_EXPIRED');
  const round = read.rounds.get(refOf(aggregator, call.body.round)) ?? null;
  const mine = round !== null && BigInt(round.member_id) === session.memberId;
  if (call.kind === 'bet') {
    if (round && !mine) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    const closed = roundClosed(round);
    if (closed) return closed;
    const roundId = round ? BigInt(round.id) : BigInt(read.calls.get(ord)?.round_id ?? '0');
    return { bet: { round, roundId } };
  }
  const referenced = read.transactions.get(refOf(aggregator, call.body.reference_transaction_uuid));
  if (call.kind === 'win') {
    if (!round || !mine) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    const closed = roundClosed(round);
    if (closed) return closed;
    if (referenced?.kind !== 'bet' || referenced.round_id !== round.id) {
      return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    }
    if (referenced.rolled_back_by !== null) return answer('RS_ERROR_TRANSACTION_ROLLED_BACK');
    // A stake with a bonus part is paid back in its proportion: `payWin`'s to split.
    if (call.amountMinor > 0n && referenced.stake?.bonus !== false) return { defer: true };
    return { win: { round, bet: referenced } };
  }
  return checkRollback(referenced ?? null, round, session);
}

/** A rollback's checks (`walletRollback`): a tombstone, nothing more to undo, or the refund. */
function checkRollback(bet: TTxRead | null, round: TRoundRead | null, session: TSessionWithGame): TChecked {
  // The bet never reached us: a tombstone under its id refuses it if it arrives late.
  if (!bet) return { tombstone: true };
  if (BigInt(bet.member_id) !== session.memberId) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  if (bet.kind === 'tombstone' || bet.rolled_back_by !== null) return { undone: { bet } };
  if (bet.kind !== 'bet' || bet.round_id === null) return answer('RS_ERROR_WRONG_TYPES');
  if (!round || round.id !== bet.round_id) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
  // A round that paid a win is an outcome the player saw; its bets are no longer undone.
  if (round.wins > 0) return answer('RS_ERROR_ROUND_CLOSED');
  // A bonus part goes back to its grant, a fed grant loses its wagering: `payWin`'s to refund.
  if (!bet.stake || bet.stake.bonus || bet.stake.fed) return { defer: true };
  return { refund: { round, bet, stake: bet.stake } };
}

function roundClosed(round: TRoundRead | null): TChecked | null {
  if (round?.status === 'rolled_back') return answer('RS_ERROR_TRANSACTION_ROLLED_BACK');
  if (round && round.status !== 'open') return answer('RS_ERROR_ROUND_CLOSED');
  return null;
}

/** A read row as `replay` takes it. */
function ownRow(row: TTxRead) {
  return { kind: row.kind, requestHash: row.request_hash, response: row.response } as Parameters<
    typeof replay
  >[0];
}

/** The transfer a win or a refund posts (all to cash: its stake was cash alone), as `payWin` does. */
export function cashPayout(
  item: TCallItem,
  what: { kind: 'win' | 'refund'; amountMinor: bigint; betRef: string; roundId: string; wagering?: bigint },
): PreparedTransfer {
  const { aggregator } = item.context;
  const { body } = item.call;
  const key =
    what.kind === 'win'
      ? `provider:${aggregator}:${body.transaction_uuid}`
      : `provider:${aggregator}:refund:${what.betRef}`;
  return cashWin({
    kind: what.kind,
    siteId: item.session.siteId,
    memberId: item.session.memberId,
    amountMinor: what.amountMinor,
    idempotencyKey: key,
    stakeKey: `provider:${aggregator}:${what.betRef}`,
    ...(what.wagering && what.wagering > 0n ? { wageringAddMinor: what.wagering } : {}),
    reference: `provider-round:${what.roundId}`,
    metadata: {
      aggregator,
      game: body.game_code,
      round: body.round,
      ...(what.kind === 'refund' ? { rollback: body.transaction_uuid } : {}),
    },
  });
}

/** A planned money move, a refusal the call answers, one by one, or the whole group alone. */
export type TMoney = { plan: PlannedTransfer } | { refused: true } | { defer: true } | { alone: string };

/** A win's or refund's transfer decided on the ledger: refused only past a ceiling, `post`'s to answer. */
export function planPayout(ledger: GroupLedger, prepared: PreparedTransfer): TMoney {
  const decision = decideTransfer(ledger, prepared);
  if (decision.kind === 'plan') return { plan: decision.plan };
  if (decision.kind === 'alone') return { alone: decision.reason };
  return { defer: true };
}

/** A bet's stake decided on the ledger: an empty wallet is the game's "not enough money". */
export function planStake(ledger: GroupLedger, prepared: PreparedTransfer): TMoney {
  const decision = decideTransfer(ledger, prepared);
  if (decision.kind === 'plan') return { plan: decision.plan };
  if (decision.kind === 'alone') return { alone: decision.reason };
  const { code } = decision.error;
  if (code === 'INSUFFICIENT_FUNDS' || code === 'ACCOUNT_NOT_FOUND') return { refused: true };
  return { defer: true };
}
