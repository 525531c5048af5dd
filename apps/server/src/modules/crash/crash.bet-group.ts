import type { TGameCategory } from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import { type Db, type Tx, transactionOnGenericPlans } from '../../db/client.ts';
import {
  type GroupDecision,
  type GroupItem,
  type GroupOutcome,
  type GroupQueue,
  type GroupQueueStats,
  membersQueue,
  postOrOneByOne,
} from '../../db/group-queue.ts';
import { AppError } from '../../errors.ts';
import { plannedStake } from '../originals/originals.money.ts';
import { gameRow } from '../originals/originals.service.ts';
import { gameCategory, siteJurisdiction } from '../promotions/promotions.repo.ts';
import { betTurnover } from '../promotions/stake.ts';
import { groupStakeParts, raiseGroupLevels, type TGroupStake } from '../promotions/vip.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { playRefusal } from '../responsible-gaming/rg.service.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { groupBetStake, type TGroupBetStake } from '../wallet/bonus/group-parts.ts';
import { type GroupLedger, type PlannedTransfer, planEach } from '../wallet/posting/plan.ts';
import { readLedger, sideRowsOf, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable } from '../wallet/wallet.group.ts';
import {
  crashBetReadSide,
  crashBetsSide,
  type TCrashBetInsert,
  type TCrashBetWanted,
} from './crash.bet-group.repo.ts';
import { betOf, type TBetRaw, type TCrashBetRow } from './crash.repo.ts';

/**
 * Group commit of members' crash bets (ADR 026), the crash promotion of issue 16: when a betting
 * phase opens, every player bets within seconds, and one transaction per bet (about a dozen
 * statements) could not keep up with a betting phase. Bets that arrive while a
 * group is being posted (or within a millisecond of the first) are posted in ONE transaction of two
 * statements, as the in-house bets are (ADR 023, `bet-group.ts`):
 *   BEGIN · share-lock the rounds bet on (the close of betting waits for them, as it waits for a
 *   bet placed one by one), and read per bet whether its key placed a bet already, whether its
 *   member bet in the round already, has a limit loosening due, the
 *   responsible-gaming gate with each limit's period's play, the member's client seed and VIP
 *   totals and a bet id · lock the members' accounts (the wallet's group lock), then their active
 *   bonus grants · in one statement, insert every stake transfer and move every balance, insert
 *   every bet carrying its transfer, count turnover and VIP totals and the wagering of the grants
 *   the stakes feed (ADR 028) · COMMIT (riding with the write unless a VIP level is crossed,
 *   ADR 025).
 * Each bet keeps its own answer: betting closed, the gate's refusals and insufficient funds are
 * decided in memory, in arrival order, by the functions the one-by-one path uses, and a refused
 * bet writes nothing. What the group does not decide goes the one-by-one way after it commits: a
 * key that placed a bet already (its replay or conflict), a second bet in the round, a grant
 * holder's stake that is not cash alone within the max bets or that completes the grant (ADR 028),
 * a loosening due, no seed pair yet, a game the site
 * does not offer. If the group's statements fail (a concurrent one-by-one bet of a member took the
 * round's place, VIP totals moved), it rolls back and each bet is placed one by one.
 */

/** A crash bet, validated, as the engine places it. */
export type TCrashBetInput = {
  roundId: bigint;
  stakeMinor: bigint;
  /** The stored auto cash-out (the player's, or where the win reaches the cap). */
  cashOutAt: number | null;
  idempotencyKey: string;
  requestHash: string;
  /** The seed the bet brings to the salt ceremony; default the member's provably-fair client seed. */
  clientSeed: string | undefined;
  /** When the bet was made (the engine's clock): refused at or after the betting's end. */
  now: number;
};

/** A member's crash bet. */
export type TCrashGroupBet = TCrashBetInput & { siteId: bigint; memberId: bigint };

/** What a placed bet answers: the bet, and the member's playable balance after it when known. */
export type TCrashPlaced = { bet: TCrashBetRow; replayed: boolean; balanceMinor: bigint | null };

