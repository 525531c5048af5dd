import { fromHundredths, GAME_RULES, payoutMinor } from '@sorte/fairness';
import { type Db, type Executor, type Tx, transactionOnGenericPlans } from '../../db/client.ts';
import {
  type GroupItem,
  type GroupOutcome,
  type GroupQueue,
  type GroupQueueStats,
  membersQueue,
  postOrOneByOne,
} from '../../db/group-queue.ts';
import { AppError } from '../../errors.ts';
import { cashWin } from '../wallet/posting/grant-parts.ts';
import { decideTransfer, type GroupLedger, type PlannedTransfer } from '../wallet/posting/plan.ts';
import { readLedger, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable } from '../wallet/wallet.group.ts';
import { hasCrashed, tickMultiplierAt } from './crash.curve.ts';
import {
  betOf,
  crashOf,
  roundOf,
  type TBetRaw,
  type TCrashBetRow,
  type TRoundRaw,
  type TRoundSecretRow,
} from './crash.repo.ts';
import {
  cashedBetsSide,
  openBetsSide,
  pressesSide,
  type TCashedBet,
  type TPressWanted,
} from './crash.settle-group.repo.ts';

/**
 * Wins of crash bets paid in groups (ADR 026): a tick's auto cash-outs (`settleAutoBets`, in the
 * engine's settlement transaction) and the players' own presses of "cash out" (`CrashCashOutCommitter`,
 * a transaction per group). A crash promotion's players press together: one transaction per press
 * (about eight statements) made presses taken in time wait past the crash. Members' bets staked in cash alone are paid in two statements per
 * group; a guest's bet and a stake with a bonus part (its win splits by grant) go one by one.
 */

/**
 * The multiplier (hundredths) a cash-out taken at `takenAt` pays, or its refusal: a bet settled
 * already (ROUND_NOT_ACTIVE), a round not running when it was taken or taken at or after the crash
 * instant (CRASH_CASHOUT_CLOSED). A bet the crash marked lost is still open to it when it was taken
 * before the crash instant.
 */
export function cashOutHundredths(
  round: TRoundSecretRow,
  bet: TCrashBetRow,
  takenAt: number,
  tickMs: number,
): number {
  if (bet.status === 'cashed' || (bet.status === 'lost' && round.state !== 'crashed')) {
    throw new AppError('ROUND_NOT_ACTIVE');
  }
  if (round.startedAt === null || round.state === 'betting') throw new AppError('CRASH_CASHOUT_CLOSED');
  const elapsed = takenAt - round.startedAt;
  if (hasCrashed(elapsed, crashOf(round))) {
    throw new AppError(bet.status === 'lost' ? 'ROUND_NOT_ACTIVE' : 'CRASH_CASHOUT_CLOSED');
  }
  const tick = tickMultiplierAt(elapsed, tickMs);
  const at =
    bet.autoCashoutHundredths !== null && bet.autoCashoutHundredths <= tick
      ? bet.autoCashoutHundredths
      : tick;
  if (at < 101) throw new AppError('CRASH_CASHOUT_CLOSED');
  return at;
}

/** Most wins of one settlement statement (a tick's auto cash-outs beyond it take several). */
const MAX_SETTLED = 500;

/** A bet of a member staked in cash alone, to be cashed at `at` hundredths. */
type TDue = {
  bet: TCrashBetRow;
  at: number;
  /** When it was cashed out (the tick's time, or the moment the press was taken). */
  settledAt: number;
};

/** A win decided in the group: its payout and the planned transfer (null: nothing to pay). */
type TWin = TDue & { payout: bigint; plan: PlannedTransfer | null };

/**
 * Pays the auto cash-outs of a tick (or of the crash) in the settlement's transaction, each at its
 * own target: members' bets staked in cash alone in two statements per MAX_SETTLED (lock the bets
 * still placed and their members' accounts · insert every win and move every balance, and mark
 * every bet cashed carrying its win), as `payWin` and `markCashed` would one by one; the rest (a
 * guest's, a stake with a bonus part, which splits its win by grant) goes `oneByOne`. Answers the
 * bets cashed.
 */
export async function settleAutoBets(
  tx: Executor,
  due: readonly TCrashBetRow[],
  now: number,
  oneByOne: (bet: TCrashBetRow) => Promise<TCrashBetRow | null>,
): Promise<TCrashBetRow[]> {
  const inCash = (bet: TCrashBetRow) => bet.memberId !== null && bet.autoCashoutHundredths !== null;
  const members = due.filter(inCash);
  const settled: TCrashBetRow[] = [];
  const left = new Set<TCrashBetRow>();
  for (let from = 0; from < members.length; from += MAX_SETTLED) {
    const chunk = await settleAutosInCash(tx, members.slice(from, from + MAX_SETTLED), now);
    settled.push(...chunk.paid);
    for (const bet of chunk.left) left.add(bet);
  }
  // The rest in the order they fell due.
  for (const bet of due) {
    if (inCash(bet) && !left.has(bet)) continue;
    const done = await oneByOne(bet);
    if (done) settled.push(done);
  }
  return settled;
}

