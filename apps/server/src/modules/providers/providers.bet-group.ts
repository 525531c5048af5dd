import {
  CURRENCY,
  type TWalletBetRequest,
  type TWalletResponse,
  type TWalletRollbackRequest,
  type TWalletWinRequest,
} from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import { type Db, perDatabase, type Tx, transactionOnGenericPlans } from '../../db/client.ts';
import { type GroupDecision, type GroupQueue, membersQueue, postOrOneByOne } from '../../db/group-queue.ts';
import { gameCategory, siteJurisdiction } from '../promotions/promotions.repo.ts';
import { groupStakeParts, raiseGroupLevels } from '../promotions/vip.ts';
import type { GroupLedger } from '../wallet/posting/plan.ts';
import { readLedger, type TPostingRow, writePosting } from '../wallet/posting/statement.ts';
import { assertInvariant } from '../wallet/wallet.errors.ts';
import {
  callsReadPart,
  callsWritePart,
  readGates,
  type TCallRead,
  type TRoundRead,
  type TTxRead,
} from './provider-group.repo.ts';
import {
  checkCall,
  refOf,
  type TCall,
  type TCallItem,
  type TGroupRead,
  type TQueued,
  type TReady,
} from './providers.group-calls.ts';
import { decideCalls, type TSlot, type TWrite } from './providers.group-decide.ts';
import {
  amountOf,
  betHash,
  walletBet as betOneByOne,
  rollbackHash,
  walletRollback as rollbackOneByOne,
  sessionFor,
  type TWalletContext,
  winHash,
  walletWin as winOneByOne,
} from './providers.wallet.ts';

/**
 * The provider wallet's bet, win and rollback on the one money path (ADR 038): each answers
 * exactly what the one-by-one call (providers.wallet.ts) would, but the calls of different players
 * that arrive together are posted in ONE transaction through the wallet's posting interface:
 *   BEGIN · read (the calls' transactions and rounds locked, then the members' accounts and grants:
 *   `readLedger`) · the play gate of the bettors, read once their accounts are held · write (every
 *   transfer and balance, the rounds, the transactions carrying their transfers' ids, the bets undone,
 *   turnover and VIP: `writePosting`) with COMMIT riding on it.
 * Each call's answer, its balance included, comes from those statements. What the group does not
 * decide itself (a stake with a bonus part or past a max bet, a win or refund of one, a limit
 * loosening due, a call that depends on an earlier call of the group) is placed one by one after the
 * group commits, in arrival order; a group whose statements fail is placed call by call.
 */

class ProviderCommitter {
  readonly queue: GroupQueue<TQueued>;

  constructor(private readonly db: Db) {
    // A member's calls may share a group (a retry with its original): the group orders them itself.
    this.queue = membersQueue<TQueued>(
      db,
      'provider-calls',
      (item) => item.session,
      (group) => this.post(group),
      {
        oncePerGroup: false,
        scopes: scopesOf,
      },
    );
  }

  /** Posts a group: what the queue does with the calls that arrived together. */
  post(all: TQueued[]): Promise<void> {
    return postOrOneByOne<TReady, TWalletResponse, TQueued>(
      this.queue,
      all,
      async (group) => {
        const { decision, moved } = await transactionOnGenericPlans(this.db, (tx) => postCalls(tx, group));
        for (const item of moved) item.context.onMoved?.(item.session);
        return decision;
      },
      oneByOne,
    );
  }
}

const committerOf = perDatabase((db) => new ProviderCommitter(db));

/** What a call must not share with a group in flight: its round and transaction ids. */
function scopesOf(item: TQueued): string[] {
  const { aggregator } = item.context;
  const { body } = item.call;
  const refs = [
    body.transaction_uuid,
    ...('reference_transaction_uuid' in body ? [body.reference_transaction_uuid] : []),
  ];
  return [`r:${refOf(aggregator, body.round)}`, ...refs.map((ref) => `t:${refOf(aggregator, ref)}`)];
}

function oneByOne(item: TQueued): Promise<TWalletResponse> {
  const { context, call } = item;
  if (call.kind === 'bet') return betOneByOne(context, call.body);
  if (call.kind === 'win') return winOneByOne(context, call.body);
  return rollbackOneByOne(context, call.body);
}

/** A wallet call as the route hands it over. */
export type TCallRequest =
  | { kind: 'bet'; body: TWalletBetRequest }
  | { kind: 'win'; body: TWalletWinRequest }
  | { kind: 'rollback'; body: TWalletRollbackRequest };

