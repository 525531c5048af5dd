import { randomBytes, randomUUID } from 'node:crypto';
import { formatMinor, type TAggregatorLaunchRequest, type TWalletResponse } from '@sorte/contract';
import {
  BACCARAT_SIDES,
  baccaratPayoutMinor,
  gameKindOf,
  playBaccarat,
  secureRandom,
  slotPayoutMinor,
  spinSlot,
  type TBaccaratOutcome,
  type TBaccaratSide,
  type TGameKind,
  type TRandom,
  type TSlotOutcome,
} from './games.ts';
import type { TKey, TLang } from './i18n.ts';
import { type WalletClient, WalletUnreachable } from './wallet-client.ts';

/**
 * Launch sessions and rounds. A launch creates a session the game page addresses by an
 * unguessable id (its URL). A real-money round is: draw the outcome, ask the operator to take the
 * bet, then report the win (0 for a loss) which closes the round. A bet whose fate is unknown
 * (no answer after the retries, or RS_ERROR_UNKNOWN) is rolled back; a win that cannot be
 * delivered now is queued and retried with the same transaction id. Demo sessions play with the
 * aggregator's own fun money and never call the operator.
 */

export const SESSION_LIMITS = {
  ttlMs: 2 * 60 * 60 * 1000,
  maxSessions: 10_000,
  demoBalanceMinor: 200_000n,
  pendingQueue: 1_000,
  pendingAttempts: 20,
} as const;

export interface TSession {
  id: string;
  mode: 'real' | 'demo';
  token: string | null;
  lang: TLang;
  kind: TGameKind;
  game: { code: string; name: string; brand: string; category: string };
  minBetMinor: bigint;
  maxBetMinor: bigint;
  /** Demo: the fun money; real: the last balance the operator told us (display only). */
  balanceMinor: bigint;
  expiresAt: number;
  busy: boolean;
}

const toMinor = (text: string) => {
  const [whole = '0', fraction = '00'] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
};

export class SessionStore {
  private readonly sessions = new Map<string, TSession>();

  constructor(private readonly now: () => number = Date.now) {}

  create(launch: TAggregatorLaunchRequest): TSession {
    this.sweep();
    const session: TSession = {
      id: randomBytes(24).toString('base64url'),
      mode: launch.mode,
      token: launch.token ?? null,
      lang: launch.lang,
      kind: gameKindOf(launch.category),
      game: {
        code: launch.game_code,
        name: launch.game_name,
        brand: launch.brand,
        category: launch.category,
      },
      minBetMinor: toMinor(launch.min_bet),
      maxBetMinor: toMinor(launch.max_bet),
      balanceMinor:
        launch.mode === 'demo'
          ? SESSION_LIMITS.demoBalanceMinor
          : launch.balance
            ? toMinor(launch.balance)
            : 0n,
      expiresAt: this.now() + SESSION_LIMITS.ttlMs,
      busy: false,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  get(id: string): TSession | null {
    const session = this.sessions.get(id);
    if (!session) return null;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return null;
    }
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Drops expired sessions, and the oldest ones beyond the limit (a Map iterates in insertion order). */
  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(id);
    while (this.sessions.size >= SESSION_LIMITS.maxSessions) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
  }
}

/** Wallet calls that must still reach the operator (a win or a rollback), retried in the background. */
export class PendingCalls {
  private readonly queue: { kind: 'win' | 'rollback'; body: Record<string, unknown>; attempts: number }[] =
    [];
  private timer: NodeJS.Timeout | null = null;
  private flushing = false;

