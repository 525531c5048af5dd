import { randomBytes } from 'node:crypto';
import {
  formatMinor,
  parseMinor,
  type TCrashBet,
  type TCrashServerMessage,
  type TCrashState,
} from '@sorte/contract';
import {
  CRASH_MAX_HUNDREDTHS,
  CRASH_SALT_MAX_SEEDS,
  crashCapCashOut,
  crashPointHundredths,
  crashSaltFromSeeds,
  fromHundredths,
  GAME_RULES,
  payoutMinor,
} from '@sorte/fairness';
import type pg from 'pg';
import { sha256Hex, sha256OfJson } from '../../core/hash.ts';
import type { Db, Executor } from '../../db/client.ts';
import type { GroupQueueStats } from '../../db/group-queue.ts';
import { newClient } from '../../db/primary.ts';
import { AppError } from '../../errors.ts';
import { findGame } from '../games/games.repo.ts';
import { activePair } from '../originals/fairness.service.ts';
import { assertStakeAccepted } from '../originals/originals.games.ts';
import { playableBalance, walletRefusal } from '../originals/originals.money.ts';
import { creditDemo, debitDemo } from '../originals/originals.repo.ts';
import { takeBetStake } from '../promotions/stake.ts';
import { assertPlayAllowed } from '../responsible-gaming/rg.service.ts';
import { payWin } from '../wallet/bonus/win.ts';
import { CrashBetCommitter, type TCrashBetInput, type TCrashPlaced } from './crash.bet-group.ts';
import {
  formatHundredths,
  hasCrashed,
  multiplierAt,
  parseHundredths,
  tickMultiplierAt,
} from './crash.curve.ts';
import {
  advanceChain,
  betSummary,
  crashOf,
  extendBetting,
  findBetByKey,
  findChain,
  findLatestRoundSecret,
  findOwnBet,
  fixChainSalt,
  insertBet,
  insertChain,
  insertRoundSecret,
  lockOpenChain,
  lockRoundSecret,
  lowestOpenAuto,
  markCashed,
  markRemainingLost,
  moveRound,
  openAutoBets,
  saltInputsOf,
  setBetTransfer,
  setRoundCrash,
  shareLockRoundSecret,
  type TChainRow,
  type TCrashBetRow,
  type TCrashOwner,
  type TRoundSecretRow,
} from './crash.repo.ts';
import {
  CrashCashOutCommitter,
  cashOutHundredths,
  settleAutoBets,
  type TCashedOut,
} from './crash.settle-group.ts';

/**
 * The crash round state machine: betting (bets accepted until `bettingEndsAt`) → running (the
 * multiplier follows crash.curve.ts, a tick every `tickMs`) → crashed (at the pre-committed crash
 * point from the hash chain) → a pause → the next round.
 *
 * Salt ceremony (ADR 008): a new chain is published with its terminating hash and no salt. Its first
 * round has no crash point while it takes bets; when betting closes the salt is fixed from the
 * client seeds of that round's bets (id order, at most CRASH_SALT_MAX_SEEDS) and the crash point is
 * computed, in the transaction that starts the round. With no bet the betting phase starts again:
 * no round of a chain runs before its salt exists. Later rounds get their crash point when opened.
 *
 * Time comes from an injectable clock; tests drive it by hand and call `step()`. Every money
 * decision is made in the database under a guard, so it holds even when the engine runs late:
 *   - a bet locks the round row FOR SHARE and needs state 'betting' and clock < betting end;
 *   - a cash-out locks it FOR SHARE, needs state 'running' and m(now) below the crash point, and
 *     flips the bet from 'placed' with UPDATE … WHERE status = 'placed' (settles once);
 *   - the crash UPDATEs the round row (waiting for those share locks), pays the auto cash-outs at
 *     or below the crash point at exactly their target, and marks every other open bet lost.
 * A member's stake and win are wallet transfers keyed `crash-bet:<id>:bet|win` in the same
 * transaction; a guest's demo bet moves fun money on its demo session's row instead.
 * One process runs the engine: on PostgreSQL it holds an advisory lock and NOTIFYs its messages;
 * the other processes LISTEN, relay them to their sockets, take bets and cash-outs (the database
 * decides) and retry the lock every 5 s to take over when the leader goes away.
 */

export type CrashClock = () => number;
export type CrashMember = { siteId: bigint; memberId: bigint };
/** Who bets: a member with real money, or a guest's demo session with fun money. */
export type CrashPlayer =
  | ({ kind: 'member' } & CrashMember)
  | { kind: 'demo'; siteId: bigint; demoSessionId: bigint };
export interface CrashListener {
  send(text: string): void;
  player: CrashPlayer | null;
}

