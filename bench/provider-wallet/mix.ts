import type { TProviderStatus, TWalletCall } from '@sorte/contract';

/**
 * The aggregator's mix of seamless-wallet calls, and what each answer should have moved. A round is
 * a list of calls sent one after the other (each once the one before answered), as an aggregator's
 * game server sends them: sometimes a balance call first, a bet of 0.10, then a win (70 % of
 * rounds), a rollback (10 %) or nothing (the bet closes the round); some calls are sent again with
 * the same transaction id (an answer the aggregator did not get), and some rounds send their
 * rollback before the bet it undoes (the bet then arrives late and is refused).
 */

export interface TMixShares {
  /** Rounds that start with a balance call. */
  balance: number;
  /** Rounds whose bet is followed by a win; `rollback` by a rollback; the rest end with the bet. */
  win: number;
  rollback: number;
  /** Bets and wins sent a second time with the same transaction id once their answer arrived. */
  retry: number;
  /** Rounds whose rollback arrives before its bet. */
  rollbackFirst: number;
}

export const MIX: TMixShares = { balance: 0.3, win: 0.7, rollback: 0.1, retry: 0.05, rollbackFirst: 0.02 };

/** The stake of every bet (0.10) and the wins a winning round may pay, in minor units. */
export const STAKE_MINOR = 10n;
const WINS_MINOR = [5n, 10n, 10n, 15n, 20n] as const;

export interface TPlannedCall {
  kind: TWalletCall;
  /** The body without its request_uuid (each HTTP attempt gets its own, as the aggregator's client does). */
  body: Record<string, unknown>;
  /** The answer a correct wallet gives this call. */
  expected: TProviderStatus;
  /** The transaction id of the call (null for balance). */
  transactionId: string | null;
  /** For a rollback: the bet it undoes. */
  referenceId: string | null;
  /** What the player's cash + bonus move by when this transaction is first answered RS_OK. */
  movesMinor: bigint;
}

export interface TRoundPlayer {
  index: number;
  token: string;
}

const formatMinor = (minor: bigint) => `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;

/** One round's calls for `player` in `gameCode`, drawn with `random` (0 ≤ x < 1) and unique `id`s. */
export function planRound(
  random: () => number,
  id: () => string,
  player: TRoundPlayer,
  gameCode: string,
  shares: TMixShares = MIX,
): TPlannedCall[] {
  const base = { token: player.token, game_code: gameCode };
  const round = `r-${id()}`;
  const betId = `b-${id()}`;
  const calls: TPlannedCall[] = [];
  if (random() < shares.balance) {
    calls.push({
      kind: 'balance',
      body: { ...base, currency: 'BRL' },
      expected: 'RS_OK',
      transactionId: null,
      referenceId: null,
      movesMinor: 0n,
    });
  }
  const fate = random();
  const bet = (roundClosed: boolean, expected: TProviderStatus): TPlannedCall => ({
    kind: 'bet',
    body: {
      ...base,
      transaction_uuid: betId,
      round,
      amount: formatMinor(STAKE_MINOR),
      currency: 'BRL',
      ...(roundClosed ? { round_closed: true } : {}),
    },
    expected,
    transactionId: betId,
    referenceId: null,
    movesMinor: -STAKE_MINOR,
  });
  const rollback = (): TPlannedCall => {
    const rollbackId = `rb-${id()}`;
    return {
      kind: 'rollback',
      body: { ...base, transaction_uuid: rollbackId, reference_transaction_uuid: betId, round },
      expected: 'RS_OK',
      transactionId: rollbackId,
      referenceId: betId,
      movesMinor: STAKE_MINOR,
    };
  };
  const retried = (call: TPlannedCall) => (random() < shares.retry ? [call, call] : [call]);
  if (fate < shares.rollbackFirst) {
    // The rollback overtook its bet: it leaves a tombstone, and the late bet is refused.
    calls.push(rollback(), bet(false, 'RS_ERROR_TRANSACTION_ROLLED_BACK'));
  } else if (fate < shares.rollbackFirst + shares.win) {
    const winId = `w-${id()}`;
    const amountMinor = WINS_MINOR[Math.floor(random() * WINS_MINOR.length)]!;
    calls.push(...retried(bet(false, 'RS_OK')));
    calls.push(
      ...retried({
        kind: 'win',
        body: {
          ...base,
          transaction_uuid: winId,
          reference_transaction_uuid: betId,
          round,
          amount: formatMinor(amountMinor),
          currency: 'BRL',
          round_closed: true,
        },
        expected: 'RS_OK',
        transactionId: winId,
        referenceId: betId,
        movesMinor: amountMinor,
      }),
    );
  } else if (fate < shares.rollbackFirst + shares.win + shares.rollback) {
    calls.push(...retried(bet(false, 'RS_OK')), rollback());
  } else {
    calls.push(...retried(bet(true, 'RS_OK')));
  }
  return calls;
}

/**
 * What the answers moved, per player, counted from the answers alone: the first RS_OK of a
 * transaction id moves its amount (a retry's RS_OK is the same transaction answered again); a
 * rollback refunds only a bet that was answered RS_OK before it. The sum of a player's cash and
 * bonus at the end must equal their sum at the start plus this.
 */
export class AnswerBook {
  private readonly done = new Set<string>();
  readonly movedMinor: bigint[];
  /** Answers other than the one a correct wallet gives, by "kind status". */
  readonly unexpected = new Map<string, number>();

  constructor(players: number) {
    this.movedMinor = Array.from({ length: players }, () => 0n);
  }

  record(player: number, call: TPlannedCall, status: string): void {
    if (status !== call.expected) {
      const key = `${call.kind} ${status}`;
      this.unexpected.set(key, (this.unexpected.get(key) ?? 0) + 1);
    }
    if (status !== 'RS_OK' || call.transactionId === null || this.done.has(call.transactionId)) return;
    this.done.add(call.transactionId);
    if (call.kind === 'rollback' && (call.referenceId === null || !this.done.has(call.referenceId))) return;
    this.movedMinor[player]! += call.movesMinor;
  }
}
