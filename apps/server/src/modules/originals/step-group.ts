import type { TSteppedOriginal } from '@sorte/contract';
import { type Db, perDatabase, transactionOnGenericPlans } from '../../db/client.ts';
import { type GroupItem, type GroupQueue, membersQueue, postOrOneByOne } from '../../db/group-queue.ts';
import type { BetGroupStats } from './bet-group.ts';
import type { TPlayer } from './originals.repo.ts';
import { stepRound, type TBetResult } from './originals.service.ts';
import { postSteps, type TStepRequest } from './step-group.post.ts';
import type { TStepAction } from './stepped.decide.ts';

/**
 * Group commit of the steps on open Mines and Hi-Lo rounds (ADR 033's one money path): a pick, a
 * Hi-Lo call or a cash-out answers exactly what `stepRound` would (the round as the step leaves
 * it, the balance, the same refusals), but members' steps that arrive together are posted in ONE
 * transaction of two statements (step-group.post.ts): the rounds locked and the members' accounts,
 * then every win's transfer and every round's update. At most one step per member is in a group,
 * and a member's steps are posted in arrival order.
 *
 * What a group does not decide itself goes the one-by-one way after it commits: a win whose stake
 * took a bonus part (its win splits back into the grants, `payWin`). If the group's statements
 * fail or a win cannot be planned, it rolls back as a whole and every step is placed one by one.
 */

type Item = TStepRequest & GroupItem<Record<string, never>, TBetResult>;

class StepCommitter {
  readonly queue: GroupQueue<Item>;

  constructor(private readonly db: Db) {
    this.queue = membersQueue<Item>(
      db,
      'steps',
      (item) => item.player,
      (group) =>
        postOrOneByOne<Record<string, never>, TBetResult, Item>(
          this.queue,
          group,
          (ready) => transactionOnGenericPlans(this.db, (tx) => postSteps(tx, ready)),
          (item) => stepRound(this.db, item.player, item.game, item.roundId, item.action),
        ),
    );
  }
}

const committerOf = perDatabase((db) => new StepCommitter(db));

/** A pick, call or cash-out with group commit; a demo round's step goes one by one. */
export function stepGrouped(
  db: Db,
  player: TPlayer,
  game: TSteppedOriginal,
  roundId: bigint,
  action: TStepAction,
): Promise<TBetResult> {
  if (player.kind !== 'member') return stepRound(db, player, game, roundId, action);
  return new Promise<TBetResult>((resolve, reject) => {
    committerOf(db).queue.push({ player, game, roundId, action, resolve, reject });
  });
}

/** Counters of this process's step groups on `db` (bench and tests); `bets` counts the steps. */
export function stepGroupStats(db: Db): BetGroupStats {
  const { groups, items, largestGroup, deferred, rolledBack } = committerOf(db).queue.stats;
  return { groups, bets: items, deferred, fallbacks: rolledBack, largestGroup };
}