  constructor(
    private readonly wallet: WalletClient,
    private readonly intervalMs = 5_000,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  add(kind: 'win' | 'rollback', body: Record<string, unknown>): void {
    if (this.queue.length >= SESSION_LIMITS.pendingQueue) {
      this.log(`pending wallet queue full; dropping ${kind} ${String(body.transaction_uuid)}`);
      return;
    }
    this.queue.push({ kind, body, attempts: 0 });
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  get length(): number {
    return this.queue.length;
  }

  /** One pass over the queue; a call leaves it on a definite answer or after its last attempt. */
  async flush(): Promise<void> {
    // A pass can outlast the interval (each call may retry): never run two at once.
    if (this.flushing) return;
    this.flushing = true;
    try {
      await this.pass();
    } finally {
      this.flushing = false;
    }
  }

  private async pass(): Promise<void> {
    for (const item of [...this.queue]) {
      item.attempts += 1;
      let done = item.attempts >= SESSION_LIMITS.pendingAttempts;
      try {
        const answer = await this.wallet.call(item.kind, item.body);
        done = answer.status !== 'RS_ERROR_UNKNOWN' || done;
      } catch {
        // Still unreachable: keep it for the next pass.
      }
      const index = this.queue.indexOf(item);
      if (done && index >= 0) this.queue.splice(index, 1);
    }
    if (this.queue.length === 0) this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export type TPlayInput = { betMinor: bigint; side?: TBaccaratSide | undefined };

export type TPlayResult =
  | {
      ok: true;
      outcome:
        | { kind: 'slot'; slot: TSlotOutcome }
        | { kind: 'table'; side: TBaccaratSide; table: TBaccaratOutcome };
      betMinor: bigint;
      winMinor: bigint;
      balanceMinor: bigint;
      notice: TKey | null;
    }
  | { ok: false; error: TKey; balanceMinor: bigint | null };

export interface PlayDeps {
  wallet: WalletClient;
  pending: PendingCalls;
  random?: TRandom;
}

/** Checks the bet against the game's limits and the slot's whole-centavo line bets. */
export function validBet(session: TSession, input: TPlayInput): boolean {
  if (input.betMinor < session.minBetMinor || input.betMinor > session.maxBetMinor) return false;
  if (input.betMinor % 10n !== 0n) return false;
  if (session.kind === 'table') return input.side !== undefined && BACCARAT_SIDES.includes(input.side);
  return true;
}

const balanceOf = (answer: TWalletResponse): bigint | null =>
  answer.balance ? toMinor(answer.balance) : null;

export async function playRound(session: TSession, input: TPlayInput, deps: PlayDeps): Promise<TPlayResult> {
  const random = deps.random ?? secureRandom;
  const outcome =
    session.kind === 'slot'
      ? { kind: 'slot' as const, slot: spinSlot(random) }
      : { kind: 'table' as const, side: input.side ?? 'player', table: playBaccarat(random) };
  const winMinor =
    outcome.kind === 'slot'
      ? slotPayoutMinor(input.betMinor, outcome.slot)
      : baccaratPayoutMinor(input.betMinor, outcome.side, outcome.table);

  if (session.mode === 'demo') {
    if (session.balanceMinor < input.betMinor) {
      return { ok: false, error: 'not_enough_money', balanceMinor: session.balanceMinor };
    }
    session.balanceMinor += winMinor - input.betMinor;
    return {
      ok: true,
      outcome,
      betMinor: input.betMinor,
      winMinor,
      balanceMinor: session.balanceMinor,
      notice: null,
    };
  }

  const round = randomUUID();
  const common = { token: session.token, game_code: session.game.code, round };
  const betRef = `bet-${round}`;
  const rollback = { ...common, transaction_uuid: `rb-${round}`, reference_transaction_uuid: betRef };
  let bet: TWalletResponse;
  try {
    bet = await deps.wallet.call('bet', {
      ...common,
      transaction_uuid: betRef,
      amount: formatMinor(input.betMinor),
      currency: 'BRL',
    });
  } catch (error) {
    if (!(error instanceof WalletUnreachable)) throw error;
    return cancel(deps, rollback);
  }
  switch (bet.status) {
    case 'RS_OK':
      break;
    case 'RS_ERROR_NOT_ENOUGH_MONEY':
      return { ok: false, error: 'not_enough_money', balanceMinor: balanceOf(bet) };
    case 'RS_ERROR_BET_LIMIT_EXCEEDED':
      return { ok: false, error: 'bet_limit', balanceMinor: balanceOf(bet) };
    case 'RS_ERROR_LIMIT_REACHED':
      return { ok: false, error: 'play_limit', balanceMinor: balanceOf(bet) };
    case 'RS_ERROR_INVALID_TOKEN':
    case 'RS_ERROR_TOKEN_EXPIRED':
      return { ok: false, error: 'session_expired', balanceMinor: null };
    case 'RS_ERROR_UNKNOWN':
      // The operator may or may not have taken the stake: undo it to be sure.
      return cancel(deps, rollback);
    default:
      return { ok: false, error: 'provider_error', balanceMinor: null };
  }
  session.balanceMinor = balanceOf(bet) ?? session.balanceMinor;

  const win = {
    ...common,
    transaction_uuid: `win-${round}`,
    reference_transaction_uuid: betRef,
    amount: formatMinor(winMinor),
    currency: 'BRL',
    round_closed: true,
  };
  try {
    const answer = await deps.wallet.call('win', win);
    if (answer.status === 'RS_OK') {
      session.balanceMinor = balanceOf(answer) ?? session.balanceMinor;
      return {
        ok: true,
        outcome,
        betMinor: input.betMinor,
        winMinor,
        balanceMinor: session.balanceMinor,
        notice: null,
      };
    }
    if (answer.status !== 'RS_ERROR_UNKNOWN') {
      return { ok: false, error: 'provider_error', balanceMinor: session.balanceMinor };
    }
  } catch (error) {
    if (!(error instanceof WalletUnreachable)) throw error;
  }
  // The outcome stands: the win is delivered later, under the same transaction id.
  deps.pending.add('win', win);
  return {
    ok: true,
    outcome,
    betMinor: input.betMinor,
    winMinor,
    balanceMinor: session.balanceMinor,
    notice: winMinor > 0n ? 'win_pending' : null,
  };
}

async function cancel(deps: PlayDeps, rollback: Record<string, unknown>): Promise<TPlayResult> {
  try {
    const answer = await deps.wallet.call('rollback', rollback);
    if (answer.status === 'RS_OK')
      return { ok: false, error: 'round_cancelled', balanceMinor: balanceOf(answer) };
  } catch (error) {
    if (!(error instanceof WalletUnreachable)) throw error;
  }
  deps.pending.add('rollback', rollback);
  return { ok: false, error: 'round_cancelled', balanceMinor: null };
}

/** The operator's balance for a real session (null when it cannot be read now). */
export async function readBalance(
  session: TSession,
  wallet: WalletClient,
): Promise<bigint | null | 'expired'> {
  if (session.mode === 'demo') return session.balanceMinor;
  try {
    const answer = await wallet.call('balance', {
      token: session.token,
      game_code: session.game.code,
      currency: 'BRL',
    });
    if (answer.status === 'RS_ERROR_TOKEN_EXPIRED' || answer.status === 'RS_ERROR_INVALID_TOKEN')
      return 'expired';
    const balance = balanceOf(answer);
    if (answer.status === 'RS_OK' && balance !== null) session.balanceMinor = balance;
    return balance;
  } catch (error) {
    if (!(error instanceof WalletUnreachable)) throw error;
    return null;
  }
}
