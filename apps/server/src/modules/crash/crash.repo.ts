import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * SQL of the crash tables (migrations 0006, 0009 and 0014). Bigints travel as text and timestamps as epoch
 * milliseconds so PGlite and node-postgres return the same shapes. Only functions named
 * `…Secret…` read a round's hash or crash point; nothing sent to a client before the crash uses them.
 */

async function rowsOf<T>(executor: Executor, query: SQL): Promise<T[]> {
  const result = (await executor.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const id = (value: bigint) => sql`${value.toString()}::bigint`;
const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** One published input of a chain's salt: a bet and the client seed it brought. */
export type TSaltInput = { betId: string; clientSeed: string };

export type TChainRow = {
  id: bigint;
  terminalSeed: string;
  terminatingHash: string;
  /** Null until the ceremony fixes it (the first round's betting closes with a bet). */
  publicSalt: string | null;
  /** 'bets': the ceremony of ADR 008; 'server': drawn by the server with the chain (before migration 0014). */
  saltSource: 'bets' | 'server';
  saltInputs: TSaltInput[] | null;
  saltFixedAt: number | null;
  createdAt: number;
  length: number;
  position: number;
};

type TChainRaw = {
  id: string;
  terminal_seed: string;
  terminating_hash: string;
  public_salt: string | null;
  salt_source: 'bets' | 'server';
  salt_inputs: { bet_id: string; client_seed: string }[] | string | null;
  salt_fixed_ms: number | null;
  created_ms: number;
  length: number;
  position: number;
};

const chainColumns = sql`id::text, terminal_seed, terminating_hash, public_salt, salt_source, salt_inputs,
  ${epochMs(sql`salt_fixed_at`)} AS salt_fixed_ms, ${epochMs(sql`created_at`)} AS created_ms, length, position`;

const chainOf = (r: TChainRaw): TChainRow => {
  // node-postgres parses jsonb; PGlite may hand it back as text.
  const inputs = typeof r.salt_inputs === 'string' ? JSON.parse(r.salt_inputs) : r.salt_inputs;
  return {
    id: BigInt(r.id),
    terminalSeed: r.terminal_seed,
    terminatingHash: r.terminating_hash,
    publicSalt: r.public_salt,
    saltSource: r.salt_source,
    saltInputs:
      inputs === null
        ? null
        : (inputs as { bet_id: string; client_seed: string }[]).map((input) => ({
            betId: String(input.bet_id),
            clientSeed: input.client_seed,
          })),
    saltFixedAt: r.salt_fixed_ms === null ? null : Math.round(Number(r.salt_fixed_ms)),
    createdAt: Math.round(Number(r.created_ms)),
    length: Number(r.length),
    position: Number(r.position),
  };
};

/**
 * The newest chain with rounds left, locked so two openers never take the same position. Only a
 * chain under the salt ceremony is continued: a server-salted one (before migration 0014) is not.
 */
export async function lockOpenChain(tx: Executor): Promise<TChainRow | null> {
  const [row] = await rowsOf<TChainRaw>(
    tx,
    sql`SELECT ${chainColumns} FROM crash_chains
        WHERE position < length AND salt_source = 'bets'
        ORDER BY crash_chains.id DESC LIMIT 1 FOR NO KEY UPDATE`,
  );
  return row ? chainOf(row) : null;
}

export async function findChain(executor: Executor, chainId: bigint): Promise<TChainRow | null> {
  const [row] = await rowsOf<TChainRaw>(
    executor,
    sql`SELECT ${chainColumns} FROM crash_chains WHERE id = ${id(chainId)}`,
  );
  return row ? chainOf(row) : null;
}

/** Publishes a new chain: its terminating hash now (created_at is the commitment's time), no salt yet. */
export async function insertChain(
  tx: Executor,
  chain: { terminalSeed: string; terminatingHash: string; length: number; createdAt: number },
): Promise<TChainRow> {
  const [row] = await rowsOf<TChainRaw>(
    tx,
    sql`INSERT INTO crash_chains (terminal_seed, terminating_hash, length, salt_source, created_at)
        VALUES (${chain.terminalSeed}, ${chain.terminatingHash}, ${chain.length}, 'bets', ${at(chain.createdAt)})
        RETURNING ${chainColumns}`,
  );
  return chainOf(row!);
}

/** Fixes a chain's salt once; null when it already had one. */
export async function fixChainSalt(
  tx: Executor,
  chainId: bigint,
  salt: { publicSalt: string; inputs: TSaltInput[]; fixedAt: number },
): Promise<TChainRow | null> {
  const inputs = JSON.stringify(salt.inputs.map((i) => ({ bet_id: i.betId, client_seed: i.clientSeed })));
  const [row] = await rowsOf<TChainRaw>(
    tx,
    sql`UPDATE crash_chains SET public_salt = ${salt.publicSalt}, salt_inputs = ${inputs}::jsonb,
          salt_fixed_at = ${at(salt.fixedAt)}
        WHERE id = ${id(chainId)} AND public_salt IS NULL RETURNING ${chainColumns}`,
  );
  return row ? chainOf(row) : null;
}

export async function advanceChain(tx: Executor, chainId: bigint, position: number): Promise<void> {
  await tx.execute(sql`UPDATE crash_chains SET position = ${position} WHERE id = ${id(chainId)}`);
}

/** The newest chains first, for the public list of commitments. */
export async function listChains(executor: Executor, limit: number): Promise<TChainRow[]> {
  const rows = await rowsOf<TChainRaw>(
    executor,
    sql`SELECT ${chainColumns} FROM crash_chains
        ORDER BY crash_chains.id DESC LIMIT ${Math.min(Math.max(limit, 1), 50)}`,
  );
  return rows.map(chainOf);
}

/** The first bets of a round that carry a client seed, in id order: the salt ceremony's inputs. */
export async function saltInputsOf(tx: Executor, roundId: bigint, limit: number): Promise<TSaltInput[]> {
  const rows = await rowsOf<{ id: string; client_seed: string }>(
    tx,
    sql`SELECT id::text, client_seed FROM crash_bets
        WHERE round_id = ${id(roundId)} AND client_seed IS NOT NULL
        ORDER BY crash_bets.id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ betId: r.id, clientSeed: r.client_seed }));
}

/** A round with its secrets: for the engine only. */
export type TRoundSecretRow = {
  id: bigint;
  chainId: bigint;
  position: number;
  roundHash: string;
  hashCommitment: string;
  /** Null only while betting on a chain whose salt is not fixed yet. */
  crashHundredths: number | null;
  state: 'betting' | 'running' | 'crashed';
  bettingEndsAt: number;
  startedAt: number | null;
  crashedAt: number | null;
};

export type TRoundRaw = {
  id: string;
  chain_id: string;
  position: number;
  round_hash: string;
  hash_commitment: string;
  crash_hundredths: number | null;
  state: TRoundSecretRow['state'];
  betting_ends_ms: number;
  started_ms: number | null;
  crashed_ms: number | null;
};

// These lists select `id::text`, whose output name is `id`: an ORDER BY must name the table's
// column (crash_rounds.id), or PostgreSQL sorts by the text and '9' comes after '12'.
export const roundColumns = sql`id::text, chain_id::text, position, round_hash, hash_commitment, crash_hundredths, state,
  ${epochMs(sql`betting_ends_at`)} AS betting_ends_ms, ${epochMs(sql`started_at`)} AS started_ms,
  ${epochMs(sql`crashed_at`)} AS crashed_ms`;

export const roundOf = (r: TRoundRaw): TRoundSecretRow => ({
  id: BigInt(r.id),
  chainId: BigInt(r.chain_id),
  position: Number(r.position),
  roundHash: r.round_hash,
  hashCommitment: r.hash_commitment,
  crashHundredths: r.crash_hundredths === null ? null : Number(r.crash_hundredths),
  state: r.state,
  bettingEndsAt: Math.round(Number(r.betting_ends_ms)),
  startedAt: r.started_ms === null ? null : Math.round(Number(r.started_ms)),
  crashedAt: r.crashed_ms === null ? null : Math.round(Number(r.crashed_ms)),
});

/** A round's crash point; it exists past betting (the database checks it too). */
export function crashOf(round: TRoundSecretRow): number {
  if (round.crashHundredths === null) throw new Error(`crash round ${round.id} has no crash point yet`);
  return round.crashHundredths;
}

export async function insertRoundSecret(
  tx: Executor,
  round: {
    chainId: bigint;
    position: number;
    roundHash: string;
    hashCommitment: string;
    crashHundredths: number | null;
    bettingEndsAt: number;
    createdAt: number;
  },
): Promise<TRoundSecretRow> {
  const [row] = await rowsOf<TRoundRaw>(
    tx,
    sql`INSERT INTO crash_rounds (chain_id, position, round_hash, hash_commitment, crash_hundredths,
          betting_ends_at, created_at)
        VALUES (${id(round.chainId)}, ${round.position}, ${round.roundHash}, ${round.hashCommitment},
          ${round.crashHundredths}, ${at(round.bettingEndsAt)}, ${at(round.createdAt)})
        RETURNING ${roundColumns}`,
  );
  return roundOf(row!);
}

export async function findLatestRoundSecret(executor: Executor): Promise<TRoundSecretRow | null> {
  const [row] = await rowsOf<TRoundRaw>(
    executor,
    sql`SELECT ${roundColumns} FROM crash_rounds ORDER BY crash_rounds.id DESC LIMIT 1`,
  );
  return row ? roundOf(row) : null;
}

/**
 * The round row locked FOR SHARE: bets and cash-outs hold it while they decide, so the engine's
 * phase change (an UPDATE of the row) waits for them and they never see a stale phase.
 */
export async function shareLockRoundSecret(tx: Executor, roundId: bigint): Promise<TRoundSecretRow | null> {
  const [row] = await rowsOf<TRoundRaw>(
    tx,
    sql`SELECT ${roundColumns} FROM crash_rounds WHERE id = ${id(roundId)} FOR SHARE`,
  );
  return row ? roundOf(row) : null;
}

/** The round row locked FOR NO KEY UPDATE: waits for the bets in flight (they hold it FOR SHARE). */
export async function lockRoundSecret(tx: Executor, roundId: bigint): Promise<TRoundSecretRow | null> {
  const [row] = await rowsOf<TRoundRaw>(
    tx,
    sql`SELECT ${roundColumns} FROM crash_rounds WHERE id = ${id(roundId)} FOR NO KEY UPDATE`,
  );
  return row ? roundOf(row) : null;
}

/** Sets the crash point of a round still betting whose chain just got its salt. */
export async function setRoundCrash(tx: Executor, roundId: bigint, crashHundredths: number): Promise<void> {
  await tx.execute(
    sql`UPDATE crash_rounds SET crash_hundredths = ${crashHundredths}
        WHERE id = ${id(roundId)} AND state = 'betting' AND crash_hundredths IS NULL`,
  );
}

/** Gives a round still betting a new betting end (the first round of a chain waits for a bet). */
export async function extendBetting(tx: Executor, roundId: bigint, endsAt: number): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`UPDATE crash_rounds SET betting_ends_at = ${at(endsAt)}
        WHERE id = ${id(roundId)} AND state = 'betting' RETURNING id::text`,
  );
  return rows.length === 1;
}

/** Moves a round from `from` to `to`; false when it was not in `from` (someone else moved it). */
export async function moveRound(
  tx: Executor,
  roundId: bigint,
  from: 'betting' | 'running',
  to: 'running' | 'crashed',
  atMs: number,
): Promise<boolean> {
  const column = to === 'running' ? sql`started_at` : sql`crashed_at`;
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`UPDATE crash_rounds SET state = ${to}, ${column} = ${at(atMs)}
        WHERE id = ${id(roundId)} AND state = ${from} RETURNING id::text`,
  );
  return rows.length === 1;
}

/** Who a bet belongs to: a member (real money) or a guest's demo session (fun money). */
export type TCrashOwner = { memberId: bigint } | { demoSessionId: bigint };

function ownedBy(owner: TCrashOwner): SQL {
  return 'memberId' in owner
    ? sql`member_id = ${id(owner.memberId)}`
    : sql`demo_session_id = ${id(owner.demoSessionId)}`;
}

export type TCrashBetRow = {
  id: bigint;
  roundId: bigint;
  siteId: bigint;
  /** Exactly one of memberId and demoSessionId is set. */
  memberId: bigint | null;
  demoSessionId: bigint | null;
  stakeMinor: bigint;
  autoCashoutHundredths: number | null;
  cashoutHundredths: number | null;
  payoutMinor: bigint;
  status: 'placed' | 'cashed' | 'lost';
  idempotencyKey: string;
  requestHash: string;
  /** The client seed the bet brought to the chain's salt ceremony (null on bets before migration 0014). */
  clientSeed: string | null;
};

export type TBetRaw = {
  id: string;
  round_id: string;
  site_id: string;
  member_id: string | null;
  demo_session_id: string | null;
  stake_minor: string;
  auto_cashout_hundredths: number | null;
  cashout_hundredths: number | null;
  payout_minor: string;
  status: TCrashBetRow['status'];
  idempotency_key: string;
  request_hash: string;
  client_seed: string | null;
};

/** A bet's columns as `betOf` reads them, of the table or alias `t`. */
export const betColumnsOf = (t: SQL) => sql`${t}.id::text AS id, ${t}.round_id::text AS round_id,
  ${t}.site_id::text AS site_id, ${t}.member_id::text AS member_id, ${t}.demo_session_id::text AS demo_session_id,
  ${t}.stake_minor::text AS stake_minor, ${t}.auto_cashout_hundredths, ${t}.cashout_hundredths,
  ${t}.payout_minor::text AS payout_minor, ${t}.status, ${t}.idempotency_key, ${t}.request_hash, ${t}.client_seed`;

export const betColumns = betColumnsOf(sql`crash_bets`);

export const betOf = (r: TBetRaw): TCrashBetRow => ({
  id: BigInt(r.id),
  roundId: BigInt(r.round_id),
  siteId: BigInt(r.site_id),
  memberId: r.member_id === null ? null : BigInt(r.member_id),
  demoSessionId: r.demo_session_id === null ? null : BigInt(r.demo_session_id),
  stakeMinor: BigInt(r.stake_minor),
  autoCashoutHundredths: r.auto_cashout_hundredths === null ? null : Number(r.auto_cashout_hundredths),
  cashoutHundredths: r.cashout_hundredths === null ? null : Number(r.cashout_hundredths),
  payoutMinor: BigInt(r.payout_minor),
  status: r.status,
  idempotencyKey: r.idempotency_key,
  requestHash: r.request_hash,
  clientSeed: r.client_seed,
});

export async function findBetByKey(
  tx: Executor,
  owner: TCrashOwner,
  key: string,
): Promise<TCrashBetRow | null> {
  const [row] = await rowsOf<TBetRaw>(
    tx,
    sql`SELECT ${betColumns} FROM crash_bets WHERE ${ownedBy(owner)} AND idempotency_key = ${key}`,
  );
  return row ? betOf(row) : null;
}

export async function findOwnBet(
  executor: Executor,
  roundId: bigint,
  owner: TCrashOwner,
): Promise<TCrashBetRow | null> {
  const [row] = await rowsOf<TBetRaw>(
    executor,
    sql`SELECT ${betColumns} FROM crash_bets WHERE round_id = ${id(roundId)} AND ${ownedBy(owner)}`,
  );
  return row ? betOf(row) : null;
}

/** Inserts a bet; null when its owner already has one in the round (a unique constraint). */
export async function insertBet(
  tx: Executor,
  bet: {
    roundId: bigint;
    siteId: bigint;
    owner: TCrashOwner;
    stakeMinor: bigint;
    autoCashoutHundredths: number | null;
    idempotencyKey: string;
    requestHash: string;
    clientSeed: string;
    createdAt: number;
  },
): Promise<TCrashBetRow | null> {
  const [row] = await rowsOf<TBetRaw>(
    tx,
    sql`INSERT INTO crash_bets (round_id, site_id, member_id, demo_session_id, stake_minor,
          auto_cashout_hundredths, idempotency_key, request_hash, client_seed, created_at)
        VALUES (${id(bet.roundId)}, ${id(bet.siteId)},
          ${'memberId' in bet.owner ? id(bet.owner.memberId) : sql`NULL`},
          ${'demoSessionId' in bet.owner ? id(bet.owner.demoSessionId) : sql`NULL`}, ${id(bet.stakeMinor)},
          ${bet.autoCashoutHundredths}, ${bet.idempotencyKey}, ${bet.requestHash}, ${bet.clientSeed},
          ${at(bet.createdAt)})
        ON CONFLICT DO NOTHING
        RETURNING ${betColumns}`,
  );
  return row ? betOf(row) : null;
}

export async function setBetTransfer(tx: Executor, betId: bigint, column: 'bet' | 'win', transferId: bigint) {
  const target = column === 'bet' ? sql`bet_transfer_id` : sql`win_transfer_id`;
  await tx.execute(sql`UPDATE crash_bets SET ${target} = ${id(transferId)} WHERE id = ${id(betId)}`);
}

/**
 * Settles a bet as cashed out exactly once: only a bet still as read (`from`: 'placed', or 'lost'
 * for a cash-out taken before the crash that marked it lost) changes. Returns the bet after the
 * change, or null when another settlement got there first.
 */
export async function markCashed(
  tx: Executor,
  betId: bigint,
  cashoutHundredths: number,
  payoutMinor: bigint,
  atMs: number,
  from: 'placed' | 'lost' = 'placed',
): Promise<TCrashBetRow | null> {
  const [row] = await rowsOf<TBetRaw>(
    tx,
    sql`UPDATE crash_bets SET status = 'cashed', cashout_hundredths = ${cashoutHundredths},
          payout_minor = ${id(payoutMinor)}, settled_at = ${at(atMs)}
        WHERE id = ${id(betId)} AND status = ${from} RETURNING ${betColumns}`,
  );
  return row ? betOf(row) : null;
}

/** Every bet of the round still open becomes lost (at the crash). */
export async function markRemainingLost(tx: Executor, roundId: bigint, atMs: number): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`UPDATE crash_bets SET status = 'lost', settled_at = ${at(atMs)}
        WHERE round_id = ${id(roundId)} AND status = 'placed' RETURNING id::text`,
  );
  return rows.length;
}

/** Open bets with an auto cash-out at or below `hundredths`, lowest target first. */
export async function openAutoBets(
  tx: Executor,
  roundId: bigint,
  hundredths: number,
): Promise<TCrashBetRow[]> {
  const rows = await rowsOf<TBetRaw>(
    tx,
    sql`SELECT ${betColumns} FROM crash_bets
        WHERE round_id = ${id(roundId)} AND status = 'placed' AND auto_cashout_hundredths <= ${hundredths}
        ORDER BY auto_cashout_hundredths, crash_bets.id LIMIT 10000`,
  );
  return rows.map(betOf);
}

/** The smallest auto cash-out target still open in the round (null: none). */
export async function lowestOpenAuto(executor: Executor, roundId: bigint): Promise<number | null> {
  const [row] = await rowsOf<{ lowest: number | null }>(
    executor,
    sql`SELECT min(auto_cashout_hundredths) AS lowest FROM crash_bets
        WHERE round_id = ${id(roundId)} AND status = 'placed'`,
  );
  return row?.lowest === null || row?.lowest === undefined ? null : Number(row.lowest);
}

/** The round's real-money bets (fun-money demo bets are not shown as the table's stakes). */
export async function betSummary(
  executor: Executor,
  roundId: bigint,
): Promise<{ count: number; totalMinor: bigint }> {
  const [row] = await rowsOf<{ count: number; total: string }>(
    executor,
    sql`SELECT count(*)::int AS count, coalesce(sum(stake_minor), 0)::text AS total
        FROM crash_bets WHERE round_id = ${id(roundId)} AND member_id IS NOT NULL`,
  );
  return { count: Number(row?.count ?? 0), totalMinor: BigInt(row?.total ?? '0') };
}

export type THistoryRow = {
  roundId: bigint;
  position: number;
  crashHundredths: number;
  roundHash: string;
  hashCommitment: string;
  terminatingHash: string;
  publicSalt: string;
  chainLength: number;
  crashedAt: number;
};

/** The last crashed rounds (only crashed ones: their secrets are public now). */
export async function crashedHistory(executor: Executor, limit: number): Promise<THistoryRow[]> {
  const rows = await rowsOf<{
    id: string;
    position: number;
    crash_hundredths: number;
    round_hash: string;
    hash_commitment: string;
    terminating_hash: string;
    public_salt: string | null;
    length: number;
    crashed_ms: number;
  }>(
    executor,
    sql`SELECT r.id::text, r.position, r.crash_hundredths, r.round_hash, r.hash_commitment,
          c.terminating_hash, c.public_salt, c.length, ${epochMs(sql`r.crashed_at`)} AS crashed_ms
        FROM crash_rounds r JOIN crash_chains c ON c.id = r.chain_id
        WHERE r.state = 'crashed' ORDER BY r.id DESC LIMIT ${Math.min(Math.max(limit, 1), 100)}`,
  );
  return rows.map((r) => ({
    roundId: BigInt(r.id),
    position: Number(r.position),
    crashHundredths: Number(r.crash_hundredths),
    roundHash: r.round_hash,
    hashCommitment: r.hash_commitment,
    terminatingHash: r.terminating_hash,
    // A crashed round's chain always has its salt (it was fixed before the round ran).
    publicSalt: r.public_salt ?? '',
    chainLength: Number(r.length),
    crashedAt: Math.round(Number(r.crashed_ms)),
  }));
}