const ownerOf = (player: CrashPlayer): TCrashOwner =>
  player.kind === 'member' ? { memberId: player.memberId } : { demoSessionId: player.demoSessionId };

/** Whether a socket's player owns the bet. */
function owns(player: CrashPlayer | null, bet: TCrashBetRow): boolean {
  if (!player) return false;
  return player.kind === 'member'
    ? bet.memberId === player.memberId
    : bet.demoSessionId === player.demoSessionId;
}

export type CrashEngineOptions = {
  bettingMs?: number;
  tickMs?: number;
  /** Pause between the crash and the next round's betting phase. */
  crashedPauseMs?: number;
  /** Rounds per hash chain; a new chain starts when one is used up. */
  chainLength?: number;
  onBalance?: (member: CrashMember, reason: string) => void;
  onError?: (error: unknown) => void;
};

export type CrashStartOptions = {
  clock?: CrashClock;
  /** false: no timers; the caller drives the engine with step() (tests). */
  autoRun?: boolean;
  /** PostgreSQL URL for the advisory lock that elects the one engine process. */
  lockUrl?: string | undefined;
};

export const ENGINE_LOCK_KEY = 727_106;
/** The leader's messages to follower processes (each under PostgreSQL's 8000-byte NOTIFY limit). */
const NOTIFY_CHANNEL = 'sorte_crash';
type TNotice =
  | { kind: 'state' }
  | { kind: 'all'; text: string }
  | { kind: 'member'; memberId: string; text: string }
  | { kind: 'demo'; demoSessionId: string; text: string };
const STANDBY_RETRY_MS = 5_000;
const MAX_LISTENERS = 20_000;

/**
 * forward[k] = SHA-256^k(terminal seed) for k = 0 … length: forward[length] is the terminating hash
 * and round p of the chain plays forward[length − p] (as @sorte/fairness createHashChain orders them).
 */
export function forwardHashes(terminalSeed: string, length: number): string[] {
  const forward = [terminalSeed];
  for (let i = 1; i <= length; i++) forward.push(sha256Hex(forward[i - 1]!));
  return forward;
}

export function betView(bet: TCrashBetRow): TCrashBet {
  return {
    id: bet.id.toString(),
    round_id: bet.roundId.toString(),
    amount: formatMinor(bet.stakeMinor),
    auto_cashout: bet.autoCashoutHundredths === null ? null : formatHundredths(bet.autoCashoutHundredths),
    status: bet.status,
    cashout_multiplier: bet.cashoutHundredths === null ? null : formatHundredths(bet.cashoutHundredths),
    payout: formatMinor(bet.payoutMinor),
    client_seed: bet.clientSeed,
  };
}

export class CrashEngine {
  readonly bettingMs: number;
  readonly tickMs: number;
  readonly crashedPauseMs: number;
  readonly chainLength: number;
  private clock: CrashClock = Date.now;
  private round: TRoundSecretRow | null = null;
  private chain: TChainRow | null = null;
  private readonly chainHashes = new Map<string, string[]>();
  private summary = { count: 0, totalMinor: 0n };
  private lowestAuto: number | null = null;
  private readonly listeners = new Set<CrashListener>();
  private started = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private lockClient: pg.Client | null = null;
  private listenClient: pg.Client | null = null;
  private autoRun = true;
  private lockUrl: string | undefined;
  private stepping: Promise<void> = Promise.resolve();
  /** Members' bets, grouped (ADR 026). */
  private readonly grouped: CrashBetCommitter;
  /** Members' presses of "cash out", grouped (ADR 026). */
  private readonly cashOuts: CrashCashOutCommitter;

  constructor(
    private readonly db: Db,
    private readonly options: CrashEngineOptions = {},
  ) {
    this.grouped = new CrashBetCommitter(db, (bet) =>
      this.placeOne({ kind: 'member', siteId: bet.siteId, memberId: bet.memberId }, bet),
    );
    this.bettingMs = options.bettingMs ?? 6_000;
    this.tickMs = options.tickMs ?? 100;
    this.crashedPauseMs = options.crashedPauseMs ?? 3_000;
    this.chainLength = options.chainLength ?? 10_000;
    this.cashOuts = new CrashCashOutCommitter(db, this.tickMs, (press) =>
      this.cashOutOne({ kind: 'member', siteId: press.siteId, memberId: press.memberId }, press),
    );
  }

  /** This engine's bet groups so far (ADR 026). */
  get betGroupStats(): Readonly<GroupQueueStats> {
    return this.grouped.stats;
  }

  /** This engine's groups of cash-out presses so far (ADR 026). */
  get cashOutGroupStats(): Readonly<GroupQueueStats> {
    return this.cashOuts.stats;
  }

