import { formatMinor, type TGameCategory, type TOriginal } from '@sorte/contract';
import type { Multiplier } from '@sorte/fairness';
import { siteTimeZone } from '../../core/periods.ts';
import type { Tx } from '../../db/client.ts';
import type { GroupDecision, GroupOutcome } from '../../db/group-queue.ts';
import { AppError } from '../../errors.ts';
import type { TCatalogueGame } from '../games/games.repo.ts';
import type { TGameRoundRow } from '../games/games.schema.ts';
import { betTurnover } from '../promotions/stake.ts';
import { groupStakeParts, raiseGroupLevels, type TGroupStake } from '../promotions/vip.ts';
import { gateOf } from '../responsible-gaming/rg.repo.ts';
import { playRefusal } from '../responsible-gaming/rg.service.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { groupBonusStake, groupBonusWin } from '../wallet/bonus/group-parts.ts';
import { cashWin, type TFedGrant, type TGrantMove } from '../wallet/posting/grant-parts.ts';
import { type GroupLedger, type PlannedTransfer, planEach } from '../wallet/posting/plan.ts';
import type { PreparedTransfer } from '../wallet/posting/request.ts';
import { readLedger, sideRowsOf, type TPostingRow, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable, groupStake } from '../wallet/wallet.group.ts';
import { betReadSide, roundsSide, type TBetRead, type TRoundInsert } from './bet-group.repo.ts';
import {
  dealStepped,
  formatMultiplier,
  isStepped,
  settleInstant,
  type TBetBodies,
  type TPreparedBet,
} from './originals.games.ts';
import { plannedStake } from './originals.money.ts';
import type { TPlayer } from './originals.repo.ts';
import { seedsOf, type TBetResult, withGame } from './originals.service.ts';
import { toRoundView } from './rounds.service.ts';

/**
 * One group of in-house bets in its transaction (bet-group.ts, ADR 023): read (the bettors' seed
 * pairs, then the wallet's ledger), play each bet on its seeds, plan its stake and win with the
 * wallet's planner, write (the wallet's transfers with the rounds, nonces and counters riding in
 * the same statement), answer. Two statements whatever the group's size.
 */

type TMember = Extract<TPlayer, { kind: 'member' }>;

/** A bet as its caller made it, checked (`prepareBet`) and keyed. */
export type TBetRequest = {
  player: TMember;
  game: TOriginal;
  body: TBetBodies[TOriginal];
  bet: TPreparedBet;
  hash: string;
  key: string;
};

/** What the group reads of a bet's game from caches: its row and what its stake counts towards. */
export type TReady = { row: TCatalogueGame; category: TGameCategory; jurisdiction: TJurisdiction };

/** A queued bet with its game row and counters' keys, as the group posts it. */
type TBet = TBetRequest & TReady;

type Outcome = GroupOutcome<TBetResult>;

/** What a bet plays at placing: an instant bet settles, a stepped start deals its round. */
type TPlay = {
  payoutMinor: bigint;
  multiplier: Multiplier;
  outcome: Record<string, unknown>;
  settled: boolean;
};

/** A bet the group places: its round, settlement and transfers. */
type TPlaced = {
  ord: number;
  item: TBet;
  read: TBetRead;
  roundId: bigint;
  nonce: bigint;
  settlement: TPlay;
  /** The stake's transfers: the first under the bet's key (cash, else a grant's part), then parts. */
  stakes: PreparedTransfer[];
  /** The win's transfers (none for a loss or a stepped start), split as the stake was. */
  wins: PreparedTransfer[];
  /** The grant whose wagering the stake feeds (a member holding active grants; ADR 028). */
  fed: TFedGrant | null;
  /** The grants' balances the stake's bonus parts and the win's shares move. */
  moves: TGrantMove[];
  bonusPartMinor: bigint;
  stakePlans?: PlannedTransfer[];
  winPlans?: PlannedTransfer[];
};

