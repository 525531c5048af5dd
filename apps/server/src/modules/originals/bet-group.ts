import { formatMinor, type TGameCategory, type TInstantOriginal } from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import { siteTimeZone } from '../../core/periods.ts';
import { type Db, perDatabase, type Tx, transactionOnGenericPlans } from '../../db/client.ts';
import {
  type GroupDecision,
  type GroupItem,
  type GroupOutcome,
  type GroupQueue,
  membersQueue,
  postOrOneByOne,
} from '../../db/group-queue.ts';
import type { TCatalogueGame } from '../games/games.repo.ts';
import type { TGameRoundRow } from '../games/games.schema.ts';
import { gameCategory, siteJurisdiction } from '../promotions/promotions.repo.ts';
import { betTurnover } from '../promotions/stake.ts';
import { GROUP_VIP_TOTALS, groupStakeParts, raiseGroupLevels, type TGroupStake } from '../promotions/vip.ts';
import { gateOf, groupGateColumns } from '../responsible-gaming/rg.repo.ts';
import { playRefusal } from '../responsible-gaming/rg.service.ts';
import type { TJurisdiction } from '../sites/sites.schema.ts';
import { cashWin, type TFedGrant } from '../wallet/posting/grant-parts.ts';
import { decideTransfer, type GroupLedger, type PlannedTransfer } from '../wallet/posting/plan.ts';
import type { PreparedTransfer } from '../wallet/posting/request.ts';
import {
  postedTransferId,
  readLedger,
  sideRowsOf,
  type TPostingRow,
  type TSidePart,
  writePosting,
} from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import { groupPlayable, groupStake } from '../wallet/wallet.group.ts';
import {
  formatMultiplier,
  prepareBet,
  settleInstant,
  type TBetBodies,
  type TPreparedBet,
} from './originals.games.ts';
import { plannedStake } from './originals.money.ts';
import type { TPlayer } from './originals.repo.ts';
import {
  gameRow,
  placeInstantBet,
  requestHash,
  seedsOf,
  type TBetResult,
  withGame,
} from './originals.service.ts';
import { toRoundView } from './rounds.service.ts';

/**
 * Group commit of whole in-house bets (ADR 023): `placeInstantBetGrouped` answers exactly what
 * `placeInstantBet` would — the same round, balance and refusals — but members' instant bets that
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

type TMember = Extract<TPlayer, { kind: 'member' }>;

type Item = {
  player: TMember;
  game: TInstantOriginal;
  body: TBetBodies[TInstantOriginal];
  bet: TPreparedBet;
  hash: string;
  key: string;
  /** The game row (null: not offered here) and what its stake counts towards, read from caches. */
} & GroupItem<TReady, TBetResult>;

type TReady = { row: TCatalogueGame; category: TGameCategory; jurisdiction: TJurisdiction };

/** A queued bet with its game row and counters' keys, as the group posts it. */
type TBet = Item & TReady;

type Outcome = GroupOutcome<TBetResult>;

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
      (item) => placeInstantBet(this.db, item.player, item.game, item.body, item.key),
    );
  }
}

const committerOf = perDatabase((db) => new BetCommitter(db));

/**
 * Places an instant in-house bet with group commit; same answers and refusals as
 * `placeInstantBet`. Demo bets and games the site does not offer go that way directly.
 */