type TReady = { category: TGameCategory; jurisdiction: TJurisdiction };

type Item = TCrashGroupBet & GroupItem<TReady, TCrashPlaced>;

type TBet = Item & TReady;

type Outcome = GroupOutcome<TCrashPlaced>;

type TRead = {
  ord: number;
  state: string | null;
  ends_ms: number | null;
  taken: boolean;
  in_round: boolean;
  gate_due: boolean;
  client_seed: string | null;
  bet_id: string;
  vip: TGroupStake['vipBefore'];
} & Record<string, unknown>;

/** The crash bets of a database, grouped; `oneByOne` places a bet the group leaves. */
export class CrashBetCommitter {
  private readonly queue: GroupQueue<Item>;

  constructor(
    private readonly db: Db,
    private readonly oneByOne: (bet: TCrashGroupBet) => Promise<TCrashPlaced>,
  ) {
    this.queue = membersQueue<Item>(
      db,
      'crash_bets',
      (item) => item,
      (group) => this.post(group),
    );
  }

  get stats(): Readonly<GroupQueueStats> {
    return this.queue.stats;
  }

  /** Places a member's bet with the others arriving now; the same answers as one by one. */
  place(bet: TCrashGroupBet): Promise<TCrashPlaced> {
    const { db } = this;
    const player = { kind: 'member' as const, siteId: bet.siteId, memberId: bet.memberId };
    const ready = (async (): Promise<TReady | null> => {
      if (!(await gameRow(db, db, player, 'crash'))) return null;
      return {
        category: await gameCategory(db, bet.siteId, 'crash'),
        jurisdiction: await siteJurisdiction(db, bet.siteId),
      };
    })();
    return new Promise<TCrashPlaced>((resolve, reject) => {
      this.queue.push({ ...bet, ready, resolve, reject });
    });
  }

  private post(all: Item[]): Promise<void> {
    return postOrOneByOne<TReady, TCrashPlaced, Item>(
      this.queue,
      all,
      (group) => transactionOnGenericPlans(this.db, (tx) => postCrashBets(tx, group)),
      this.oneByOne,
    );
  }
}