/** The whole group in its transaction; one outcome per bet, in the group's order. */
export async function postBets(tx: Tx, group: TBet[]): Promise<GroupDecision<TBetResult>> {
  const { reads, ledger } = await readBets(tx, group);
  const outcomes: Outcome[] = group.map(() => ({ defer: true }));
  const placed = playBets(group, reads, ledger, outcomes);
  if (placed.length === 0) return outcomes;
  const planned = planBets(ledger, placed, outcomes);
  if ('alone' in planned) return planned;
  const { plans, kept } = planned;
  if (kept.length === 0) return outcomes;
  const rounds = await writeGroup(tx, ledger, plans, kept);
  for (const p of kept) {
    const { player } = p.item;
    const stored = rounds.get(p.roundId);
    assertInvariant(stored, `round ${p.roundId} inserted`);
    const pair = {
      id: BigInt(p.read.pair_id!),
      serverSeed: p.read.server_seed,
      serverSeedHash: p.read.server_seed_hash,
      clientSeed: p.read.client_seed,
      nonce: p.nonce,
    };
    outcomes[p.ord] = {
      result: {
        round: toRoundView(withGame(stored, { pair, game: p.item.row })),
        balance: formatMinor(groupPlayable(ledger, player.siteId, player.memberId)),
        replayed: false,
      },
    };
  }
  return outcomes;
}

/**
 * Each bet the group can place, played on its seeds: the gate's refusals and a deal's refused
 * parameters are answered in `outcomes`; a retry, a member without a seed pair, an open stepped
 * round, a limit loosening due and a stake that is not the group's are left deferred.
 */
function playBets(group: TBet[], reads: TBetRead[], ledger: GroupLedger, outcomes: Outcome[]): TPlaced[] {
  const placed: TPlaced[] = [];
  for (const read of reads) {
    const item = group[read.ord]!;
    if (read.pair_id === null || read.taken || read.active || read.gate_due) continue;
    const site = { id: item.player.siteId, jurisdiction: item.jurisdiction };
    const refusal = playRefusal(site, gateOf(read), item.bet.stakeMinor);
    if (refusal) {
      outcomes[read.ord] = { error: refusal };
      continue;
    }
    const roundId = BigInt(read.round_id);
    const nonce = BigInt(read.next_nonce);
    const pair = { serverSeed: read.server_seed, clientSeed: read.client_seed };
    let settlement: TPlay;
    try {
      settlement = playOf(item, seedsOf(pair, nonce));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes[read.ord] = { error };
      continue;
    }
    const transfers = transfersOf(ledger, item, roundId, settlement.payoutMinor);
    // A stake refused for its bonus (a max bet), or completing a grant: one by one.
    if (!transfers) continue;
    placed.push({ ord: read.ord, item, read, roundId, nonce, settlement, ...transfers });
  }
  return placed;
}

/**
 * The wallet's group (its accounts locked by the read): each stake and win decided in arrival
 * order. A refused stake is that bet's answer; a win refused after its stake passed (a balance
 * over the ledger's ceiling) is for the one-by-one path to answer: the whole group goes that way.
 */
function planBets(
  ledger: GroupLedger,
  placed: TPlaced[],
  outcomes: Outcome[],
): { plans: PlannedTransfer[]; kept: TPlaced[] } | { alone: string } {
  const plans: PlannedTransfer[] = [];
  const kept: TPlaced[] = [];
  for (const p of placed) {
    const [first, ...parts] = p.stakes;
    const planned = plannedStake(ledger, first!);
    if ('alone' in planned) return planned;
    if ('refusal' in planned) {
      outcomes[p.ord] = { error: planned.refusal };
      continue;
    }
    // The bonus parts and the win were decided on these balances: each must plan, else one by one.
    const rest = planEach(ledger, [...parts, ...p.wins]);
    if ('alone' in rest) return rest;
    p.stakePlans = [planned.plan, ...rest.slice(0, parts.length)];
    p.winPlans = rest.slice(parts.length);
    plans.push(...p.stakePlans, ...p.winPlans);
    kept.push(p);
  }
  return { plans, kept };
}

/**
 * ONE statement: locks the seed pair of every bettor (id order), then the bettors' cash and bonus
 * accounts (id order; the wallet's `readLedger`, which also reads the system accounts), then
 * their active bonus grants (expiry, id: `groupGrantRows`), and reads, per bet, whether its key
 * placed a round already, the RG gate with each limit's play, the member's VIP totals (not locked: the write checks
 * them) and a round id for it. Pairs, accounts, grants: the order the one-by-one bet takes them in.
 * The stakes' and wins' keys name rounds whose ids this statement draws, so no transfer can hold
 * them yet: no key is read.
 */
