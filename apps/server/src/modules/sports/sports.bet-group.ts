import { formatMinor, type TSportsBet } from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import { type Db, perDatabase, type Tx, transactionOnGenericPlans } from '../../db/client.ts';
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
import { betTurnover } from '../promotions/stake.ts';
import { groupStakeParts, raiseGroupLevels, type TGroupStake } from '../promotions/vip.ts';
import { memberPushNotice } from '../realtime/member-channel.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { playRefusal } from '../responsible-gaming/rg.service.ts';
import { groupBetStake, type TGroupBetStake } from '../wallet/bonus/group-parts.ts';
import { type GroupLedger, type PlannedTransfer, planEach } from '../wallet/posting/plan.ts';
import { readLedger, sideRowsOf, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable } from '../wallet/wallet.group.ts';
import {
  lockSelectionMarkets,
  sportsBetReadSide,
  sportsBetsSide,
  type TSportsBetInsert,
  type TSportsBetWanted,
  type TSportsLegInsert,
} from './sports.bet-group.repo.ts';
import { sportsProfile } from './sports.profiles.ts';
import { betMessage } from './sports.realtime.ts';
import { betView, legRows, placedLegs, type TBetRow, type TPlacementSelection } from './sports.repo.ts';
import {
  assertStakeInRange,
  betStake,
  inPlayDelayMs,
  parseStake,
  placeBet,
  placementLegs,
  priceLegs,
  requestHashOf,
  SPORTS_CATEGORY,
  type TInPlayDelay,
  type TPlaceBetInput,
  type TSportsDeps,
  type TSportsSite,
} from './sports.service.ts';

/**
 * Group commit of sportsbook bets (ADR 027), the football final of issue 16: thousands of players
 * back one side of one match in the minutes before kick-off, and a bet placed on its own takes
 * seven round trips. Bets that arrive while a group is being posted (or within a millisecond of the
 * first) are posted in ONE transaction, as the in-house and crash bets are (ADR 023, 026):
 *   BEGIN · share-lock the markets of every bet's selections (ascending id), and, written behind it
 *   in the same round trip, a statement of its own (so it sees what committed while the lock
 *   waited, as a placement on its own does) that reads the selections with their markets and
 *   events, and per bet whether its key placed a bet already, whether the member has a limit loosening
 *   due, the responsible-gaming gate with each limit's period's play,
 *   the VIP totals and a bet id, then locks the members' accounts (the wallet's group lock) and
 *   their active bonus grants · in one statement, insert every stake transfer and move every
 *   balance, insert every bet with its legs, count turnover and VIP totals and the wagering of the
 *   grants the stakes feed (ADR 028) and queue each bet's push to its member · COMMIT (riding with the
 *   write unless a VIP level is crossed, ADR 025). Two round trips for the group.
 * Each bet keeps its own answer: the stake's range, a selection not offered, two legs on one event,
 * a closed or suspended market, a price moved beyond the odds policy, the max payout, the gate's
 * refusals and insufficient funds are decided in memory, in arrival order, by the functions a bet
 * placed on its own uses, and a refused bet writes nothing. A bet with a live leg waits the site's
 * in-play delay outside any group (nothing written) and comes back to one, checked at the prices of
 * that moment, as `placeBet` does. What the group does not decide goes the one-by-one way
 * (`placeBet`) after it commits: a key that placed a bet already (its replay or conflict), a grant
 * holder's stake that is not cash alone within the max bets or that completes the grant (ADR 028),
 * a loosening due. If the group's statements fail (a deadlock with an operator's change, a key
 * taken by another process, VIP totals moved), it rolls back and each bet is placed one by one.
 */

/** What a placement answers. */
export type TPlaced = { bet: TSportsBet; balance: string; replayed: boolean };

type Item = {
  deps: TSportsDeps;
  site: TSportsSite;
  memberId: bigint;
  input: TPlaceBetInput;
  key: string;
  stakeMinor: bigint;
  hash: string;
  /** The bet waited the site's in-play delay already (its first try found a live leg). */
  delayServed: boolean;
} & GroupItem<object, TPlaced | TInPlayDelay>;

/** A bet's answer from its group: placed, refused, or to wait the in-play delay and come back. */
type Outcome = GroupOutcome<TPlaced | TInPlayDelay>;

type TRead = {
  ord: number;
  taken: boolean;
  gate_due: boolean;
  /** The site's own in-play delay (null: its profile's). */
  delay_ms: number | null;
  bet_id: string;
  /** The transaction's start (ms): the placed_at of every bet it inserts. */
  now_ms: string;
  vip: TGroupStake['vipBefore'];
} & Record<string, unknown>;

type TSelectionRead = TPlacementSelection & { site_id: string };

/** A bet the group places: its legs, stake and view. */
/** A bet the group places: its stake's transfers (`groupBetStake`: ADR 028) and their plans. */
type TKept = TGroupBetStake & {
  item: Item;
  read: TRead;
  legs: TPlacementSelection[];
  potentialMinor: bigint;
  plans: PlannedTransfer[];
  view: TSportsBet;
};