async function settleAutosInCash(
  tx: Executor,
  bets: readonly TCrashBetRow[],
  now: number,
): Promise<{ paid: TCrashBetRow[]; left: TCrashBetRow[] }> {
  // The bets first, then the accounts: the order of a cash-out placed one by one.
  const { rows: read, ledger } = await readLedger(tx, {
    name: 'sorte_crash_settle_read',
    members: bets.map((bet) => ({ siteId: bet.siteId, memberId: bet.memberId! })),
    side: openBetsSide(bets.map((bet) => bet.id)),
  });
  const open = new Map(
    read.filter((r) => r.what === 'open').map((r) => [String(r.row.id), r.row.bonus === true]),
  );
  const wins: TWin[] = [];
  const left: TCrashBetRow[] = [];
  for (const bet of bets) {
    const bonus = open.get(bet.id.toString());
    // Settled meanwhile (a cash-out one by one): nothing to pay; a bonus part: one by one.
    if (bonus === undefined) continue;
    const win = bonus ? null : winOf(ledger, { bet, at: bet.autoCashoutHundredths!, settledAt: now });
    if (win) wins.push(win);
    else left.push(bet);
  }
  const paid = await writeWins(tx, ledger, wins);
  return { paid: [...paid.values()], left };
}

/**
 * The win of a bet staked in cash, planned on the group's locked accounts as `payWin` writes it;
 * null when the group cannot decide it (a balance past the ledger's ceiling: `payWin` answers it).
 */
function winOf(ledger: GroupLedger, due: TDue): TWin | null {
  const { bet, at } = due;
  const payout = payoutMinor(bet.stakeMinor, fromHundredths(at), GAME_RULES.crash.limits.maxWinMinor);
  if (payout === 0n) return { ...due, payout, plan: null };
  const win = cashWin({
    siteId: bet.siteId,
    memberId: bet.memberId!,
    amountMinor: payout,
    idempotencyKey: `crash-bet:${bet.id}:win`,
    stakeKey: `crash-bet:${bet.id}:bet`,
    reference: `crash-round:${bet.roundId}`,
    metadata: { game: 'crash', roundId: bet.roundId.toString(), betId: bet.id.toString() },
  });
  const decision = decideTransfer(ledger, win);
  return decision.kind === 'plan' ? { ...due, payout, plan: decision.plan } : null;
}

/**
 * ONE statement: inserts every win and moves every balance, and marks every bet cashed carrying its
 * win, each from the status it was read in (locked). Answers the bets cashed by id.
 */
async function writeWins(
  tx: Executor,
  ledger: GroupLedger,
  wins: readonly TWin[],
): Promise<Map<string, TCrashBetRow>> {
  const paid = new Map<string, TCrashBetRow>();
  if (wins.length === 0) return paid;
  const plans = wins.flatMap((w) => (w.plan ? [w.plan] : []));
  const cashed = wins.map(
    (w): TCashedBet => ({
      id: w.bet.id.toString(),
      site_id: w.bet.siteId.toString(),
      at: w.at,
      payout: w.payout.toString(),
      win_key: w.plan ? `crash-bet:${w.bet.id}:win` : null,
      settled_at: new Date(w.settledAt).toISOString(),
      from_status: w.bet.status,
    }),
  );
  const { rows, answer: resultOf } = await writePosting(tx, {
    name: 'sorte_crash_settle_write',
    ledger,
    plans,
    commitWithIt: false,
    side: cashedBetsSide(cashed),
  });
  for (const w of wins) if (w.plan) resultOf(w.plan, false);
  for (const { what, row } of rows) {
    if (what === 'bet') paid.set(String(row.id), betOf(row as TBetRaw));
  }
  assertInvariant(paid.size === wins.length, 'every locked bet was cashed');
  return paid;
}

// ---------------------------------------------------------------------------------------------
// The players' presses of "cash out"

/** A member's press of "cash out" on their bet of a round, taken by the server at `takenAt`. */
export type TCashOutPress = { siteId: bigint; memberId: bigint; roundId: bigint; takenAt: number };

/** A press's answer: the bet cashed, and the member's playable balance after it when known. */
export type TCashedOut = { bet: TCrashBetRow; balanceMinor: bigint | null };

type Press = TCashOutPress & GroupItem<object, TCashedOut>;