async function readBets(tx: Tx, group: TBet[]): Promise<{ reads: TBetRead[]; ledger: GroupLedger }> {
  const wanted = group.map((item, ord) => ({
    ord,
    member_id: item.player.memberId.toString(),
    game: item.game,
    key: item.key,
    tz: siteTimeZone({ jurisdiction: item.jurisdiction }),
  }));
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_bet_group_read',
    members: group.map(({ player }) => player),
    grants: true,
    side: betReadSide(wanted),
  });
  return { reads: sideRowsOf<TBetRead>(rows, 'bet'), ledger };
}

type TTransfers = Pick<TPlaced, 'stakes' | 'wins' | 'fed' | 'moves' | 'bonusPartMinor'>;

/**
 * The stake and the win of a bet, as `takeStake` and `payWinnings` post them: cash → house and
 * house → cash; a member holding active grants feeds one of them (`groupStake`), and one whose
 * cash does not cover the stake stakes bonus parts and wins back into the grants
 * (`groupBonusStake`, `groupBonusWin`). Null: the bet is not one a group posts (a max bet passed,
 * a grant completed, funds short).
 */
function transfersOf(
  ledger: GroupLedger,
  item: TBet,
  roundId: bigint,
  payoutMinor: bigint,
): TTransfers | null {
  const { player, game, bet, category } = item;
  const metadata = { game, roundId: roundId.toString() };
  const stakeKey = `round:${roundId}:bet`;
  const { siteId, memberId } = player;
  const reference = `round:${roundId}`;
  const stakeInput = {
    siteId,
    memberId,
    amountMinor: bet.stakeMinor,
    idempotencyKey: stakeKey,
    reference,
    metadata,
    category,
  };
  const winInput = {
    siteId,
    memberId,
    amountMinor: payoutMinor,
    idempotencyKey: `round:${roundId}:win`,
    stakeKey,
    reference,
    metadata,
  };
  const staked = groupStake(ledger, stakeInput);
  if (staked) {
    const wins = payoutMinor > 0n ? [cashWin(winInput)] : [];
    return { stakes: [staked.stake], wins, fed: staked.fed, moves: [], bonusPartMinor: 0n };
  }
  const split = groupBonusStake(ledger, stakeInput);
  if (!split) return null;
  const won = payoutMinor > 0n ? groupBonusWin(ledger, split, winInput) : { wins: [], moves: [] };
  if (!won) return null;
  const { stakes, fed, moves, bonusPartMinor } = split;
  return { stakes, wins: won.wins, fed, moves: [...moves, ...won.moves], bonusPartMinor };
}

/**
 * ONE statement: the wallet's writes of the group (`writePosting`: every transfer and balance),
 * then every round settled (carrying its transfers' ids, read from the transfers just inserted),
 * each bet's nonce (the pair's next nonce moves only if it is still the one the round took), each
 * game recently played, each fed grant's wagering (moved only from the value read under its lock)
 * and each stake in its member's turnover and VIP totals, which it checks are
 * the totals decided from the read (else it fails and the group goes one by one); a VIP level
 * crossed (decided before it, from those totals) is raised after it. One statement instead of
 * two: the group's transaction holds its rows' locks one round trip less (ADR 023); its COMMIT
 * rides with it when no level is crossed (ADR 025).
 */
async function writeGroup(
  tx: Tx,
  ledger: GroupLedger,
  plans: readonly PlannedTransfer[],
  kept: TPlaced[],
): Promise<Map<bigint, TGameRoundRow>> {
  const stakes = kept.map((p): TGroupStake => {
    const { player, bet, category, jurisdiction } = p.item;
    return {
      siteId: player.siteId,
      memberId: player.memberId,
      jurisdiction,
      category,
      stakeMinor: bet.stakeMinor,
      turnover: betTurnover(jurisdiction, category, bet.stakeMinor, p.bonusPartMinor),
      vipBefore: p.read.vip,
    };
  });
  const counts = groupStakeParts(stakes);
  const { crossed } = counts;
  const { rows, answer: resultOf } = await writePosting(tx, {
    name: 'sorte_bet_group_write',
    ledger,
    plans,
    fed: kept,
    commitWithIt: crossed.every((levels) => levels === null),
    side: roundsSide(kept.map(roundInsertOf), counts),
  });
  // Each bet's transfer ids, once: the rounds carry them and the answers show them.
  const transferIds = kept.map((p) => ({
    bet: resultOf(p.stakePlans![0]!, false).transferId,
    win: p.winPlans?.[0] ? resultOf(p.winPlans[0], false).transferId : null,
  }));
  const { stored, nonces } = storedRoundsOf(rows, kept, transferIds);
  // A nonce taken meanwhile cannot be: the read locked the pairs (when COMMIT rode with the write,
  // this runs after it; a failure sends the group's bets the one-by-one way, their keys answer).
  assertInvariant(nonces === kept.length && stored.size === kept.length, 'every round took its nonce');
  // The levels decided before the write: the write checked its totals are the ones they came from.
  await raiseGroupLevels(tx, stakes, crossed);
  return stored;
}