class SportsBetCommitter {
  readonly queue: GroupQueue<Item>;

  constructor(private readonly db: Db) {
    this.queue = membersQueue<Item>(
      db,
      'sports_bets',
      (item) => ({ siteId: item.site.id, memberId: item.memberId }),
      (group) => this.post(group),
    );
  }

  private post(all: Item[]): Promise<void> {
    return postOrOneByOne<object, TPlaced | TInPlayDelay, Item>(
      this.queue,
      all,
      async (group) => {
        const outcomes = await transactionOnGenericPlans(this.db, (tx) => postSportsBets(tx, group));
        if (!Array.isArray(outcomes)) return outcomes;
        // After the commit, as a bet placed on its own tells the realtime hub.
        outcomes.forEach((outcome, i) => {
          const { deps, site, memberId } = group[i]!;
          const placed = 'result' in outcome && !('delayMs' in outcome.result);
          if (placed) deps.publishBalance?.(site.id, memberId, 'sports_bet');
        });
        return outcomes;
      },
      (item) =>
        placeBet(item.deps, item.site, item.memberId, item.input, item.key, {
          delayServed: item.delayServed,
        }),
    );
  }
}

const committerOf = perDatabase((db) => new SportsBetCommitter(db));

/**
 * Places a member's single or accumulator with the others arriving now: the same answers, refusals
 * and records as `placeBet`.
 */
export async function placeBetGrouped(
  deps: TSportsDeps,
  site: TSportsSite,
  memberId: bigint,
  input: TPlaceBetInput,
  key: string,
): Promise<TPlaced> {
  // A stake that does not parse is refused before anything is queued, as `placeBet` refuses it.
  const stakeMinor = parseStake(input.stake);
  const hash = requestHashOf(memberId, input, stakeMinor);
  const place = (delayServed: boolean) =>
    new Promise<TPlaced | TInPlayDelay>((resolve, reject) => {
      const item = { deps, site, memberId, input, key, stakeMinor, hash, delayServed, resolve, reject };
      committerOf(deps.db).queue.push(item);
    });
  const first = await place(false);
  if (!('delayMs' in first)) return first;
  // A live leg: nothing was written; wait outside any group, then check it as of now.
  await new Promise((resolve) => setTimeout(resolve, first.delayMs));
  const placed = await place(true);
  assertInvariant(!('delayMs' in placed), 'a bet waits the in-play delay once');
  return placed;
}

/** Counters of this process's sportsbook groups on `db` (bench and tests). */
export function sportsBetGroupStats(db: Db): Readonly<GroupQueueStats> {
  return committerOf(db).queue.stats;
}

/** The whole group in its transaction; one outcome per bet, in the group's order. */
async function postSportsBets(tx: Tx, group: Item[]): Promise<GroupDecision<TPlaced | TInPlayDelay>> {
  const { reads, ledger, selections } = await readSportsBets(tx, group);
  const outcomes: Outcome[] = group.map(() => ({ defer: true }));
  const kept: TKept[] = [];
  for (const read of reads) {
    const item = group[read.ord]!;
    if (read.taken || read.gate_due) continue;
    const { site, memberId, input, stakeMinor } = item;
    const profile = sportsProfile(site.jurisdiction);
    let legs: TPlacementSelection[];
    let potentialMinor: bigint;
    try {
      assertStakeInRange(profile, stakeMinor);
      legs = placementLegs(
        input,
        selections.filter((s) => s.site_id === site.id.toString()),
      );
      // A live leg waits the site's in-play delay first, then the bet comes back to a group.
      const delay = inPlayDelayMs(site, read.delay_ms);
      if (!item.delayServed && delay > 0 && legs.some((leg) => leg.event_status === 'live')) {
        outcomes[read.ord] = { result: { delayMs: delay } };
        continue;
      }
      potentialMinor = priceLegs(profile, input, stakeMinor, legs);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[read.ord] = { error };
      continue;
    }
    const refusal = playRefusal(site, gateOf(read), stakeMinor);
    if (refusal) {
      outcomes[read.ord] = { error: refusal };
      continue;
    }
    const staked = groupBetStake(ledger, {
      siteId: site.id,
      memberId,
      amountMinor: stakeMinor,
      ...betStake(read.bet_id, input.type, legs.length),
      category: SPORTS_CATEGORY,
    });
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
    const bet: TBetRow = {
      id: read.bet_id,
      site_id: site.id.toString(),
      member_id: memberId.toString(),
      type: input.type,
      status: 'open',
      stake_minor: stakeMinor.toString(),
      potential_return_minor: potentialMinor.toString(),
      payout_minor: '0',
      unrecovered_minor: '0',
      settle_seq: 0,
      idempotency_key: item.key,
      request_hash: item.hash,
      placed_at: new Date(Number(read.now_ms)),
      settled_at: null,
    };
    const view = betView(bet, placedLegs(bet.id, legs), profile.cashOutMarginBp);
    kept.push({ ...staked, item, read, legs, potentialMinor, plans: [planned.plan, ...rest], view });
  }
  if (kept.length === 0) return outcomes;
  await writeSportsBets(tx, ledger, kept);
  for (const { item, read, view } of kept) {
    const balance = groupPlayable(ledger, item.site.id, item.memberId);
    outcomes[read.ord] = { result: { bet: view, balance: formatMinor(balance), replayed: false } };
  }
  return outcomes;
}