export async function placeInstantBetGrouped<G extends TInstantOriginal>(
  db: Db,
  player: TPlayer,
  game: G,
  body: TBetBodies[G],
  idempotencyKey: string,
): Promise<TBetResult> {
  if (player.kind !== 'member') return placeInstantBet(db, player, game, body, idempotencyKey);
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
      key: idempotencyKey,
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

type TBetRead = {
  ord: number;
  pair_id: string | null;
  server_seed: string;
  server_seed_hash: string;
  client_seed: string;
  next_nonce: string;
  taken: boolean;
  round_id: string;
  gate_due: boolean;
  /** The member's VIP totals before the group (their values null: no row yet, all zero). */
  vip: { r: unknown; b: unknown; sl: unknown; li: unknown; level: unknown };
} & Record<string, unknown>;

/** A bet the group places: its round, settlement and transfers. */
type TPlaced = {
  ord: number;
  item: TBet;
  read: TBetRead;
  roundId: bigint;
  nonce: bigint;
  settlement: ReturnType<typeof settleInstant>;
  stake: PreparedTransfer;
  win: PreparedTransfer | null;
  /** The grant whose wagering the stake feeds (a member holding active grants; ADR 028). */
  fed: TFedGrant | null;
  stakePlan?: PlannedTransfer;
  winPlan?: PlannedTransfer | null;
};

/** The whole group in its transaction; one outcome per bet, in the group's order. */
async function postBets(tx: Tx, group: TBet[]): Promise<GroupDecision<TBetResult>> {
  const { reads, ledger } = await readBets(tx, group);
  const outcomes: Outcome[] = group.map(() => ({ defer: true }));
  const placed: TPlaced[] = [];
  for (const read of reads) {
    const item = group[read.ord]!;
    if (read.pair_id === null || read.taken || read.gate_due) continue;
    const site = { id: item.player.siteId, jurisdiction: item.jurisdiction };
    const refusal = playRefusal(site, gateOf(read), item.bet.stakeMinor);
    if (refusal) {
      outcomes[read.ord] = { error: refusal };
      continue;
    }
    const roundId = BigInt(read.round_id);
    const nonce = BigInt(read.next_nonce);
    const pair = { serverSeed: read.server_seed, clientSeed: read.client_seed };
    const settlement = settleInstant(item.game, seedsOf(pair, nonce), item.bet);
    const transfers = transfersOf(ledger, item, roundId, settlement.payoutMinor);
    // A stake that takes a bonus part, passes a max bet or completes a grant: one by one.
    if (!transfers) continue;
    placed.push({ ord: read.ord, item, read, roundId, nonce, settlement, ...transfers });
  }
  if (placed.length === 0) return outcomes;

  // The wallet's group (its accounts locked by the read): decide each stake and win in arrival order.
  const plans: PlannedTransfer[] = [];
  const kept: TPlaced[] = [];
  for (const p of placed) {
    const planned = plannedStake(ledger, p.stake);
    if ('alone' in planned) return planned;
    if ('refusal' in planned) {
      outcomes[p.ord] = { error: planned.refusal };
      continue;
    }
    p.stakePlan = planned.plan;
    // A win refused after its stake passed (a balance over the ledger's ceiling) is for the
    // one-by-one path to answer: the whole group goes that way.
    const win = p.win ? decideTransfer(ledger, p.win) : null;
    if (win && win.kind !== 'plan') return { alone: win.kind === 'alone' ? win.reason : 'win_refused' };
    p.winPlan = win ? win.plan : null;
    plans.push(p.stakePlan!, ...(p.winPlan ? [p.winPlan] : []));
    kept.push(p);
  }
  if (kept.length === 0) return outcomes;
  const rounds = await writeGroup(tx, ledger, plans, kept);

  for (const p of kept) {
    const { player } = p.item;
    const stored = rounds.get(p.roundId);
    assertInvariant(stored, `round ${p.roundId} inserted`);
    outcomes[p.ord] = {
      result: {
        round: toRoundView(
          withGame(stored, {
            pair: {
              id: BigInt(p.read.pair_id!),
              serverSeed: p.read.server_seed,
              serverSeedHash: p.read.server_seed_hash,
              clientSeed: p.read.client_seed,
              nonce: p.nonce,
            },
            game: p.item.row,
          }),
        ),
        balance: formatMinor(groupPlayable(ledger, player.siteId, player.memberId)),
        replayed: false,
      },
    };
  }
  return outcomes;
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
    key: item.key,
    tz: siteTimeZone({ jurisdiction: item.jurisdiction }),
  }));
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_bet_group_read',
    members: group.map(({ player }) => player),
    grants: true,
    side: {
      ctes: sql`w AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb)
            AS w(ord int, member_id bigint, key text, tz text)),
        pairs AS (
          SELECT p.id, p.member_id, p.server_seed, p.server_seed_hash, p.client_seed, p.next_nonce
          FROM fairness_seed_pairs p
          WHERE p.member_id = ANY(${`{${group.map((item) => item.player.memberId).join(',')}}`}::bigint[])
            AND p.revealed_at IS NULL
          ORDER BY p.id FOR NO KEY UPDATE),
        bets AS (
          SELECT w.ord, pairs.id::text AS pair_id, pairs.server_seed, pairs.server_seed_hash, pairs.client_seed,
            pairs.next_nonce::text AS next_nonce,
            (SELECT true FROM game_rounds r WHERE r.member_id = w.member_id AND r.idempotency_key = w.key)
              IS NOT NULL AS taken,
            nextval(pg_get_serial_sequence('game_rounds', 'id'))::text AS round_id,
            ${groupGateColumns(sql`w.member_id`, sql`w.tz`)},
            ${GROUP_VIP_TOTALS} AS vip
          FROM w LEFT JOIN pairs ON pairs.member_id = w.member_id
            LEFT JOIN member_vip v ON v.member_id = w.member_id)`,
      rows: sql`SELECT 'bet' AS what, to_jsonb(bets) AS row FROM bets`,
    },
  });
  return { reads: sideRowsOf<TBetRead>(rows, 'bet'), ledger };
}

/**
 * The stake (cash → house) and the win (house → cash) of a bet, as `takeStake` and `payWinnings`
 * post them; a member holding active grants feeds one of them (`groupStake`). Null: the stake is
 * not one a group posts (a bonus part, a max bet passed, a grant completed).
 */
