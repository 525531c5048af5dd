import type { TInstantOriginal, TOriginal, TSteppedOriginal } from '@sorte/contract';
import { type Db, perDatabase, transactionOnGenericPlans } from '../../db/client.ts';
import { type GroupItem, type GroupQueue, membersQueue, postOrOneByOne } from '../../db/group-queue.ts';
import { gameCategory, siteJurisdiction } from '../promotions/promotions.repo.ts';
import { postBets, type TBetRequest, type TReady } from './bet-group.post.ts';
import { isStepped, prepareBet, type TBetBodies } from './originals.games.ts';
import type { TPlayer } from './originals.repo.ts';
import {
  gameRow,
  placeInstantBet,
  requestHash,
  startSteppedRound,
  type TBetResult,
} from './originals.service.ts';

/**
 * Group commit of whole in-house bets (ADR 023): `placeInstantBetGrouped` answers exactly what
 * `placeInstantBet` would — the same round, balance and refusals — and `startSteppedRoundGrouped`
 * what `startSteppedRound` would (a Mines or Hi-Lo round opened, its stake taken), but members' bets that
 * arrive while another group is being posted (or within a millisecond of the first) are posted in ONE
 * transaction whose statements do not grow with the group:
 *   BEGIN · lock every bettor's seed pair, and read per bet whether its key placed a round already,
 *   the responsible-gaming gate with each limit's period's
 *   play, its VIP totals and a round id · lock the members' accounts (wallet group commit, ADR
 *   019), then their active bonus grants · in one statement, insert every stake and win transfer and move every balance, then
 *   insert every round (settled), take each nonce, mark the games recently played, count turnover
 *   and VIP totals and the wagering of the grants the stakes feed · COMMIT. On PostgreSQL BEGIN rides with the read and, unless a VIP level is
 *   crossed, COMMIT with the write (ADR 025): two round trips.
 * Each bet keeps its own outcome: the gate's refusals and insufficient funds are decided in memory,
 * in arrival order, by the same functions the one-by-one path uses (`playRefusal`, the wallet's
 * `decideTransfer`), and a refused bet writes nothing. At most one bet per member is in a group (a
 * member's bets are posted in arrival order, one nonce each).
 *
 * What a group does not decide itself goes the one-by-one way after the group commits, in order:
 * a key that placed a round already (its replay or conflict), a member without a seed pair yet,
 * a stepped start while the member's round of that game is still open (ROUND_IN_PROGRESS),
 * with a bonus grant whose stake is not cash alone within the grants' max bets or completes the
 * grant's wagering (ADR 028: `stakeWithBonus` splits and converts), or with a limit loosening due. If the
 * group's statements fail (a deadlock with another process, a site without system accounts), it
 * rolls back as a whole and every bet of it is placed one by one: the rows' own guards (balance
 * ≥ 0, unique keys, one round per nonce) stay in force throughout.
 */

export interface BetGroupStats {
  groups: number;
  bets: number;
  /** Bets of groups that were placed one by one (see above). */
  deferred: number;
  /** Groups that rolled back and were placed bet by bet. */
  fallbacks: number;
  largestGroup: number;
}

/** A queued bet; its game row (null: not offered here) and what its stake counts towards are read from caches. */
type Item = TBetRequest & GroupItem<TReady, TBetResult>;

class BetCommitter {
  readonly queue: GroupQueue<Item>;

  constructor(private readonly db: Db) {
    this.queue = membersQueue<Item>(
      db,
      'bets',
      (item) => item.player,
      (group) => this.post(group),
    );
  }

  private post(all: Item[]): Promise<void> {
    // A game the site does not offer (or a failed cache read) is the one-by-one path's to answer.
    return postOrOneByOne<TReady, TBetResult, Item>(
      this.queue,
      all,
      (group) => transactionOnGenericPlans(this.db, (tx) => postBets(tx, group)),
      (item) => placeAlone(this.db, item),
    );
  }
}

const committerOf = perDatabase((db) => new BetCommitter(db));

/** A bet the one-by-one path places: an instant bet, or a stepped round's start. */
function placeAlone(
  db: Db,
  item: { player: TPlayer; game: TOriginal; body: TBetBodies[TOriginal]; key: string },
): Promise<TBetResult> {
  const { player, game, body, key } = item;
  return isStepped(game)
    ? startSteppedRound(db, player, game, body as TBetBodies[TSteppedOriginal], key)
    : placeInstantBet(db, player, game, body as TBetBodies[TInstantOriginal], key);
}

/**
 * Places an instant in-house bet with group commit; same answers and refusals as
 * `placeInstantBet`. Demo bets and games the site does not offer go that way directly.
 */
export function placeInstantBetGrouped<G extends TInstantOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  return placeGrouped(db, player, game, body, idempotencyKey);
}

/**
 * Starts a Mines or Hi-Lo round with group commit (its stake taken in the group); same answers
 * and refusals as `startSteppedRound`. Its picks, calls and cash-out are steps on the round's row.
 */
export function startSteppedRoundGrouped<G extends TSteppedOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  return placeGrouped(db, player, game, body, idempotencyKey);
}

async function placeGrouped(
  db: Db,
  player: TPlayer,
  game: TOriginal,
  body: TBetBodies[TOriginal],
  key: string,
): Promise<TBetResult> {
  if (player.kind !== 'member') return placeAlone(db, { player, game, body, key });
  const bet = prepareBet(game, body);
  // Queued at once, so a member's bets keep the order they were made in; the cached reads are
  // awaited by the group.
  const ready = (async (): Promise<TReady | null> => {
    const row = await gameRow(db, db, player, game);
    if (!row) return null;
    return {
      row,
      category: await gameCategory(db, player.siteId, game),
      jurisdiction: await siteJurisdiction(db, player.siteId),
    };
  })();
  return new Promise<TBetResult>((resolve, reject) => {
    committerOf(db).queue.push({
      player,
      game,
      body,
      bet,
      hash: requestHash(game, bet),
      key,
      ready,
      resolve,
      reject,
    });
  });
}

/** Counters of this process's bet groups on `db` (bench and tests). */
export function betGroupStats(db: Db): BetGroupStats {
  const { groups, items, largestGroup, deferred, rolledBack } = committerOf(db).queue.stats;
  return { groups, bets: items, deferred, fallbacks: rolledBack, largestGroup };
}