/** The whole group in its transaction; one outcome per bet, in the group's order. */
async function postCrashBets(tx: Tx, group: TBet[]): Promise<GroupDecision<TCrashPlaced>> {
  const { reads, ledger } = await readCrashBets(tx, group);
  const outcomes: Outcome[] = group.map(() => ({ defer: true }));
  const kept: (TGroupBetStake & { item: TBet; read: TRead; plans: PlannedTransfer[] })[] = [];
  for (const read of reads) {
    const item = group[read.ord]!;
    // The one-by-one order: a key's earlier bet answers first, then whether betting is open.
    if (read.taken) continue;
    if (read.state !== 'betting' || read.ends_ms === null || item.now >= Math.round(Number(read.ends_ms))) {
      outcomes[read.ord] = { error: new AppError('CRASH_BETTING_CLOSED') };
      continue;
    }
    if (read.in_round || read.gate_due) continue;
    if (item.clientSeed === undefined && read.client_seed === null) continue;
    const refusal = playRefusal(
      { id: item.siteId, jurisdiction: item.jurisdiction },
      gateOf(read),
      item.stakeMinor,
    );
    if (refusal) {
      outcomes[read.ord] = { error: refusal };
      continue;
    }
    const staked = stakeOf(ledger, item, read.bet_id);
    // A stake that passes a max bet or completes a grant: one by one (ADR 028).
    if (!staked) continue;
    const [first, ...parts] = staked.stakes;
    const planned = plannedStake(ledger, first!);
    if ('alone' in planned) return planned;
    if ('refusal' in planned) {
      outcomes[read.ord] = { error: planned.refusal };
      continue;
    }
    // The bonus parts were decided on these balances: each must plan, else one by one.
    const rest = planEach(ledger, parts);
    if ('alone' in rest) return rest;
    kept.push({ item, read, ...staked, plans: [planned.plan, ...rest] });
  }
  if (kept.length === 0) return outcomes;

  const plans = kept.flatMap((k) => k.plans);
  const stakes = kept.map(
    (k): TGroupStake => ({
      siteId: k.item.siteId,
      memberId: k.item.memberId,
      jurisdiction: k.item.jurisdiction,
      category: k.item.category,
      stakeMinor: k.item.stakeMinor,
      turnover: betTurnover(k.item.jurisdiction, k.item.category, k.item.stakeMinor, k.bonusPartMinor),
      vipBefore: k.read.vip,
    }),
  );
  const counts = groupStakeParts(stakes);
  const bets = kept.map(
    ({ item, read, stakes: [first] }): TCrashBetInsert => ({
      id: read.bet_id,
      round_id: item.roundId.toString(),
      site_id: item.siteId.toString(),
      member_id: item.memberId.toString(),
      stake: item.stakeMinor.toString(),
      auto: item.cashOutAt,
      key: item.idempotencyKey,
      hash: item.requestHash,
      seed: item.clientSeed ?? read.client_seed,
      created_at: new Date(item.now).toISOString(),
      // The bet's transfer is its first: the cash part under the bet's key, else its first grant part.
      bet_key: first!.posting.idempotencyKey,
    }),
  );
  const { rows, answer: resultOf } = await writePosting(tx, {
    name: 'sorte_crash_bet_group_write',
    ledger,
    plans,
    fed: kept,
    commitWithIt: counts.crossed.every((levels) => levels === null),
    side: crashBetsSide(bets, counts),
  });
  const inserted = new Map<string, TCrashBetRow>();
  for (const { what, row } of rows) {
    if (what === 'bet') inserted.set(String(row.id), betOf(row as TBetRaw));
  }
  for (const {
    item,
    read,
    plans: [plan],
  } of kept) {
    const bet = inserted.get(read.bet_id);
    assertInvariant(bet, `crash bet ${read.bet_id} inserted`);
    resultOf(plan!, false);
    const balanceMinor = groupPlayable(ledger, item.siteId, item.memberId);
    outcomes[read.ord] = { result: { bet, replayed: false, balanceMinor } };
  }
  // The levels decided before the write: the write checked its totals are the ones they came from.
  await raiseGroupLevels(tx, stakes, counts.crossed);
  return outcomes;
}

/** The stake of a crash bet as `takeBetStake` posts it one by one (`groupBetStake`). */
function stakeOf(ledger: GroupLedger, item: TBet, betId: string): TGroupBetStake | null {
  return groupBetStake(ledger, {
    siteId: item.siteId,
    memberId: item.memberId,
    amountMinor: item.stakeMinor,
    idempotencyKey: `crash-bet:${betId}:bet`,
    reference: `crash-round:${item.roundId}`,
    metadata: { game: 'crash', roundId: item.roundId.toString(), betId },
    category: item.category,
  });
}

/**
 * ONE statement: share-locks the rounds bet on, then the bettors' cash and bonus accounts (the
 * wallet's `readLedger`, id order, with the site's system accounts), then their active bonus
 * grants (expiry, id) — the round, the accounts, the grants: the order of a bet placed one by one
 * and of the close of betting — and reads per bet what `postCrashBets` decides from, with a bet id drawn for it (its stake's key names it).
 */
async function readCrashBets(tx: Tx, group: TBet[]): Promise<{ reads: TRead[]; ledger: GroupLedger }> {
  const wanted = group.map(
    (item, ord): TCrashBetWanted => ({
      ord,
      round_id: item.roundId.toString(),
      member_id: item.memberId.toString(),
      key: item.idempotencyKey,
      tz: siteTimeZone({ jurisdiction: item.jurisdiction }),
    }),
  );
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_crash_bet_group_read',
    members: group,
    grants: true,
    side: crashBetReadSide(wanted),
  });
  return { reads: sideRowsOf<TRead>(rows, 'bet'), ledger };
}
