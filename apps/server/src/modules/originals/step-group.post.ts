import { formatMinor, type TSteppedOriginal } from '@sorte/contract';
import { GAME_RULES, payoutMinor } from '@sorte/fairness';
import type { Tx } from '../../db/client.ts';
import type { GroupDecision, GroupOutcome } from '../../db/group-queue.ts';
import { AppError } from '../../errors.ts';
import type { TGameRoundRow } from '../games/games.schema.ts';
import { cashWin } from '../wallet/posting/grant-parts.ts';
import { decideTransfer, type PlannedTransfer } from '../wallet/posting/plan.ts';
import type { PreparedTransfer } from '../wallet/posting/request.ts';
import { readLedger, sideRowsOf, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable } from '../wallet/wallet.group.ts';
import { formatMultiplier } from './originals.games.ts';
import type { TPlayer, TRoundWithGame } from './originals.repo.ts';
import type { TBetResult } from './originals.service.ts';
import { toRoundView } from './rounds.service.ts';
import {
  roundRowOf,
  stepsReadSide,
  stepsWriteSide,
  type TStepRead,
  type TStepUpdate,
} from './step-group.repo.ts';
import { decideStep, type TStepAction } from './stepped.decide.ts';

/**
 * One group of steps on open Mines and Hi-Lo rounds in its transaction (step-group.ts): read (each
 * round locked with its seeds, then the members' accounts), decide each step with the rule the
 * one-by-one step uses (`decideStep`), plan each win with the wallet's planner, write (the wins'
 * transfers with every round's update riding in the same statement), answer. Two statements
 * whatever the group's size; COMMIT rides with the write.
 */

type TMember = Extract<TPlayer, { kind: 'member' }>;

/** A step as its caller made it. */
export type TStepRequest = { player: TMember; game: TSteppedOriginal; roundId: bigint; action: TStepAction };

type Outcome = GroupOutcome<TBetResult>;

/** A step the group writes: its round as locked, as the step leaves it, and its win's transfer. */
type TDecided = { ord: number; item: TStepRequest; locked: TRoundWithGame; update: TStepUpdate };

/** The whole group in its transaction; one outcome per step, in the group's order. */
export async function postSteps(tx: Tx, group: TStepRequest[]): Promise<GroupDecision<TBetResult>> {
  const wanted = group.map(({ player, roundId }, ord) => ({
    ord,
    round_id: roundId.toString(),
    site_id: player.siteId.toString(),
    member_id: player.memberId.toString(),
  }));
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_step_group_read',
    members: group.map(({ player }) => player),
    side: stepsReadSide(wanted),
  });
  const outcomes: Outcome[] = group.map(() => ({ defer: true }));
  const decided: TDecided[] = [];
  const plans: PlannedTransfer[] = [];
  for (const read of sideRowsOf<TStepRead>(rows, 'step')) {
    const item = group[read.ord]!;
    const step = decideOne(item, read);
    if ('error' in step) {
      outcomes[read.ord] = step;
      continue;
    }
    // A win whose stake took a bonus part splits back into its grants: the one-by-one way.
    if (!step.win || !read.stake_took_bonus) {
      if (step.win) {
        const decision = decideTransfer(ledger, step.win);
        // A win refused after its stake passed (a balance over the ledger's ceiling): one by one.
        if (decision.kind !== 'plan')
          return { alone: decision.kind === 'alone' ? decision.reason : 'part_refused' };
        plans.push(decision.plan);
      }
      decided.push({ ord: read.ord, item, locked: step.locked, update: step.update });
    }
  }
  if (decided.length === 0) return outcomes;
  const { rows: written } = await writePosting(tx, {
    name: 'sorte_step_group_write',
    ledger,
    plans,
    side: stepsWriteSide(decided.map((d) => d.update)),
    commitWithIt: true,
  });
  const stored = new Map<bigint, TGameRoundRow>();
  for (const { what, row } of written) {
    if (what !== 'round') continue;
    const round = roundRowOf(row);
    stored.set(round.id, round);
  }
  // The read locked every round while it was active: each is updated exactly once.
  assertInvariant(stored.size === decided.length, 'every stepped round was still active');
  for (const { ord, item, locked } of decided) {
    const { siteId, memberId } = item.player;
    outcomes[ord] = {
      result: {
        round: toRoundView({ ...locked, ...stored.get(locked.id)! }),
        balance: formatMinor(groupPlayable(ledger, siteId, memberId)),
        replayed: false,
      },
    };
  }
  return outcomes;
}

/**
 * A step decided on its locked round, as `stepRound` decides it: NOT_FOUND for a round that is not
 * the member's or not of the game, ROUND_NOT_ACTIVE once settled, the rule's own refusals; else the
 * round's update and, for a settlement that pays, its win as `payWinnings` posts a cash stake's.
 */
function decideOne(
  item: TStepRequest,
  read: TStepRead,
): { error: unknown } | { locked: TRoundWithGame; update: TStepUpdate; win: PreparedTransfer | null } {
  const locked = lockedRoundOf(read);
  if (!locked || locked.gameCode !== item.game) return { error: new AppError('NOT_FOUND') };
  if (locked.status !== 'active') return { error: new AppError('ROUND_NOT_ACTIVE') };
  let decision: ReturnType<typeof decideStep>;
  try {
    decision = decideStep(locked, item.action);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { error };
  }
  const base = { id: locked.id.toString(), site_id: locked.siteId.toString() };
  if ('continue' in decision) {
    const next = decision.continue;
    return {
      locked,
      win: null,
      update: {
        ...base,
        settle: false,
        payout: '0',
        num: next.multiplierNum.toString(),
        den: next.multiplierDen.toString(),
        multiplier: next.multiplier,
        params: next.params,
        steps: next.steps,
        outcome: next.outcome,
        win_key: null,
      },
    };
  }
  const { multiplier, outcome, params, steps } = decision.settle;
  const payout = payoutMinor(locked.stakeMinor, multiplier, GAME_RULES[item.game].limits.maxWinMinor);
  const reference = `round:${locked.id}`;
  const win =
    payout > 0n
      ? cashWin({
          siteId: item.player.siteId,
          memberId: item.player.memberId,
          amountMinor: payout,
          idempotencyKey: `${reference}:win`,
          stakeKey: `${reference}:bet`,
          reference,
          metadata: { game: item.game, roundId: locked.id.toString() },
        })
      : null;
  return {
    locked,
    win,
    update: {
      ...base,
      settle: true,
      payout: payout.toString(),
      num: multiplier.num.toString(),
      den: multiplier.den.toString(),
      multiplier: formatMultiplier(multiplier),
      params,
      steps,
      outcome,
      win_key: win ? win.posting.idempotencyKey : null,
    },
  };
}

/** The read's round with its seeds and game, as `findRound` answers it; null when not found. */
function lockedRoundOf(read: TStepRead): TRoundWithGame | null {
  if (!read.round) return null;
  return {
    ...roundRowOf(read.round),
    gameName: String(read.game_name),
    providerName: String(read.provider_name),
    serverSeed: String(read.server_seed),
    serverSeedHash: String(read.server_seed_hash),
    clientSeed: String(read.client_seed),
    pairRevealed: read.pair_revealed === true,
  };
}