type TPrepared = Omit<TQueued, 'resolve' | 'reject'>;

/** The checks before a call's transaction (`walletBet` and the others): its answer, or the call to queue. */
async function prepareCall(
  context: TWalletContext,
  request: TCallRequest,
): Promise<TPrepared | TWalletResponse> {
  const check = await sessionFor(context, request.body);
  if ('refusal' in check) return check.refusal;
  const { session } = check;
  let call: TCall;
  let hash: string;
  if (request.kind === 'rollback') {
    call = request;
    hash = rollbackHash(session, request.body);
  } else {
    if (request.body.currency !== CURRENCY) return { status: 'RS_ERROR_WRONG_CURRENCY' };
    const amountMinor = amountOf(request.body.amount, request.kind === 'win');
    if (amountMinor === null) return { status: 'RS_ERROR_WRONG_TYPES' };
    call = { ...request, amountMinor };
    hash =
      request.kind === 'bet'
        ? betHash(session, request.body, amountMinor)
        : winHash(session, request.body, amountMinor);
  }
  const { db } = context;
  // Cached reads, awaited by the group: a failure sends the call the one-by-one way.
  const ready = (async (): Promise<TReady | null> => ({
    category: await gameCategory(db, session.siteId, call.body.game_code),
    jurisdiction: await siteJurisdiction(db, session.siteId),
  }))().catch(() => null);
  return { context, session, call, hash, ready };
}

function answered(prepared: TPrepared | TWalletResponse): prepared is TWalletResponse {
  return 'status' in prepared;
}

async function submit(context: TWalletContext, request: TCallRequest): Promise<TWalletResponse> {
  const prepared = await prepareCall(context, request);
  if (answered(prepared)) return prepared;
  return new Promise<TWalletResponse>((resolve, reject) => {
    committerOf(context.db).queue.push({ ...prepared, resolve, reject });
  });
}

export const walletBet = (context: TWalletContext, body: TWalletBetRequest) =>
  submit(context, { kind: 'bet', body });
export const walletWin = (context: TWalletContext, body: TWalletWinRequest) =>
  submit(context, { kind: 'win', body });
export const walletRollback = (context: TWalletContext, body: TWalletRollbackRequest) =>
  submit(context, { kind: 'rollback', body });

/**
 * Posts `requests` as ONE group, in this order, as the queue posts calls that arrive together, and
 * answers each: what a group decides, whatever the moment each call would have arrived (tests).
 */
export async function postAsOneGroup(
  context: TWalletContext,
  requests: readonly TCallRequest[],
): Promise<TWalletResponse[]> {
  const prepared = await Promise.all(requests.map((request) => prepareCall(context, request)));
  const queued: TQueued[] = [];
  const answers = prepared.map((p) => {
    if (answered(p)) return Promise.resolve(p);
    return new Promise<TWalletResponse>((resolve, reject) => queued.push({ ...p, resolve, reject }));
  });
  const all = Promise.all(answers);
  // Answered while the group posts: a refusal is the caller's, awaited below.
  all.catch(() => undefined);
  await committerOf(context.db).post(queued);
  return all;
}

/** Counters of this process's provider call groups on `db` (tests). */
export function providerGroupStats(db: Db) {
  return committerOf(db).queue.stats;
}

/** The whole group in its transaction: one outcome per call, and the calls that moved money. */
async function postCalls(
  tx: Tx,
  group: TCallItem[],
): Promise<{ decision: GroupDecision<TWalletResponse>; moved: TCallItem[] }> {
  const { read, ledger } = await readCalls(tx, group);
  const checks = group.map((item, ord) => checkCall(item, ord, read));
  const gates = await gatesOf(tx, group, checks);
  const decided = decideCalls(group, checks, gates, read, ledger);
  if ('alone' in decided) return { decision: decided, moved: [] };
  const writes = decided.slots.flatMap((slot) => ('write' in slot ? [slot.write] : []));
  const stored = writes.length > 0 ? await writeCalls(tx, ledger, writes) : new Map();
  const decision = decided.slots.map((slot: TSlot) => {
    if ('defer' in slot) return { defer: true as const };
    if ('answer' in slot) return { result: slot.answer };
    if ('write' in slot) return { result: slot.write.response };
    const response = stored.get(slot.retryOf);
    assertInvariant(response, `transaction ${slot.retryOf} written by the group`);
    return { result: response };
  });
  return { decision, moved: writes.map((w) => w.item) };
}

/**
 * ONE statement: the calls' transactions and rounds (locked), per call a round id and the VIP
 * totals, then the members' accounts (id order) and their active grants (`readLedger`).
 */