/**
 * Two statements written together: the first share-locks the markets of the group's selections
 * (ascending id; odds and market status change only under the market row's lock); the second, run
 * once the first holds its locks, reads what `postSportsBets` decides from and locks the members'
 * accounts (the wallet's `readLedger`, id order, with the sites' system accounts), then their
 * active bonus grants (expiry, id): markets, accounts, grants, the order of a bet placed on its own.
 */
async function readSportsBets(
  tx: Tx,
  group: Item[],
): Promise<{ reads: TRead[]; ledger: GroupLedger; selections: TSelectionRead[] }> {
  const ids = group.flatMap((item) => item.input.legs.map((leg) => leg.selection_id));
  const locked = lockSelectionMarkets(tx, ids);
  const wanted = group.map(
    (item, ord): TSportsBetWanted => ({
      ord,
      member_id: item.memberId.toString(),
      site_id: item.site.id.toString(),
      key: item.key,
      tz: siteTimeZone(item.site),
    }),
  );
  const read = readLedger(tx, {
    name: 'sorte_sports_bet_group_read',
    members: group.map((item) => ({ siteId: item.site.id, memberId: item.memberId })),
    grants: true,
    side: sportsBetReadSide(wanted, ids),
  });
  const [, { rows, ledger }] = await Promise.all([locked, read]);
  const selections: TSelectionRead[] = [];
  for (const { what, row } of rows)
    if (what === 'selection') selections.push(row as unknown as TSelectionRead);
  return { reads: sideRowsOf<TRead>(rows, 'bet'), ledger, selections };
}

/**
 * ONE statement: the wallet's writes of the group (`writePosting`: every stake transfer and
 * balance), every bet with its legs (at the odds read under the markets' lock), each stake in its
 * member's turnover and VIP totals (checked to be the totals decided from the read, else it fails
 * and the group goes one by one), and each bet's push to its member's sockets (`pg_notify`, sent at
 * COMMIT). A VIP level crossed is raised after it.
 */
async function writeSportsBets(tx: Tx, ledger: GroupLedger, kept: TKept[]): Promise<void> {
  const plans = kept.flatMap((k) => k.plans);
  const stakes = kept.map(
    ({ item, read, bonusPartMinor }): TGroupStake => ({
      siteId: item.site.id,
      memberId: item.memberId,
      jurisdiction: item.site.jurisdiction,
      category: SPORTS_CATEGORY,
      stakeMinor: item.stakeMinor,
      turnover: betTurnover(item.site.jurisdiction, SPORTS_CATEGORY, item.stakeMinor, bonusPartMinor),
      vipBefore: read.vip,
    }),
  );
  const counts = groupStakeParts(stakes);
  const bets = kept.map(
    ({ item, read, potentialMinor }): TSportsBetInsert => ({
      id: read.bet_id,
      site_id: item.site.id.toString(),
      member_id: item.memberId.toString(),
      type: item.input.type,
      stake: item.stakeMinor.toString(),
      potential: potentialMinor.toString(),
      key: item.key,
      hash: item.hash,
    }),
  );
  const legs = kept.flatMap(({ read, legs }) =>
    legRows(legs).map((leg): TSportsLegInsert => ({ bet_id: read.bet_id, ...leg })),
  );
  const pushes = kept.map(({ item, view }) =>
    memberPushNotice(item.site.id, item.memberId, betMessage(view)),
  );
  const { rows, answer: resultOf } = await writePosting(tx, {
    name: 'sorte_sports_bet_group_write',
    ledger,
    plans,
    fed: kept,
    commitWithIt: counts.crossed.every((levels) => levels === null),
    side: sportsBetsSide(bets, legs, pushes, counts),
  });
  for (const {
    plans: [plan],
  } of kept)
    resultOf(plan!, false);
  const placed = new Map<string, string>();
  let legCount = -1;
  let pushCount = -1;
  for (const { what, row } of rows) {
    if (what === 'bet') placed.set(String(row.id), String(row.placed_ms));
    else if (what === 'legs') legCount = Number(row.n);
    else if (what === 'pushed') pushCount = Number(row.n);
  }
  // The views were built before the write: each bet is stored as its view shows it.
  for (const { read } of kept) {
    assertInvariant(placed.get(read.bet_id) === read.now_ms, `sports bet ${read.bet_id} placed as read`);
  }
  assertInvariant(legCount === legs.length && pushCount === kept.length, 'every leg and push written');
  // The levels decided before the write: the write checked its totals are the ones they came from.
  await raiseGroupLevels(tx, stakes, counts.crossed);
}