function transfersOf(
  ledger: GroupLedger,
  item: TBet,
  roundId: bigint,
  payoutMinor: bigint,
): { stake: PreparedTransfer; fed: TFedGrant | null; win: PreparedTransfer | null } | null {
  const { player, game, bet, category } = item;
  const metadata = { game, roundId: roundId.toString() };
  const stakeKey = `round:${roundId}:bet`;
  const { siteId, memberId } = player;
  const reference = `round:${roundId}`;
  const staked = groupStake(ledger, {
    siteId,
    memberId,
    amountMinor: bet.stakeMinor,
    idempotencyKey: stakeKey,
    reference,
    metadata,
    category,
  });
  if (!staked) return null;
  const win =
    payoutMinor > 0n
      ? cashWin({
          siteId,
          memberId,
          amountMinor: payoutMinor,
          idempotencyKey: `round:${roundId}:win`,
          stakeKey,
          reference,
          metadata,
        })
      : null;
  return { ...staked, win };
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
      turnover: betTurnover(jurisdiction, category, bet.stakeMinor, 0n),
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
    side: roundsSide(kept, counts),
  });
  // Each bet's transfer ids, once: the rounds carry them and the answers show them.
  const transferIds = kept.map((p) => ({
    bet: resultOf(p.stakePlan!, false).transferId,
    win: p.winPlan ? resultOf(p.winPlan, false).transferId : null,
  }));
  const { stored, nonces } = storedRoundsOf(rows, kept, transferIds);
  // A nonce taken meanwhile cannot be: the read locked the pairs (when COMMIT rode with the write,
  // this runs after it; a failure sends the group's bets the one-by-one way, their keys answer).
  assertInvariant(nonces === kept.length && stored.size === kept.length, 'every round took its nonce');
  // The levels decided before the write: the write checked its totals are the ones they came from.
  await raiseGroupLevels(tx, stakes, crossed);
  return stored;
}

/**
 * The bets' own rows in the group's write (the game's side part): every round inserted settled,
 * carrying its transfers' ids; each nonce taken (only from the value the round took); each game
 * marked recently played; each stake in its member's turnover and VIP totals.
 */
function roundsSide(kept: readonly TPlaced[], counts: { ctes: SQL; rows: SQL }): TSidePart {
  const rounds = kept.map((p) => ({
    id: p.roundId.toString(),
    site_id: p.item.player.siteId.toString(),
    member_id: p.item.player.memberId.toString(),
    game_id: p.item.row.id.toString(),
    game_code: p.item.game,
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
    bet_key: p.stake.posting.idempotencyKey,
    win_key: p.win?.posting.idempotencyKey ?? null,
  }));
  return {
    ctes: sql`rounds AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rounds)}::jsonb) AS r(id bigint, site_id bigint,
        member_id bigint, game_id bigint, game_code text, key text, hash text, stake bigint, payout bigint,
        num numeric, den numeric, multiplier text, params jsonb, outcome jsonb, pair_id bigint, nonce bigint,
        bet_key text, win_key text)),
    inserted AS (
      INSERT INTO game_rounds (id, site_id, member_id, game_id, game_code, status, idempotency_key,
        request_hash, stake_minor, payout_minor, multiplier_num, multiplier_den, multiplier, params, steps,
        outcome, seed_pair_id, nonce, bet_transfer_id, win_transfer_id, settled_at)
      OVERRIDING SYSTEM VALUE
      SELECT r.id, r.site_id, r.member_id, r.game_id, r.game_code, 'settled', r.key, r.hash, r.stake,
        r.payout, r.num, r.den, r.multiplier, r.params, '[]'::jsonb, r.outcome, r.pair_id, r.nonce,
        ${postedTransferId(sql`r.site_id`, sql`r.bet_key`)},
        ${postedTransferId(sql`r.site_id`, sql`r.win_key`)}, now()
      FROM rounds r
      RETURNING id::text, params, outcome, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms),
    nonces AS (
      UPDATE fairness_seed_pairs p SET next_nonce = p.next_nonce + 1
      FROM rounds
      WHERE p.id = ANY(${`{${kept.map((p) => p.read.pair_id).join(',')}}`}::bigint[])
        AND p.id = rounds.pair_id AND p.next_nonce = rounds.nonce
      RETURNING p.id),
    recent AS (
      INSERT INTO member_recent_games (member_id, game_id)
      SELECT member_id, game_id FROM rounds
      ON CONFLICT (member_id, game_id) DO UPDATE SET played_at = now()),
    ${counts.ctes}`,
    rows: sql`SELECT 'round' AS what, to_jsonb(inserted) AS row FROM inserted
    UNION ALL SELECT 'pair', jsonb_build_object('id', id::text) FROM nonces
    ${counts.rows}`,
  };
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
        status: 'settled',
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
        settledAt: at,
      });
    }
  }
  return { stored, nonces };
}