/** A bet's round as the group's write inserts it. */
function roundInsertOf(p: TPlaced): TRoundInsert {
  return {
    id: p.roundId.toString(),
    site_id: p.item.player.siteId.toString(),
    member_id: p.item.player.memberId.toString(),
    game_id: p.item.row.id.toString(),
    game_code: p.item.game,
    status: p.settlement.settled ? 'settled' : 'active',
    key: p.item.key,
    hash: p.item.hash,
    stake: p.item.bet.stakeMinor.toString(),
    payout: p.settlement.payoutMinor.toString(),
    num: p.settlement.multiplier.num.toString(),
    den: p.settlement.multiplier.den.toString(),
    multiplier: formatMultiplier(p.settlement.multiplier),
    params: p.item.bet.params,
    outcome: p.settlement.outcome,
    pair_id: p.read.pair_id,
    nonce: p.nonce.toString(),
    bet_key: p.stakes[0]!.posting.idempotencyKey,
    win_key: p.wins[0]?.posting.idempotencyKey ?? null,
  };
}

/** What a bet plays as it is placed: an instant bet's settlement, or a stepped round's deal. */
function playOf(item: TBet, seeds: ReturnType<typeof seedsOf>): TPlay {
  if (isStepped(item.game)) {
    const view = dealStepped(item.game, seeds, item.bet);
    return { payoutMinor: 0n, multiplier: view.multiplier, outcome: view.outcome, settled: false };
  }
  const settled = settleInstant(item.game, seeds, item.bet);
  return { ...settled, outcome: settled.outcome as Record<string, unknown>, settled: true };
}

/** The rounds the write stored, by id, and how many nonces it took. */
function storedRoundsOf(
  rows: readonly TPostingRow[],
  kept: readonly TPlaced[],
  transferIds: readonly { bet: bigint; win: bigint | null }[],
): { stored: Map<bigint, TGameRoundRow>; nonces: number } {
  const keptAt = new Map(kept.map((p, i) => [p.roundId, i]));
  const stored = new Map<bigint, TGameRoundRow>();
  let nonces = 0;
  for (const { what, row } of rows) {
    if (what === 'pair') nonces++;
    else if (what === 'round') {
      const id = BigInt(String(row.id));
      const i = keptAt.get(id);
      assertInvariant(i !== undefined, `round ${id} is one of the group's`);
      const p = kept[i]!;
      const at = new Date(Number(row.created_ms));
      stored.set(id, {
        id,
        siteId: p.item.player.siteId,
        memberId: p.item.player.memberId,
        demoSessionId: null,
        gameId: p.item.row.id,
        gameCode: p.item.game,
        status: p.settlement.settled ? 'settled' : 'active',
        idempotencyKey: p.item.key,
        requestHash: p.item.hash,
        stakeMinor: p.item.bet.stakeMinor,
        payoutMinor: p.settlement.payoutMinor,
        multiplierNum: p.settlement.multiplier.num.toString(),
        multiplierDen: p.settlement.multiplier.den.toString(),
        multiplier: formatMultiplier(p.settlement.multiplier),
        params: row.params as Record<string, unknown>,
        steps: [],
        outcome: row.outcome as Record<string, unknown>,
        seedPairId: BigInt(p.read.pair_id!),
        nonce: p.nonce,
        betTransferId: transferIds[i]!.bet,
        winTransferId: transferIds[i]!.win,
        createdAt: at,
        settledAt: p.settlement.settled ? at : null,
      });
    }
  }
  return { stored, nonces };
}