async function readCalls(tx: Tx, group: TCallItem[]): Promise<{ read: TGroupRead; ledger: GroupLedger }> {
  const targets = group.map((item, ord) => {
    const { body } = item.call;
    const refs = [body.transaction_uuid];
    if ('reference_transaction_uuid' in body) refs.push(body.reference_transaction_uuid);
    const { aggregator } = item.context;
    return {
      ord,
      aggregator,
      refs,
      roundRef: body.round,
      memberId: item.session.memberId,
      bet: item.call.kind === 'bet',
    };
  });
  const members = new Map(group.map(({ session }) => [`${session.siteId}:${session.memberId}`, session]));
  const { rows, ledger } = await readLedger(tx, {
    name: 'sorte_provider_group_read',
    members: [...members.values()],
    grants: true,
    side: callsReadPart(targets),
  });
  return { read: groupReadOf(rows), ledger };
}

function groupReadOf(rows: readonly TPostingRow[]): TGroupRead {
  const read: TGroupRead = { transactions: new Map(), rounds: new Map(), calls: new Map() };
  for (const { what, row } of rows) {
    if (what === 'p_tx') {
      const t = row as unknown as TTxRead;
      read.transactions.set(refOf(t.aggregator, t.transaction_ref), t);
    } else if (what === 'p_round') {
      const r = row as unknown as TRoundRead;
      read.rounds.set(refOf(r.aggregator, r.round_ref), r);
    } else if (what === 'p_call') {
      const c = row as unknown as TCallRead;
      read.calls.set(c.ord, c);
    }
  }
  return read;
}

/** ONE statement when the group has a bet to check: the bettors' play gates, by order. */
async function gatesOf(
  tx: Tx,
  group: TCallItem[],
  checks: readonly ReturnType<typeof checkCall>[],
): Promise<Map<number, Record<string, unknown>>> {
  const bettors = group.flatMap((item, ord) =>
    'bet' in checks[ord]! ? [{ ord, memberId: item.session.memberId, timeZone: siteTimeZone(item) }] : [],
  );
  if (bettors.length === 0) return new Map();
  const rows = await readGates(tx, bettors);
  return new Map(rows.map((row) => [Number(row.ord), row]));
}

/**
 * ONE statement (`writePosting`): the group's transfers and balances, its fed grants, its rounds,
 * transactions, undone bets, turnover and VIP totals, with COMMIT riding on it unless a VIP level is
 * crossed. Answers the stored response of every transaction it wrote, by `aggregator:ref`.
 */
async function writeCalls(
  tx: Tx,
  ledger: GroupLedger,
  writes: readonly TWrite[],
): Promise<Map<string, TWalletResponse>> {
  const plans = writes.flatMap((w) => (w.plan ? [w.plan] : []));
  const stakes = writes.flatMap((w) => (w.stake ? [w.stake] : []));
  const counts = groupStakeParts(stakes);
  const own = {
    roundsNew: writes.flatMap((w) => (w.roundNew ? [w.roundNew] : [])),
    roundsMoved: writes.flatMap((w) => (w.roundMoved ? [w.roundMoved] : [])),
    transactions: writes.flatMap((w) => w.transactions),
    undone: writes.flatMap((w) => (w.undone ? [w.undone] : [])),
  };
  const { rows, answer } = await writePosting(tx, {
    name: 'sorte_provider_group_write',
    ledger,
    plans,
    fed: writes.map((w) => ({ fed: w.fed })),
    commitWithIt: counts.crossed.every((levels) => levels === null),
    side: callsWritePart(own, counts),
  });
  for (const plan of plans) answer(plan, false);
  const count = (what: string) => rows.filter((row) => row.what === what).length;
  // The read locked every row written: each guard holds (when COMMIT rode with the write, a failure
  // here sends the group's calls the one-by-one way, where their transaction ids answer).
  assertInvariant(count('pw_tx') === own.transactions.length, 'every provider transaction inserted');
  assertInvariant(count('pw_round') === own.roundsNew.length + own.roundsMoved.length, 'every round written');
  assertInvariant(count('pw_undone') === own.undone.length, 'every bet undone');
  await raiseGroupLevels(tx, stakes, counts.crossed);
  const stored = new Map<string, TWalletResponse>();
  for (const { what, row } of rows) {
    if (what === 'pw_tx')
      stored.set(refOf(String(row.aggregator), String(row.ref)), row.response as TWalletResponse);
  }
  return stored;
}