/**
 * Members' presses of "cash out", grouped: presses that arrive while a group is being posted (or
 * within a millisecond of the first) are one transaction of two statements:
 *   BEGIN · share-lock the rounds (the crash waits for them, as it waits for a press one by one),
 *   lock the members' bets of those rounds and then their accounts (the order of a press one by
 *   one) · in one statement, insert every win, move every balance and mark every bet cashed · COMMIT.
 * Each press keeps its own answer, decided by `cashOutHundredths` as one by one: no bet (NOT_FOUND),
 * settled already (ROUND_NOT_ACTIVE), too late (CRASH_CASHOUT_CLOSED). A member presses at most once
 * per group (a second press waits for the next and finds the bet cashed). A stake with a bonus part,
 * and a win the group cannot plan, go `oneByOne` after the group commits; a group whose statements
 * fail rolls back and each of its presses goes one by one.
 */
export class CrashCashOutCommitter {
  private readonly queue: GroupQueue<Press>;

  constructor(
    private readonly db: Db,
    private readonly tickMs: number,
    private readonly oneByOne: (press: TCashOutPress) => Promise<TCashedOut>,
  ) {
    this.queue = membersQueue<Press>(
      db,
      'crash_cashouts',
      (press) => press,
      (group) => this.post(group),
    );
  }

  get stats(): Readonly<GroupQueueStats> {
    return this.queue.stats;
  }

  /** Cashes out a member's bet with the other presses arriving now; the same answer as one by one. */
  press(press: TCashOutPress): Promise<TCashedOut> {
    return new Promise<TCashedOut>((resolve, reject) => {
      this.queue.push({ ...press, resolve, reject });
    });
  }

  private post(all: Press[]): Promise<void> {
    return postOrOneByOne<object, TCashedOut, Press>(
      this.queue,
      all,
      (group) => transactionOnGenericPlans(this.db, (tx) => this.postPresses(tx, group)),
      this.oneByOne,
    );
  }

  /** The whole group in its transaction; one outcome per press, in the group's order. */
  private async postPresses(tx: Tx, group: Press[]): Promise<GroupOutcome<TCashedOut>[]> {
    const { rounds, bets, ledger } = await readPresses(tx, group);
    const outcomes: GroupOutcome<TCashedOut>[] = group.map(() => ({ defer: true }));
    const wins: (TWin & { ord: number })[] = [];
    group.forEach((press, ord) => {
      const round = rounds.get(press.roundId.toString());
      const read = bets.get(`${press.roundId}:${press.memberId}`);
      if (!round || !read || read.bet.siteId !== press.siteId) {
        outcomes[ord] = { error: new AppError('NOT_FOUND') };
        return;
      }
      let at: number;
      try {
        at = cashOutHundredths(round, read.bet, press.takenAt, this.tickMs);
      } catch (error) {
        outcomes[ord] = { error };
        return;
      }
      const win = read.bonus ? null : winOf(ledger, { bet: read.bet, at, settledAt: press.takenAt });
      if (win) wins.push({ ...win, ord });
    });
    const paid = await writeWins(tx, ledger, wins);
    for (const { bet, ord } of wins) {
      const press = group[ord]!;
      outcomes[ord] = {
        result: {
          bet: paid.get(bet.id.toString())!,
          balanceMinor: groupPlayable(ledger, press.siteId, press.memberId),
        },
      };
    }
    return outcomes;
  }
}

type TPressRead = { bet: TCrashBetRow; bonus: boolean };

/**
 * ONE statement: share-locks the rounds pressed on (id order), locks the members' bets of them
 * (id order), then the members' cash and bonus accounts (the wallet's group lock, with the site's
 * system accounts). Answers the rounds by id and the bets by round and member.
 */
async function readPresses(
  tx: Tx,
  group: readonly Press[],
): Promise<{ rounds: Map<string, TRoundSecretRow>; bets: Map<string, TPressRead>; ledger: GroupLedger }> {
  const wanted = group.map(
    (press): TPressWanted => ({
      round_id: press.roundId.toString(),
      member_id: press.memberId.toString(),
    }),
  );
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_crash_cashout_group_read',
    members: group,
    side: pressesSide(wanted),
  });
  const rounds = new Map<string, TRoundSecretRow>();
  const bets = new Map<string, TPressRead>();
  for (const { what, row } of rows) {
    if (what === 'round') rounds.set(String(row.id), roundOf(row as TRoundRaw));
    if (what === 'bet') {
      const bet = betOf(row as TBetRaw);
      bets.set(`${bet.roundId}:${bet.memberId}`, { bet, bonus: row.bonus === true });
    }
  }
  return { rounds, bets, ledger };
}