  /** Whether this process runs rounds (false before start and on a standby process). */
  get active(): boolean {
    return this.round !== null && !this.stopped;
  }

  now(): number {
    return this.clock();
  }

  async start(options: CrashStartOptions = {}): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    if (options.clock) this.clock = options.clock;
    this.autoRun = options.autoRun !== false;
    this.lockUrl = options.lockUrl;
    if (options.lockUrl && !(await this.takeLock(options.lockUrl))) {
      // Another process runs the rounds: follow it (its messages arrive by NOTIFY, bets and
      // cash-outs go to the database here) and take over if it goes away.
      await this.follow(options.lockUrl);
      if (options.autoRun !== false) this.retryLeadership(options.lockUrl, options);
      return;
    }
    await this.recover();
    if (options.autoRun !== false) this.schedule();
  }

  /** Whether this process runs the rounds (false: it follows another process). */
  get leading(): boolean {
    return this.mayLead && this.round !== null;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.stepping.catch(() => undefined);
    const clients = [this.lockClient, this.listenClient];
    this.lockClient = null;
    this.listenClient = null;
    for (const client of clients) await client?.end().catch(() => undefined);
  }

  // -------------------------------------------------------------------------------------------
  // Several processes on one PostgreSQL: the leader publishes, followers relay

  private async follow(url: string): Promise<void> {
    const client = newClient(url);
    client.on('error', this.report);
    client.on('notification', (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      void this.relay(message.payload).catch(this.report);
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    this.listenClient = client;
    // A lost LISTEN connection (the database restarted or failed over) is dropped: the next turn
    // of retryLeadership takes the lock or follows again, on the primary of that moment.
    client.on('end', () => {
      if (this.listenClient === client) this.listenClient = null;
    });
    await this.refresh();
  }

  private retryLeadership(url: string, options: CrashStartOptions): void {
    this.timer = setTimeout(() => {
      void (async () => {
        if (this.stopped) return;
        if (await this.takeLock(url)) {
          const listener = this.listenClient;
          this.listenClient = null;
          await listener?.end().catch(() => undefined);
          await this.recover();
          if (options.autoRun !== false) this.schedule();
        } else {
          // Another process leads; a follower whose LISTEN connection was lost listens again.
          if (!this.listenClient) await this.follow(url);
          this.retryLeadership(url, options);
        }
      })().catch((error: unknown) => {
        // A connection refused (the database restarting, every connection cut) or the round not
        // read back: a lock taken is given up and leadership tried again, so no failure leaves
        // the rounds without a leader (nor this process holding the lock without running them).
        this.report(error);
        if (this.stopped) return;
        const held = this.lockClient;
        this.lockClient = null;
        void held?.end().catch(() => undefined);
        if (this.listenClient) this.retryLeadership(url, options);
        else
          this.follow(url)
            .catch(this.report)
            .finally(() => {
              if (!this.stopped) this.retryLeadership(url, options);
            });
      });
    }, STANDBY_RETRY_MS);
    this.timer.unref();
  }

  private demote(url: string): void {
    this.lockClient = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const options: CrashStartOptions = { lockUrl: url, autoRun: this.autoRun };
    this.follow(url)
      .catch(this.report)
      .finally(() => {
        if (this.autoRun && !this.stopped) this.retryLeadership(url, options);
      });
  }

  /** A follower's view of the round: re-read from the database (the leader wrote it). */
  private async refresh(): Promise<void> {
    const latest = await findLatestRoundSecret(this.db);
    if (!latest) return;
    if (this.chain?.id !== latest.chainId || this.chain.publicSalt === null) {
      this.chain = await findChain(this.db, latest.chainId);
    }
    this.summary = await betSummary(this.db, latest.id);
    this.round = latest;
  }

  private async relay(payload: string): Promise<void> {
    const notice = JSON.parse(payload) as TNotice;
    if (notice.kind === 'state') {
      await this.refresh();
      await this.deliverState();
      return;
    }
    if (notice.kind === 'member' || notice.kind === 'demo') {
      for (const listener of this.listeners) {
        const player = listener.player;
        const match =
          notice.kind === 'member'
            ? player?.kind === 'member' && player.memberId.toString() === notice.memberId
            : player?.kind === 'demo' && player.demoSessionId.toString() === notice.demoSessionId;
        if (match) this.sendTo(listener, notice.text);
      }
      return;
    }
    if (notice.text.includes('"type":"crashed"')) await this.refresh();
    for (const listener of this.listeners) this.sendTo(listener, notice.text);
  }

  private publish(notice: TNotice): void {
    const client = this.lockClient;
    if (!client) return;
    client.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, JSON.stringify(notice)]).catch(this.report);
  }

  /** Advances the state machine to the clock's time. Steps never overlap. */
  step(): Promise<void> {
    const next = this.stepping.then(() => this.advance());
    this.stepping = next.catch(() => undefined);
    return next;
  }

  addListener(listener: CrashListener): boolean {
    if (this.listeners.size >= MAX_LISTENERS) return false;
    this.listeners.add(listener);
    return true;
  }

  removeListener(listener: CrashListener): void {
    this.listeners.delete(listener);
  }

  // -------------------------------------------------------------------------------------------
  // What clients see

  /** The current round as a client may see it: never the crash point or hash before the crash. */
  async state(player: CrashPlayer | null): Promise<TCrashState> {
    const round = this.requireRound();
    const chain = this.chain;
    const now = this.clock();
    const crashed = round.state === 'crashed';
    const myBet = player ? await findOwnBet(this.db, round.id, ownerOf(player)) : null;
    return {
      round_id: round.id.toString(),
      phase: round.state,
      multiplier: formatHundredths(this.visibleMultiplier(round, now)),
      hash_commitment: round.hashCommitment,
      terminating_hash: chain?.terminatingHash ?? '',
      public_salt: chain?.publicSalt ?? null,
      betting_ms_left: round.state === 'betting' ? Math.max(0, round.bettingEndsAt - now) : 0,
      bets: { count: this.summary.count, total: formatMinor(this.summary.totalMinor) },
      crash_point: crashed ? formatHundredths(crashOf(round)) : null,
      round_hash: crashed ? round.roundHash : null,
      my_bet: myBet && owns(player, myBet) ? betView(myBet) : null,
    };
  }

  /** The multiplier shown now: the last tick below the crash point until the crash is announced. */
  private visibleMultiplier(round: TRoundSecretRow, now: number): number {
    if (round.state === 'betting' || round.startedAt === null) return 100;
    const crashAt = crashOf(round);
    if (round.state === 'crashed') return crashAt;
    let tick = Math.floor(Math.max(0, now - round.startedAt) / this.tickMs);
    while (tick > 0 && multiplierAt(tick * this.tickMs) >= crashAt) tick -= 1;
    return multiplierAt(tick * this.tickMs);
  }

  // -------------------------------------------------------------------------------------------
  // Bets and cash-outs

  async placeBet(
    player: CrashPlayer,
    input: {
      amount: string;
      autoCashout?: string | undefined;
      idempotencyKey: string;
      /** The seed this bet brings to a salt ceremony; default: the player's provably-fair client seed. */
      clientSeed?: string | undefined;
    },
    /** oneByOne: a member's bet in a transaction of its own, never grouped (the tests' comparison). */
    how: { oneByOne?: boolean } = {},
  ): Promise<{ bet: TCrashBet; balance: string; replayed: boolean }> {
    const stakeMinor = parseMinor(input.amount);
    const limits = GAME_RULES.crash.limits;
    if (stakeMinor === null || stakeMinor <= 0n) {
      throw new AppError('VALIDATION_FAILED', {
        messageKey: 'validation.amount_invalid',
        fieldErrors: { amount: 'validation.amount_invalid' },
      });
    }
    if (stakeMinor < limits.minBetMinor || stakeMinor > limits.maxBetMinor) {
      throw new AppError('BET_OUT_OF_RANGE', {
        params: { min: formatMinor(limits.minBetMinor), max: formatMinor(limits.maxBetMinor) },
      });
    }
    let auto: number | null = null;
    if (input.autoCashout !== undefined) {
      auto = parseHundredths(input.autoCashout);
      if (auto === null || auto < 101 || auto > CRASH_MAX_HUNDREDTHS) {
        throw new AppError('INVALID_BET', { fieldErrors: { auto_cashout: 'validation.invalid' } });
      }
    }
    // Stakes whose whole-centavo wins would return less than the RTP shown at some cash-out point,
    // and an auto cash-out whose win passes the cap, are refused; a bet without one is cashed out
    // where its win reaches the cap, so no win is ever cut short (docs/decisions/009).
    assertStakeAccepted(stakeMinor, { game: 'crash', autoCashOutHundredths: auto });
    const cashOutAt = auto ?? crashCapCashOut(stakeMinor);
    const round = this.requireRound();
    // An explicit client seed is part of the request; without one the hash is what it always was.
    const requestHash = sha256OfJson({
      stake: stakeMinor.toString(),
      auto,
      ...(input.clientSeed === undefined ? {} : { client_seed: input.clientSeed }),
    });
    const bet: TCrashBetInput = {
      roundId: round.id,
      stakeMinor,
      cashOutAt,
      idempotencyKey: input.idempotencyKey,
      requestHash,
      clientSeed: input.clientSeed,
      now: this.clock(),
    };
    // Members' bets are grouped (ADR 026); a guest's fun-money bet is placed on its own.
    const placed =
      player.kind === 'member' && !how.oneByOne
        ? await this.grouped.place({ ...bet, siteId: player.siteId, memberId: player.memberId })
        : await this.placeOne(player, bet);
    if (!placed.replayed && this.round?.id === placed.bet.roundId) {
      if (cashOutAt !== null && (this.lowestAuto === null || cashOutAt < this.lowestAuto)) {
        this.lowestAuto = cashOutAt;
      }
      if (player.kind === 'member') {
        this.summary = {
          count: this.summary.count + 1,
          totalMinor: this.summary.totalMinor + placed.bet.stakeMinor,
        };
        this.options.onBalance?.(player, 'crash_bet');
      }
    }
    return {
      bet: betView(placed.bet),
      balance: placed.balanceMinor === null ? await this.balanceOf(player) : formatMinor(placed.balanceMinor),
      replayed: placed.replayed,
    };
  }

  /** A bet in a transaction of its own: a guest's, and a member's the group leaves (ADR 026). */
  private async placeOne(player: CrashPlayer, input: TCrashBetInput): Promise<TCrashPlaced> {
    const { stakeMinor, requestHash, now, cashOutAt } = input;
    const round = { id: input.roundId };
    const placed = await this.db.transaction(async (tx) => {
      const game = await findGame(tx, player.siteId, { name: 'crash', providerCode: 'sorte' });
      if (!game) throw new AppError('GAME_UNAVAILABLE');
      const locked = await shareLockRoundSecret(tx, round.id);
      const previous = await findBetByKey(tx, ownerOf(player), input.idempotencyKey);
      if (previous) {
        if (previous.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
        return { bet: previous, replayed: true };
      }
      if (locked?.state !== 'betting' || now >= locked.bettingEndsAt) {
        throw new AppError('CRASH_BETTING_CLOSED');
      }
      const clientSeed = input.clientSeed ?? (await activePair(tx, player, false)).clientSeed;
      const bet = await insertBet(tx, {
        roundId: round.id,
        siteId: player.siteId,
        owner: ownerOf(player),
        stakeMinor,
        autoCashoutHundredths: cashOutAt,
        idempotencyKey: input.idempotencyKey,
        requestHash,
        clientSeed,
        createdAt: now,
      });
      if (!bet) {
        // A concurrent copy of this request may have won the insert: it has committed by now, and
        // this statement's fresh snapshot (READ COMMITTED) sees it, so it gets the same answer.
        const winner = await findBetByKey(tx, ownerOf(player), input.idempotencyKey);
        if (winner?.requestHash === requestHash) return { bet: winner, replayed: true };
        if (winner) throw new AppError('IDEMPOTENCY_CONFLICT');
        throw new AppError('CRASH_ALREADY_BET');
      }
      if (player.kind === 'demo') {
        // Fun money: the session's own counter, never the ledger.
        if ((await debitDemo(tx, player.demoSessionId, stakeMinor)) === null) {
          throw new AppError('INSUFFICIENT_FUNDS');
        }
        return { bet, replayed: false };
      }
      await assertPlayAllowed(tx, player, stakeMinor);
      try {
        const moved = await takeBetStake(tx, {
          siteId: player.siteId,
          memberId: player.memberId,
          amountMinor: stakeMinor,
          idempotencyKey: `crash-bet:${bet.id}:bet`,
          reference: `crash-round:${round.id}`,
          metadata: { game: 'crash', roundId: round.id.toString(), betId: bet.id.toString() },
          gameCode: 'crash',
        });
        await setBetTransfer(tx, bet.id, 'bet', moved.transferId);
      } catch (error) {
        walletRefusal(error);
      }
      return { bet, replayed: false };
    });
    return { ...placed, balanceMinor: null };
  }

  /**
   * Cashes out the member's bet in `roundId` at the multiplier of the tick current when the server
   * took the request (`takenAt`, read by the routes before anything is awaited), or at its auto
   * target when the curve had passed it. Refused when taken at or after the crash instant. Taken
   * before it, the cash-out is paid even when its transaction runs after the crash marked the bet
   * lost: a storm of cash-outs queued behind each other must not turn a press in time into a loss.
   */
  async cashOut(
    player: CrashPlayer,
    roundId: bigint,
    takenAt: number = this.clock(),
    /** oneByOne: a member's press in a transaction of its own, never grouped (the tests' comparison). */
    how: { oneByOne?: boolean } = {},
  ): Promise<{ bet: TCrashBet; balance: string }> {
    // Members' presses are grouped (ADR 026); a guest's fun-money bet is cashed out on its own.
    const cashed =
      player.kind === 'member' && !how.oneByOne
        ? await this.cashOuts.press({ siteId: player.siteId, memberId: player.memberId, roundId, takenAt })
        : await this.cashOutOne(player, { roundId, takenAt });
    this.announceCashOut(cashed.bet);
    return {
      bet: betView(cashed.bet),
      balance: cashed.balanceMinor === null ? await this.balanceOf(player) : formatMinor(cashed.balanceMinor),
    };
  }

  /** A press in a transaction of its own: a guest's, and a member's the group leaves (ADR 026). */
  private async cashOutOne(
    player: CrashPlayer,
    { roundId, takenAt }: { roundId: bigint; takenAt: number },
  ): Promise<TCashedOut> {
    const bet = await this.db.transaction(async (tx) => {
      const round = await shareLockRoundSecret(tx, roundId);
      const bet = round ? await findOwnBet(tx, roundId, ownerOf(player)) : null;
      if (!round || !bet) throw new AppError('NOT_FOUND');
      const at = cashOutHundredths(round, bet, takenAt, this.tickMs);
      const paid = await this.settleWin(tx, bet, at, takenAt);
      if (!paid) throw new AppError('ROUND_NOT_ACTIVE');
      return paid;
    });
    return { bet, balanceMinor: null };
  }

  /** Pays a bet at `hundredths` once; null when it was already settled. */
  private async settleWin(
    tx: Executor,
    bet: TCrashBetRow,
    hundredths: number,
    now: number,
  ): Promise<TCrashBetRow | null> {
    const payout = payoutMinor(
      bet.stakeMinor,
      fromHundredths(hundredths),
      GAME_RULES.crash.limits.maxWinMinor,
    );
    // Only a cash-out taken before the crash reaches a bet the crash marked lost (cashOutHundredths).
    const settled = await markCashed(
      tx,
      bet.id,
      hundredths,
      payout,
      now,
      bet.status === 'lost' ? 'lost' : 'placed',
    );
    if (!settled) return null;
    if (payout > 0n && bet.demoSessionId !== null) {
      await creditDemo(tx, bet.demoSessionId, payout);
    } else if (payout > 0n && bet.memberId !== null) {
      try {
        const moved = await payWin(tx, {
          siteId: bet.siteId,
          memberId: bet.memberId,
          amountMinor: payout,
          idempotencyKey: `crash-bet:${bet.id}:win`,
          stakeKey: `crash-bet:${bet.id}:bet`,
          reference: `crash-round:${bet.roundId}`,
          metadata: { game: 'crash', roundId: bet.roundId.toString(), betId: bet.id.toString() },
        });
        await setBetTransfer(tx, bet.id, 'win', moved.first.transferId);
      } catch (error) {
        walletRefusal(error);
      }
    }
    return settled;
  }

  private async balanceOf(player: CrashPlayer): Promise<string> {
    return formatMinor(await playableBalance(this.db, player));
  }

  // -------------------------------------------------------------------------------------------
  // The state machine

  private requireRound(): TRoundSecretRow {
    if (!this.round || this.stopped) throw new AppError('GAME_UNAVAILABLE');
    return this.round;
  }

  /** False on a follower: only the lock holder (or the only process) moves rounds on. */
  private get mayLead(): boolean {
    return !this.stopped && (this.lockUrl === undefined || this.lockClient !== null);
  }

  private async advance(): Promise<void> {
    if (!this.mayLead) return;
    const now = this.clock();
    const round = this.round;
    if (!round) {
      await this.openNext(now);
      return;
    }
    if (round.state === 'betting') {
      if (now >= round.bettingEndsAt) await this.startRunning(round, now);
      return;
    }
    if (round.state === 'running' && round.startedAt !== null) {
      const elapsed = now - round.startedAt;
      if (hasCrashed(elapsed, crashOf(round))) {
        await this.crash(round, now);
        return;
      }
      const tick = tickMultiplierAt(elapsed, this.tickMs);
      if (this.lowestAuto !== null && this.lowestAuto <= tick) await this.settleAutos(round, tick, now);
      this.broadcast({
        type: 'tick',
        round_id: round.id.toString(),
        multiplier: formatHundredths(tick),
        at: now,
      });
      return;
    }
    if (round.state === 'crashed' && now >= (round.crashedAt ?? now) + this.crashedPauseMs) {
      await this.openNext(now);
    }
  }

  private async recover(): Promise<void> {
    const latest = await findLatestRoundSecret(this.db);
    if (!latest || latest.state === 'crashed') {
      await this.openNext(this.clock());
      return;
    }
    this.round = latest;
    this.chain = await findChain(this.db, latest.chainId);
    this.summary = await betSummary(this.db, latest.id);
    this.lowestAuto = await lowestOpenAuto(this.db, latest.id);
  }

  /**
   * The database no longer shows `round` in the phase this process holds (another process moved
   * it on): nothing is settled from the stale view; the engine takes the database's round instead.
   */
  private async resync(round: TRoundSecretRow): Promise<void> {
    this.report(new Error(`crash round ${round.id} moved on outside this engine; resynchronising`));
    await this.recover();
  }

  /** The chain's hashes, computed once per chain and kept while it is in play. */
  private hashesOf(chain: TChainRow): string[] {
    const key = chain.id.toString();
    let forward = this.chainHashes.get(key);
    if (!forward) {
      forward = forwardHashes(chain.terminalSeed, chain.length);
      this.chainHashes.clear();
      this.chainHashes.set(key, forward);
    }
    return forward;
  }

  private async openNext(now: number): Promise<void> {
    const opened = await this.db.transaction(async (tx) => {
      let chain = await lockOpenChain(tx);
      if (!chain) {
        // Published now, salt to come from the first round's bets (ADR 008).
        const terminalSeed = randomBytes(32).toString('hex');
        const forward = forwardHashes(terminalSeed, this.chainLength);
        chain = await insertChain(tx, {
          terminalSeed,
          terminatingHash: forward[this.chainLength]!,
          length: this.chainLength,
          createdAt: now,
        });
        this.chainHashes.clear();
        this.chainHashes.set(chain.id.toString(), forward);
      }
      const forward = this.hashesOf(chain);
      const position = chain.position + 1;
      const roundHash = forward[chain.length - position]!;
      await advanceChain(tx, chain.id, position);
      const round = await insertRoundSecret(tx, {
        chainId: chain.id,
        position,
        roundHash,
        hashCommitment: forward[chain.length - position + 1]!,
        crashHundredths: chain.publicSalt === null ? null : crashPointHundredths(roundHash, chain.publicSalt),
        bettingEndsAt: now + this.bettingMs,
        createdAt: now,
      });
      return { round, chain: { ...chain, position } };
    });
    this.round = opened.round;
    this.chain = opened.chain;
    this.summary = { count: 0, totalMinor: 0n };
    this.lowestAuto = null;
    await this.broadcastState();
  }

  private async startRunning(round: TRoundSecretRow, now: number): Promise<void> {
    const started = await this.db.transaction(async (tx) => {
      const fixed = round.crashHundredths === null ? await this.fixSalt(tx, round, now) : null;
      const crash = round.crashHundredths ?? fixed?.crash ?? null;
      if (crash === null) return { moved: true, crash: null, chain: null };
      const moved = await moveRound(tx, round.id, 'betting', 'running', now);
      return { moved, crash, chain: fixed?.chain ?? null };
    });
    if (!started.moved) {
      await this.resync(round);
      return;
    }
    if (started.chain) this.chain = started.chain;
    if (started.crash === null) {
      // No bet yet on a chain without salt: the round takes bets again.
      this.round = { ...round, bettingEndsAt: now + this.bettingMs };
      await this.broadcastState();
      return;
    }
    this.round = { ...round, state: 'running', startedAt: now, crashHundredths: started.crash };
    this.summary = await betSummary(this.db, round.id);
    this.lowestAuto = await lowestOpenAuto(this.db, round.id);
    await this.broadcastState();
  }

  /**
   * The salt ceremony, at the close of betting of a chain's first round: the round row is locked
   * (waiting for the bets in flight, refusing later ones), the client seeds of its first bets become
   * the chain's salt and the round gets its crash point. Without a bet the betting end moves on and
   * null is returned. Throws when the round is no longer betting (the caller resynchronises).
   */
  private async fixSalt(
    tx: Executor,
    round: TRoundSecretRow,
    now: number,
  ): Promise<{ crash: number; chain: TChainRow } | null> {
    const locked = await lockRoundSecret(tx, round.id);
    if (locked?.state !== 'betting') throw new Error(`crash round ${round.id} is no longer betting`);
    let chain = await findChain(tx, round.chainId);
    if (!chain) throw new Error(`crash chain ${round.chainId} missing`);
    if (locked.crashHundredths !== null) return { crash: locked.crashHundredths, chain };
    if (chain.publicSalt === null) {
      const inputs = await saltInputsOf(tx, round.id, CRASH_SALT_MAX_SEEDS);
      if (inputs.length === 0) {
        await extendBetting(tx, round.id, now + this.bettingMs);
        return null;
      }
      const salt = crashSaltFromSeeds(
        chain.terminatingHash,
        inputs.map((input) => input.clientSeed),
      );
      chain = await fixChainSalt(tx, chain.id, { publicSalt: salt, inputs, fixedAt: now });
      if (!chain) throw new Error(`crash chain ${round.chainId} got its salt elsewhere`);
    }
    const crash = crashPointHundredths(locked.roundHash, chain.publicSalt!);
    await setRoundCrash(tx, round.id, crash);
    return { crash, chain };
  }

  private async settleAutos(round: TRoundSecretRow, upTo: number, now: number): Promise<void> {
    const paid = await this.db.transaction(async (tx) => {
      const due = await openAutoBets(tx, round.id, upTo);
      return settleAutoBets(tx, due, now, (bet) => this.settleWin(tx, bet, bet.autoCashoutHundredths!, now));
    });
    this.lowestAuto = await lowestOpenAuto(this.db, round.id);
    for (const bet of paid) this.announceCashOut(bet);
  }

  private async crash(round: TRoundSecretRow, now: number): Promise<void> {
    const paid = await this.db.transaction(async (tx) => {
      if (!(await moveRound(tx, round.id, 'running', 'crashed', now))) return null;
      const due = await openAutoBets(tx, round.id, crashOf(round));
      const settled = await settleAutoBets(tx, due, now, (bet) =>
        this.settleWin(tx, bet, bet.autoCashoutHundredths!, now),
      );
      await markRemainingLost(tx, round.id, now);
      return settled;
    });
    if (paid === null) {
      await this.resync(round);
      return;
    }
    this.round = { ...round, state: 'crashed', crashedAt: now };
    this.lowestAuto = null;
    this.broadcast({
      type: 'crashed',
      round_id: round.id.toString(),
      crash_point: formatHundredths(crashOf(round)),
      round_hash: round.roundHash,
    });
    for (const bet of paid) this.announceCashOut(bet);
  }

  // -------------------------------------------------------------------------------------------
  // Delivery

  private announceCashOut(bet: TCrashBetRow): void {
    const message: TCrashServerMessage = {
      type: 'cashed_out',
      round_id: bet.roundId.toString(),
      bet_id: bet.id.toString(),
      multiplier: formatHundredths(bet.cashoutHundredths ?? 0),
      payout: formatMinor(bet.payoutMinor),
    };
    const text = JSON.stringify(message);
    for (const listener of this.listeners) {
      if (owns(listener.player, bet)) this.sendTo(listener, text);
    }
    if (bet.memberId !== null) {
      this.publish({ kind: 'member', memberId: bet.memberId.toString(), text });
      this.options.onBalance?.({ siteId: bet.siteId, memberId: bet.memberId }, 'crash_win');
    } else if (bet.demoSessionId !== null) {
      this.publish({ kind: 'demo', demoSessionId: bet.demoSessionId.toString(), text });
    }
  }

  private async broadcastState(): Promise<void> {
    this.publish({ kind: 'state' });
    await this.deliverState();
  }

  /** Each socket gets the state as it may see it (members with their own bet). */
  private async deliverState(): Promise<void> {
    if (this.listeners.size === 0) return;
    const guest = JSON.stringify({
      type: 'state',
      ...(await this.state(null)),
    } satisfies TCrashServerMessage);
    for (const listener of this.listeners) {
      if (listener.player) {
        this.state(listener.player)
          .then((state) => this.sendTo(listener, JSON.stringify({ type: 'state', ...state })))
          .catch(this.report);
      } else {
        this.sendTo(listener, guest);
      }
    }
  }

  broadcast(message: TCrashServerMessage): void {
    const text = JSON.stringify(message);
    for (const listener of this.listeners) this.sendTo(listener, text);
    this.publish({ kind: 'all', text });
  }

  private sendTo(listener: CrashListener, text: string): void {
    try {
      listener.send(text);
    } catch (error) {
      this.report(error);
    }
  }

  private readonly report = (error: unknown): void => {
    this.options.onError?.(error);
  };

  private schedule(): void {
    if (!this.mayLead) return;
    const round = this.round;
    let delay = this.tickMs;
    if (round?.state === 'running' && round.startedAt !== null) {
      // Keep ticks on the curve's grid (t = k · tickMs) whatever a step cost.
      const elapsed = this.clock() - round.startedAt;
      delay = this.tickMs - (elapsed % this.tickMs);
    }
    this.timer = setTimeout(() => {
      this.step()
        .catch(this.report)
        .finally(() => this.schedule());
    }, delay);
    this.timer.unref();
  }

  private async takeLock(url: string): Promise<boolean> {
    const client = newClient(url);
    client.on('error', this.report);
    await client.connect();
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
      ENGINE_LOCK_KEY,
    ]);
    if (result.rows[0]?.locked) {
      this.lockClient = client;
      // A lost connection is a lost lock: another process may lead now, so this one must follow.
      client.on('end', () => {
        if (this.lockClient === client && !this.stopped) this.demote(url);
      });
      return true;
    }
    await client.end().catch(() => undefined);
    return false;
  }
}
