import { isGameCategory, type TCategoryWeights, type TGameCategory } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { assertInvariant, WalletError } from './wallet.errors.ts';
import {
  atomically,
  lockMemberAccounts,
  rowsOf,
  TRANSFER_COLUMNS,
  type TTransferRaw,
  transferResultOf,
} from './wallet.repo.ts';
import type { TWalletAccountRow } from './wallet.schema.ts';
import {
  type TJson,
  type TLockedAccounts,
  type TransferResult,
  transfer,
  transferLocked,
} from './wallet.service.ts';

/**
 * Bonus money, per grant (ADR 012). A member's `bonus` account holds the sum of the balances of
 * their active grants; each grant's part lives on its `bonus_grants` row and changes only here, in
 * the transaction of the ledger transfer that moves the money, every such transfer naming the grant
 * in `metadata.grantId` (so reconcile checks each grant against the ledger).
 *
 * - A grant is given once per (member, campaign, period): the unique key makes 200 concurrent
 *   claims one grant.
 * - A bet spends real money first, then bonus, earliest-expiring grant first; it feeds ONE grant's
 *   wagering (the earliest-expiring active one), weighted by the game category as the grant's
 *   snapshot says; the max bet of the grants still wagering is checked here, inside the bet's
 *   transaction, before anything moves.
 * - When a grant's wagering is met its balance converts to cash (up to its max win; the excess is
 *   forfeited); on expiry or forfeit the rest goes back to promotions_expense by a ledger transfer.
 * - Lock order: the member's cash and bonus accounts, then their grants (every path here).
 */

export type TGrantStatus = 'active' | 'completed' | 'expired' | 'forfeited';

export interface BonusGrant {
  id: bigint;
  siteId: bigint;
  memberId: bigint;
  campaignCode: string;
  periodKey: string;
  terms: Record<string, unknown>;
  amountMinor: bigint;
  balanceMinor: bigint;
  wageringRequiredMinor: bigint;
  wageringDoneMinor: bigint;
  maxBetMinor: bigint | null;
  locksCash: boolean;
  status: TGrantStatus;
  expiresAt: Date;
  createdAt: Date;
  closedAt: Date | null;
  convertedMinor: bigint;
  forfeitedMinor: bigint;
}

export interface GrantBonusInput {
  siteId: bigint;
  memberId: bigint;
  campaignCode: string;
  /** The occurrence: 'once', a site-local day, 'deposit:<order>', … (one grant per key). */
  periodKey: string;
  amountMinor: bigint;
  /** Turnover to bet before the grant converts to cash (0: converts at once). */
  wageringRequiredMinor: bigint;
  maxBetMinor: bigint | null;
  /** While wagering, the member's cash is locked too (no withdrawal). */
  locksCash: boolean;
  expiresAt: Date;
  /** The campaign's rules at grant time: category weights (`weights`), `maxWinMinor`, the formula. */
  terms: { [key: string]: TJson };
  reference?: string;
}

export interface StakeInput {
  siteId: bigint;
  memberId: bigint;
  amountMinor: bigint;
  /** The bet's key: the first part of the stake is posted under it, further parts under `<key>:b<grant>`. */
  idempotencyKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /** Game category of the bet on its site (wagering weight). */
  category: TGameCategory;
}

export interface StakeResult {
  /** The first transfer of the stake (cash if any cash was spent, else the first bonus part). */
  first: TransferResult;
  cashPartMinor: bigint;
  bonusPartMinor: bigint;
  /** The grant whose wagering this bet fed (null: no active grant). */
  fedGrantId: bigint | null;
  /** What the member can still stake: cash + bonus after the bet. */
  playableAfterMinor: bigint;
  replayed: boolean;
}

export type TGrantRaw = {
  id: unknown;
  site_id: unknown;
  member_id: unknown;
  campaign_code: string;
  period_key: string;
  terms: unknown;
  amount_minor: unknown;
  balance_minor: unknown;
  wagering_required_minor: unknown;
  wagering_done_minor: unknown;
  max_bet_minor: unknown;
  locks_cash: boolean;
  status: TGrantStatus;
  expires_at: unknown;
  created_at: unknown;
  closed_at: unknown;
  converted_minor: unknown;
  forfeited_minor: unknown;
};

const big = (v: unknown): bigint => BigInt(String(v));
const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const text = (v: bigint) => v.toString();

export function toGrant(r: TGrantRaw): BonusGrant {
  return {
    id: big(r.id),
    siteId: big(r.site_id),
    memberId: big(r.member_id),
    campaignCode: r.campaign_code,
    periodKey: r.period_key,
    terms: (typeof r.terms === 'string' ? JSON.parse(r.terms) : r.terms) as Record<string, unknown>,
    amountMinor: big(r.amount_minor),
    balanceMinor: big(r.balance_minor),
    wageringRequiredMinor: big(r.wagering_required_minor),
    wageringDoneMinor: big(r.wagering_done_minor),
    maxBetMinor: r.max_bet_minor === null ? null : big(r.max_bet_minor),
    locksCash: r.locks_cash,
    status: r.status,
    expiresAt: date(r.expires_at),
    createdAt: date(r.created_at),
    closedAt: r.closed_at === null ? null : date(r.closed_at),
    convertedMinor: big(r.converted_minor),
    forfeitedMinor: big(r.forfeited_minor),
  };
}

async function lockPlayerAccounts(tx: Tx, siteId: bigint, memberId: bigint) {
  const rows = await lockMemberAccounts(tx, siteId, memberId, ['cash', 'bonus']);
  const cash = rows.find((r) => r.kind === 'cash');
  const bonus = rows.find((r) => r.kind === 'bonus');
  if (!cash || !bonus || cash.balanceMinor === null || bonus.balanceMinor === null) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'The member has no wallet accounts on this site', {
      memberId: memberId.toString(),
    });
  }
  return { cashMinor: cash.balanceMinor, bonusMinor: bonus.balanceMinor };
}

export const GRANT_COLUMNS = sql`id::text, site_id::text, member_id::text, campaign_code, period_key, terms,
  amount_minor::text, balance_minor::text, wagering_required_minor::text, wagering_done_minor::text,
  max_bet_minor::text, locks_cash, status, expires_at, created_at, closed_at, converted_minor::text,
  forfeited_minor::text`;

/**
 * The reads of a stake or a win in ONE statement: locks the member's cash and bonus accounts (id
 * order) and, with `grants`, then their active grants (expiry, id order: the lock order of every
 * path here); reads the site's system accounts and the transfers holding `keys`. The accounts come
 * back as `TLockedAccounts` for `transferLocked`, which keeps their balances current.
 */
async function lockForMove(
  tx: Tx,
  siteId: bigint,
  memberId: bigint,
  keys: readonly string[],
  options: { grants: boolean },
): Promise<{
  accounts: TLockedAccounts;
  balances: { cashMinor: bigint; bonusMinor: bigint };
  transfers: Map<string, TransferResult>;
  grants: BonusGrant[];
}> {
  const site = sql`${text(siteId)}::bigint`;
  const member = sql`${text(memberId)}::bigint`;
  const grants = options.grants
    ? sql`UNION ALL SELECT 'grant', to_jsonb(grants) FROM (
            SELECT ${GRANT_COLUMNS} FROM bonus_grants WHERE member_id = ${member} AND status = 'active'
            ORDER BY expires_at, id FOR NO KEY UPDATE) grants`
    : sql``;
  const rows = await rowsOf<{
    what: 'account' | 'system' | 'transfer' | 'grant';
    row: Record<string, unknown>;
  }>(
    tx,
    sql`SELECT 'account' AS what, to_jsonb(locked) AS row FROM (
          SELECT id::text, site_id::text, member_id::text, kind, balance_minor::text,
                 wagering_required_minor::text, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms
          FROM wallet_accounts WHERE site_id = ${site} AND member_id = ${member} AND kind IN ('cash', 'bonus')
          ORDER BY id FOR NO KEY UPDATE) locked
        UNION ALL SELECT 'system', to_jsonb(system) FROM (
          SELECT id::text, site_id::text, NULL::text AS member_id, kind, NULL::text AS balance_minor,
                 NULL::text AS wagering_required_minor, floor(extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms
          FROM wallet_accounts WHERE site_id = ${site} AND member_id IS NULL) system
        UNION ALL SELECT 'transfer', to_jsonb(keyed) FROM (
          SELECT ${TRANSFER_COLUMNS} FROM wallet_transfers
          WHERE site_id = ${site}
            AND idempotency_key = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)))) keyed
        ${grants}`,
  );
  const accountOf = (r: Record<string, unknown>): TWalletAccountRow => ({
    id: BigInt(String(r.id)),
    siteId: BigInt(String(r.site_id)),
    memberId: r.member_id === null ? null : BigInt(String(r.member_id)),
    kind: r.kind as TWalletAccountRow['kind'],
    balanceMinor: r.balance_minor === null ? null : BigInt(String(r.balance_minor)),
    wageringRequiredMinor:
      r.wagering_required_minor === null ? null : BigInt(String(r.wagering_required_minor)),
    createdAt: new Date(Number(r.created_ms)),
  });
  const accounts: TLockedAccounts = { siteId, memberId, member: [], system: [] };
  const transfers = new Map<string, TransferResult>();
  const locked: BonusGrant[] = [];
  for (const { what, row } of rows) {
    if (what === 'account') accounts.member.push(accountOf(row));
    else if (what === 'system') accounts.system.push(accountOf(row));
    else if (what === 'transfer') {
      const found = transferResultOf(row as unknown as TTransferRaw, true);
      transfers.set(found.idempotencyKey, found);
    } else locked.push(toGrant(row as unknown as TGrantRaw));
  }
  return { accounts, balances: playableOf(accounts), transfers, grants: locked };
}

/** Cash and bonus of locked accounts (ACCOUNT_NOT_FOUND when the member has none on the site). */
function playableOf(accounts: TLockedAccounts): { cashMinor: bigint; bonusMinor: bigint } {
  const cash = accounts.member.find((a) => a.kind === 'cash');
  const bonus = accounts.member.find((a) => a.kind === 'bonus');
  if (!cash || !bonus || cash.balanceMinor === null || bonus.balanceMinor === null) {
    throw new WalletError('ACCOUNT_NOT_FOUND', 'The member has no wallet accounts on this site', {
      memberId: accounts.memberId.toString(),
    });
  }
  return { cashMinor: cash.balanceMinor, bonusMinor: bonus.balanceMinor };
}

async function lockActiveGrants(tx: Tx, memberId: bigint): Promise<BonusGrant[]> {
  const rows = await rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE member_id = ${text(memberId)}::bigint AND status = 'active'
        ORDER BY expires_at, id FOR NO KEY UPDATE`,
  );
  return rows.map(toGrant);
}

async function lockGrant(tx: Tx, grantId: bigint): Promise<BonusGrant | null> {
  const rows = await rowsOf<TGrantRaw>(
    tx,
    sql`SELECT * FROM bonus_grants WHERE id = ${text(grantId)}::bigint FOR NO KEY UPDATE`,
  );
  return rows[0] ? toGrant(rows[0]) : null;
}

async function updateGrant(
  tx: Tx,
  grantId: bigint,
  set: {
    balanceDeltaMinor?: bigint;
    wageringDoneDeltaMinor?: bigint;
    status?: TGrantStatus;
    closeTransferId?: bigint | null;
    convertedMinor?: bigint;
    forfeitedMinor?: bigint;
    grantTransferId?: bigint;
  },
): Promise<void> {
  const closing = set.status !== undefined && set.status !== 'active';
  await tx.execute(sql`
    UPDATE bonus_grants SET
      balance_minor = balance_minor + ${text(set.balanceDeltaMinor ?? 0n)}::bigint,
      wagering_done_minor = wagering_done_minor + ${text(set.wageringDoneDeltaMinor ?? 0n)}::bigint,
      status = COALESCE(${set.status ?? null}::text, status),
      closed_at = CASE WHEN ${closing} THEN now() ELSE closed_at END,
      close_transfer_id = COALESCE(${set.closeTransferId == null ? null : text(set.closeTransferId)}::bigint, close_transfer_id),
      grant_transfer_id = COALESCE(${set.grantTransferId == null ? null : text(set.grantTransferId)}::bigint, grant_transfer_id),
      converted_minor = converted_minor + ${text(set.convertedMinor ?? 0n)}::bigint,
      forfeited_minor = forfeited_minor + ${text(set.forfeitedMinor ?? 0n)}::bigint
    WHERE id = ${text(grantId)}::bigint`);
}

/** The category a stake's metadata recorded at bet time, or null when it names none we know. */
function stakeCategory(value: unknown): TGameCategory | null {
  return isGameCategory(value) ? value : null;
}

function maxWinOf(grant: BonusGrant): bigint | null {
  const value = grant.terms.maxWinMinor;
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : null;
}

/**
 * Weight in percent (0..100) of a game category for this grant's wagering (null: a stake whose
 * category was not recorded, weighed as the default).
 */
export function categoryWeight(terms: Record<string, unknown>, category: TGameCategory | null): bigint {
  const weights = (terms.weights ?? {}) as TCategoryWeights;
  const value = (category === null ? undefined : weights[category]) ?? weights.default ?? 100;
  const pct = typeof value === 'number' && Number.isInteger(value) ? value : 100;
  return BigInt(Math.max(0, Math.min(100, pct)));
}

/**
 * Gives a grant: the row (unique per member, campaign and period) and its bonus_grant transfer
 * promotions_expense → bonus, in one transaction. A second call for the same period returns the
 * first grant with `created: false` and moves nothing.
 */
export async function grantBonus(
  executor: Executor,
  input: GrantBonusInput,
): Promise<{ grant: BonusGrant; created: boolean }> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'A grant must give a positive amount');
  }
  if (input.wageringRequiredMinor < 0n) throw new WalletError('INVALID_AMOUNT', 'Negative wagering');
  return atomically(executor, async (tx) => {
    await lockPlayerAccounts(tx, input.siteId, input.memberId);
    const inserted = await rowsOf<TGrantRaw>(
      tx,
      sql`INSERT INTO bonus_grants (site_id, member_id, campaign_code, period_key, terms, amount_minor,
            balance_minor, wagering_required_minor, max_bet_minor, locks_cash, expires_at)
          VALUES (${text(input.siteId)}::bigint, ${text(input.memberId)}::bigint, ${input.campaignCode},
            ${input.periodKey}, ${JSON.stringify(input.terms)}::jsonb, ${text(input.amountMinor)}::bigint,
            0, ${text(input.wageringRequiredMinor)}::bigint,
            ${input.maxBetMinor === null ? null : text(input.maxBetMinor)}::bigint, ${input.locksCash},
            ${input.expiresAt.toISOString()}::timestamptz)
          ON CONFLICT ON CONSTRAINT bonus_grants_once DO NOTHING
          RETURNING *`,
    );
    if (!inserted[0]) {
      const existing = await rowsOf<TGrantRaw>(
        tx,
        sql`SELECT * FROM bonus_grants WHERE site_id = ${text(input.siteId)}::bigint
              AND member_id = ${text(input.memberId)}::bigint AND campaign_code = ${input.campaignCode}
              AND period_key = ${input.periodKey}`,
      );
      assertInvariant(existing[0], 'a conflicting grant exists');
      return { grant: toGrant(existing[0]), created: false };
    }
    const grant = toGrant(inserted[0]);
    const moved = await transfer(tx, {
      siteId: input.siteId,
      kind: 'bonus_grant',
      from: { system: 'promotions_expense' },
      to: { memberId: input.memberId, account: 'bonus' },
      amountMinor: input.amountMinor,
      idempotencyKey: `grant:${grant.id}`,
      reference: input.reference ?? `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString(), campaign: input.campaignCode, period: input.periodKey },
    });
    await updateGrant(tx, grant.id, {
      balanceDeltaMinor: input.amountMinor,
      grantTransferId: moved.transferId,
    });
    let result: BonusGrant = { ...grant, balanceMinor: input.amountMinor };
    if (input.wageringRequiredMinor === 0n) result = await convertGrant(tx, result);
    return { grant: result, created: true };
  });
}

/** Wagering met: the grant's balance goes bonus → cash (up to its max win; the rest is forfeited). */
async function convertGrant(tx: Tx, grant: BonusGrant): Promise<BonusGrant> {
  const maxWin = maxWinOf(grant);
  const convert = maxWin !== null && grant.balanceMinor > maxWin ? maxWin : grant.balanceMinor;
  const excess = grant.balanceMinor - convert;
  let closeTransferId: bigint | null = null;
  if (convert > 0n) {
    const moved = await transfer(tx, {
      siteId: grant.siteId,
      kind: 'bonus_convert',
      from: { memberId: grant.memberId, account: 'bonus' },
      to: { memberId: grant.memberId, account: 'cash' },
      amountMinor: convert,
      idempotencyKey: `grant:${grant.id}:convert`,
      reference: `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString() },
    });
    closeTransferId = moved.transferId;
  }
  if (excess > 0n) {
    const moved = await transfer(tx, {
      siteId: grant.siteId,
      kind: 'bonus_forfeit',
      from: { memberId: grant.memberId, account: 'bonus' },
      to: { system: 'promotions_expense' },
      amountMinor: excess,
      idempotencyKey: `grant:${grant.id}:maxwin`,
      reference: `grant:${grant.id}`,
      metadata: { grantId: grant.id.toString(), reason: 'max_win' },
    });
    closeTransferId ??= moved.transferId;
  }
  await updateGrant(tx, grant.id, {
    balanceDeltaMinor: -grant.balanceMinor,
    status: 'completed',
    closeTransferId,
    convertedMinor: convert,
    forfeitedMinor: excess,
  });
  return {
    ...grant,
    balanceMinor: 0n,
    status: 'completed',
    closedAt: new Date(),
    convertedMinor: convert,
    forfeitedMinor: excess,
  };
}

/**
 * A bet's stake, in the bet's transaction: real money first, then bonus; the max bet of every grant
 * still wagering is checked before anything moves (WalletError BONUS_MAX_BET); the stake feeds the
 * earliest-expiring active grant, which converts to cash once its wagering is met. A repeated key
 * answers the first stake (replayed) or IDEMPOTENCY_CONFLICT for another amount.
 */
export async function stakeWithBonus(executor: Executor, input: StakeInput): Promise<StakeResult> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'The stake must be positive');
  }
  return atomically(executor, async (tx) => {
    const { accounts, balances, transfers, grants } = await lockForMove(
      tx,
      input.siteId,
      input.memberId,
      [input.idempotencyKey],
      { grants: true },
    );
    const previous = transfers.get(input.idempotencyKey);
    if (previous) {
      if (previous.kind !== 'bet' || String(previous.metadata.stakeMinor) !== input.amountMinor.toString()) {
        throw new WalletError('IDEMPOTENCY_CONFLICT', 'This key was used for another stake', {
          idempotencyKey: input.idempotencyKey,
        });
      }
      return {
        first: previous,
        cashPartMinor: previous.metadata.part === 'cash' ? previous.amountMinor : 0n,
        bonusPartMinor: input.amountMinor - (previous.metadata.part === 'cash' ? previous.amountMinor : 0n),
        fedGrantId:
          typeof previous.metadata.fedGrantId === 'string' ? BigInt(previous.metadata.fedGrantId) : null,
        playableAfterMinor: balances.cashMinor + balances.bonusMinor,
        replayed: true,
      };
    }
    const wagering = grants.filter((g) => g.wageringDoneMinor < g.wageringRequiredMinor);
    for (const grant of wagering) {
      if (grant.maxBetMinor !== null && input.amountMinor > grant.maxBetMinor) {
        throw new WalletError('BONUS_MAX_BET', 'The stake is above the max bet of a bonus still wagering', {
          maxBetMinor: grant.maxBetMinor.toString(),
          grantId: grant.id.toString(),
        });
      }
    }
    const cashPart = balances.cashMinor < input.amountMinor ? balances.cashMinor : input.amountMinor;
    let bonusLeft = input.amountMinor - cashPart;
    const grantsBalance = grants.reduce((sum, g) => sum + g.balanceMinor, 0n);
    if (bonusLeft > grantsBalance || bonusLeft > balances.bonusMinor) {
      throw new WalletError('INSUFFICIENT_FUNDS', 'Cash and bonus do not cover the stake', {
        memberId: input.memberId.toString(),
      });
    }
    const fed = grants[0] ?? null;
    // Which grant pays which part of the stake, decided before anything moves: every transfer of the
    // stake carries it, so its win is split the same way (payWin).
    const plan: [BonusGrant, bigint][] = [];
    for (const grant of grants) {
      if (bonusLeft === 0n) break;
      const part = grant.balanceMinor < bonusLeft ? grant.balanceMinor : bonusLeft;
      if (part === 0n) continue;
      plan.push([grant, part]);
      bonusLeft -= part;
    }
    const common = {
      ...input.metadata,
      stakeMinor: input.amountMinor.toString(),
      category: input.category,
      ...(fed ? { fedGrantId: fed.id.toString() } : {}),
      ...(plan.length > 0
        ? { bonusParts: Object.fromEntries(plan.map(([g, part]) => [g.id.toString(), part.toString()])) }
        : {}),
    };
    let first: TransferResult | null = null;
    if (cashPart > 0n) {
      first = await transferLocked(
        tx,
        {
          siteId: input.siteId,
          kind: 'bet',
          from: { memberId: input.memberId, account: 'cash' },
          to: { system: 'house' },
          amountMinor: cashPart,
          idempotencyKey: input.idempotencyKey,
          reference: input.reference,
          metadata: { ...common, part: 'cash' },
        },
        accounts,
      );
    }
    const spent = new Map<bigint, bigint>();
    for (const [grant, part] of plan) {
      const moved = await transferLocked(
        tx,
        {
          siteId: input.siteId,
          kind: 'bet',
          from: { memberId: input.memberId, account: 'bonus' },
          to: { system: 'house' },
          amountMinor: part,
          idempotencyKey: first ? `${input.idempotencyKey}:b${grant.id}` : input.idempotencyKey,
          reference: input.reference,
          metadata: { ...common, part: 'bonus', grantId: grant.id.toString() },
        },
        accounts,
      );
      first ??= moved;
      spent.set(grant.id, part);
    }
    assertInvariant(first, 'a positive stake posted a transfer');
    let converted = false;
    for (const [grantId, part] of spent) {
      if (grantId !== fed?.id) await updateGrant(tx, grantId, { balanceDeltaMinor: -part });
    }
    if (fed) {
      const counted = (input.amountMinor * categoryWeight(fed.terms, input.category)) / 100n;
      const spentFromFed = spent.get(fed.id) ?? 0n;
      await updateGrant(tx, fed.id, { balanceDeltaMinor: -spentFromFed, wageringDoneDeltaMinor: counted });
      const after = {
        ...fed,
        balanceMinor: fed.balanceMinor - spentFromFed,
        wageringDoneMinor: fed.wageringDoneMinor + counted,
      };
      if (after.wageringDoneMinor >= after.wageringRequiredMinor) {
        await convertGrant(tx, after);
        converted = true;
      }
    }
    // The rows are locked and the stake's transfers kept them current; a grant converting to cash
    // moved money by transfers of its own, so then they are read again.
    const now = converted ? await lockPlayerAccounts(tx, input.siteId, input.memberId) : playableOf(accounts);
    return {
      first,
      cashPartMinor: cashPart,
      bonusPartMinor: input.amountMinor - cashPart,
      fedGrantId: fed?.id ?? null,
      playableAfterMinor: now.cashMinor + now.bonusMinor,
      replayed: false,
    };
  });
}

export interface WinInput {
  siteId: bigint;
  memberId: bigint;
  /** The whole payout (positive). */
  amountMinor: bigint;
  /** The win's key: the first part is posted under it, further parts under `<key>:b<grant>`. */
  idempotencyKey: string;
  /** The idempotency key of the stake this win pays: its real/bonus split decides the win's. */
  stakeKey: string;
  reference?: string;
  metadata?: { [key: string]: TJson };
  /**
   * 'refund': the stake given back (a rolled-back bet): each part returns where it came from, and
   * the wagering the bet fed on its grant is taken off again. Default 'win'.
   */
  kind?: 'win' | 'refund';
  /** Turnover restored on the member's cash account requirement (a refund of a bet that lowered it). */
  wageringAddMinor?: bigint;
}

export interface WinResult {
  /** The first transfer of the win (cash if any went to cash, else the first bonus part). */
  first: TransferResult;
  cashPartMinor: bigint;
  /** The part paid to active grants (stays under their wagering). */
  bonusPartMinor: bigint;
  /** The part of grants closed (expired, forfeited) before the win: credited and taken back at once. */
  forfeitedMinor: bigint;
  /** What the member can stake now: cash + bonus after the win. */
  playableAfterMinor: bigint;
  replayed: boolean;
}

const minorOf = (v: unknown): bigint | null =>
  typeof v === 'string' && /^\d{1,19}$/.test(v) ? BigInt(v) : null;

/**
 * Pays a bet's win in the stake's real/bonus proportion (ADR 012), in the caller's transaction:
 * the share of the win staked from a grant's bonus goes back to that grant's balance and stays
 * under its wagering (so expiry or forfeit takes it back); the real-money share goes to cash. A
 * grant that completed meanwhile (wagering met, converted) gets its share as cash up to what its max
 * win still allows (the excess is credited and forfeited, like the excess of its conversion); one that expired
 * or was forfeited before the win gets it credited and taken back at once (bonus_forfeit), so money
 * won with bonus never becomes withdrawable without its wagering. Rounding favours bonus: the cash
 * share is rounded down. A repeated key answers the first win, or IDEMPOTENCY_CONFLICT for another
 * amount. Stakes posted before stakes recorded their split pay all to cash, as they did.
 */
export async function payWin(executor: Executor, input: WinInput): Promise<WinResult> {
  if (typeof input.amountMinor !== 'bigint' || input.amountMinor <= 0n) {
    throw new WalletError('INVALID_AMOUNT', 'A win must be positive');
  }
  return atomically(executor, async (tx) => {
    const { accounts, balances, transfers } = await lockForMove(
      tx,
      input.siteId,
      input.memberId,
      [input.idempotencyKey, input.stakeKey],
      { grants: false },
    );
    const previous = transfers.get(input.idempotencyKey);
    if (previous) {
      const paid = minorOf(previous.metadata.winMinor) ?? previous.amountMinor;
      if (previous.kind !== (input.kind ?? 'win') || paid !== input.amountMinor) {
        throw new WalletError('IDEMPOTENCY_CONFLICT', 'This key was used for another win', {
          idempotencyKey: input.idempotencyKey,
        });
      }
      const cashPart = previous.metadata.part === 'bonus' ? 0n : previous.amountMinor;
      return {
        first: previous,
        cashPartMinor: cashPart,
        bonusPartMinor: input.amountMinor - cashPart,
        forfeitedMinor: 0n,
        playableAfterMinor: balances.cashMinor + balances.bonusMinor,
        replayed: true,
      };
    }
    // The stake's split: { grantId: part } on its transfers, and its total.
    const stake = transfers.get(input.stakeKey);
    const stakeMinor = minorOf(stake?.metadata.stakeMinor);
    const parts = new Map<bigint, bigint>();
    const recorded = stake?.metadata.bonusParts;
    if (stakeMinor !== null && stakeMinor > 0n && recorded && typeof recorded === 'object') {
      for (const [grantId, part] of Object.entries(recorded as Record<string, unknown>)) {
        const minor = minorOf(part);
        if (/^\d+$/.test(grantId) && minor !== null && minor > 0n) parts.set(BigInt(grantId), minor);
      }
    }
    const staked = [...parts.values()].reduce((sum, p) => sum + p, 0n);
    assertInvariant(stakeMinor === null || staked <= stakeMinor, 'bonus parts within the stake');
    let cashShare = input.amountMinor;
    const shares: [bigint, bigint][] = [];
    if (stakeMinor !== null && staked > 0n) {
      cashShare = (input.amountMinor * (stakeMinor - staked)) / stakeMinor;
      let rest = input.amountMinor - cashShare;
      const entries = [...parts.entries()];
      entries.forEach(([grantId, part], i) => {
        const share = i === entries.length - 1 ? rest : (input.amountMinor * part) / stakeMinor;
        rest -= share;
        shares.push([grantId, share]);
      });
    }
    // A refund takes back the wagering the bet fed on its grant (an undone bet never counts as play).
    const kind = input.kind ?? 'win';
    const fedId = kind === 'refund' ? minorOf(stake?.metadata.fedGrantId) : null;
    // Lock the grants in the order every path uses (expiry, id), then decide where each share goes.
    const ids = [
      ...new Set([
        ...shares.filter(([, share]) => share > 0n).map(([id]) => text(id)),
        ...(fedId === null ? [] : [text(fedId)]),
      ]),
    ];
    const locked =
      ids.length === 0
        ? []
        : (
            await rowsOf<TGrantRaw>(
              tx,
              sql`SELECT * FROM bonus_grants WHERE member_id = ${text(input.memberId)}::bigint
                    AND id IN (${sql.join(
                      ids.map((id) => sql`${id}::bigint`),
                      sql`, `,
                    )})
                  ORDER BY expires_at, id FOR NO KEY UPDATE`,
            )
          ).map(toGrant);
    const fed = locked.find((g) => g.id === fedId);
    if (fed?.status === 'active' && stakeMinor !== null) {
      const counted =
        (stakeMinor * categoryWeight(fed.terms, stakeCategory(stake?.metadata.category))) / 100n;
      const back = counted < fed.wageringDoneMinor ? counted : fed.wageringDoneMinor;
      if (back > 0n) await updateGrant(tx, fed.id, { wageringDoneDeltaMinor: -back });
    }
    const shareOf = new Map(shares);
    const toGrants: [BonusGrant, bigint][] = [];
    const toForfeit: [BonusGrant, bigint][] = [];
    const lateConverted: [BonusGrant, bigint][] = [];
    for (const grant of locked) {
      const share = shareOf.get(grant.id) ?? 0n;
      if (share === 0n) continue;
      if (grant.status === 'active') toGrants.push([grant, share]);
      else if (grant.status === 'completed') {
        // Converted meanwhile: its share is cash, within what the grant's max win still allows
        // (its conversion and earlier late wins count); the rest is credited and forfeited at once.
        const maxWin = maxWinOf(grant);
        const left =
          maxWin === null ? share : maxWin > grant.convertedMinor ? maxWin - grant.convertedMinor : 0n;
        const allowed = share < left ? share : left;
        cashShare += allowed;
        if (allowed > 0n) lateConverted.push([grant, allowed]);
        if (share > allowed) toForfeit.push([grant, share - allowed]);
      } else toForfeit.push([grant, share]);
    }
    // A grant that no longer exists for this member (never: grants are not deleted) pays cash.
    for (const [grantId, share] of shares) {
      if (share > 0n && !locked.some((g) => g.id === grantId)) cashShare += share;
    }
    const common = { ...input.metadata, winMinor: input.amountMinor.toString(), stakeKey: input.stakeKey };
    let first: TransferResult | null = null;
    const nextKey = (suffix: string) => (first ? `${input.idempotencyKey}:${suffix}` : input.idempotencyKey);
    // The cash account's old turnover counter, restored by the first transfer whichever it is.
    const wagering = input.wageringAddMinor && input.wageringAddMinor > 0n ? input.wageringAddMinor : null;
    if (cashShare > 0n) {
      first = await transferLocked(
        tx,
        {
          siteId: input.siteId,
          kind,
          from: { system: 'house' },
          to: { memberId: input.memberId, account: 'cash' },
          amountMinor: cashShare,
          idempotencyKey: input.idempotencyKey,
          reference: input.reference,
          metadata: { ...common, part: 'cash' },
          ...(wagering ? { wageringAddMinor: wagering } : {}),
        },
        accounts,
      );
    }
    let bonusPart = 0n;
    let forfeited = 0n;
    for (const [grant, share] of [...toGrants, ...toForfeit]) {
      const moved = await transferLocked(
        tx,
        {
          siteId: input.siteId,
          kind,
          from: { system: 'house' },
          to: { memberId: input.memberId, account: 'bonus' },
          amountMinor: share,
          idempotencyKey: nextKey(`b${grant.id}`),
          reference: input.reference,
          metadata: { ...common, part: 'bonus', grantId: grant.id.toString() },
          ...(wagering && !first ? { wageringAddMinor: wagering } : {}),
        },
        accounts,
      );
      first ??= moved;
      if (grant.status === 'active') {
        await updateGrant(tx, grant.id, { balanceDeltaMinor: share });
        bonusPart += share;
        continue;
      }
      await transferLocked(
        tx,
        {
          siteId: input.siteId,
          kind: 'bonus_forfeit',
          from: { memberId: input.memberId, account: 'bonus' },
          to: { system: 'promotions_expense' },
          amountMinor: share,
          idempotencyKey: `${input.idempotencyKey}:b${grant.id}:${grant.status}`,
          reference: `grant:${grant.id}`,
          metadata: {
            grantId: grant.id.toString(),
            reason: grant.status === 'completed' ? 'max_win' : `${kind}_after_${grant.status}`,
          },
        },
        accounts,
      );
      await updateGrant(tx, grant.id, { forfeitedMinor: share });
      forfeited += share;
    }
    for (const [grant, allowed] of lateConverted)
      await updateGrant(tx, grant.id, { convertedMinor: allowed });
    assertInvariant(first, 'a positive win or refund posted a transfer');
    // Every transfer above went through the locked rows, which are current.
    const now = playableOf(accounts);
    return {
      first,
      cashPartMinor: cashShare,
      bonusPartMinor: bonusPart,
      forfeitedMinor: forfeited,
      playableAfterMinor: now.cashMinor + now.bonusMinor,
      replayed: false,
    };
  });
}

/**
 * Ends an active grant before its wagering is met: expiry (the job) or forfeit (e.g. the player
 * gives it up, self-exclusion). The rest goes back bonus → promotions_expense by a bonus_forfeit
 * transfer. Already closed: returns it unchanged. Expiry refuses (returns null) a grant not yet due.
 */
export async function closeGrant(
  executor: Executor,
  input: { siteId: bigint; grantId: bigint; reason: 'expired' | 'forfeited'; now?: Date },
): Promise<BonusGrant | null> {
  return atomically(executor, async (tx) => {
    const peek = await rowsOf<{ member_id: unknown }>(
      tx,
      sql`SELECT member_id FROM bonus_grants WHERE id = ${text(input.grantId)}::bigint
            AND site_id = ${text(input.siteId)}::bigint`,
    );
    if (!peek[0]) return null;
    await lockPlayerAccounts(tx, input.siteId, big(peek[0].member_id));
    const grant = await lockGrant(tx, input.grantId);
    if (grant?.status !== 'active') return grant;
    if (input.reason === 'expired' && grant.expiresAt > (input.now ?? new Date())) return null;
    let closeTransferId: bigint | null = null;
    if (grant.balanceMinor > 0n) {
      const moved = await transfer(tx, {
        siteId: grant.siteId,
        kind: 'bonus_forfeit',
        from: { memberId: grant.memberId, account: 'bonus' },
        to: { system: 'promotions_expense' },
        amountMinor: grant.balanceMinor,
        idempotencyKey: `grant:${grant.id}:${input.reason}`,
        reference: `grant:${grant.id}`,
        metadata: { grantId: grant.id.toString(), reason: input.reason },
      });
      closeTransferId = moved.transferId;
    }
    await updateGrant(tx, grant.id, {
      balanceDeltaMinor: -grant.balanceMinor,
      status: input.reason,
      closeTransferId,
      forfeitedMinor: grant.balanceMinor,
    });
    return { ...grant, balanceMinor: 0n, status: input.reason, forfeitedMinor: grant.balanceMinor };
  });
}

/**
 * Forfeits every active grant of a member on a site at once (a pause or self-exclusion starts: no
 * bonus may wait for the player's return), each by closeGrant in the caller's transaction.
 * Returns the grants closed.
 */
export async function forfeitActiveGrants(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint },
): Promise<BonusGrant[]> {
  return atomically(executor, async (tx) => {
    await lockPlayerAccounts(tx, input.siteId, input.memberId).catch((error: unknown) => {
      // A member without wallet accounts has no grants either.
      if (error instanceof WalletError && error.code === 'ACCOUNT_NOT_FOUND') return null;
      throw error;
    });
    const grants = (await lockActiveGrants(tx, input.memberId)).filter((g) => g.siteId === input.siteId);
    const closed: BonusGrant[] = [];
    for (const grant of grants) {
      const done = await closeGrant(tx, { siteId: input.siteId, grantId: grant.id, reason: 'forfeited' });
      if (done) closed.push(done);
    }
    return closed;
  });
}

/** Active grants of a site past their expiry (for the expiry job), oldest first. */
export async function dueGrantIds(
  executor: Executor,
  siteId: bigint,
  now: Date,
  limit = 500,
): Promise<bigint[]> {
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`SELECT id FROM bonus_grants WHERE site_id = ${text(siteId)}::bigint AND status = 'active'
          AND expires_at <= ${now.toISOString()}::timestamptz ORDER BY expires_at, id LIMIT ${limit}`,
  );
  return rows.map((r) => big(r.id));
}

/** Turnover the member still owes on grants that lock cash (blocks a withdrawal while > 0). */
export async function grantWageringOwed(executor: Executor, memberId: bigint): Promise<bigint> {
  const rows = await rowsOf<{ owed: unknown }>(
    executor,
    sql`SELECT COALESCE(sum(wagering_required_minor - wagering_done_minor), 0)::text AS owed
        FROM bonus_grants WHERE member_id = ${text(memberId)}::bigint AND status = 'active' AND locks_cash
          AND wagering_done_minor < wagering_required_minor`,
  );
  return big(rows[0]?.owed ?? 0);
}

/** A member's grants, newest first (reward history), keyset-paged by id. */
export async function listGrants(
  executor: Executor,
  input: { siteId: bigint; memberId: bigint; status?: TGrantStatus; beforeId?: bigint; limit?: number },
): Promise<BonusGrant[]> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 200);
  const rows = await rowsOf<TGrantRaw>(
    executor,
    sql`SELECT * FROM bonus_grants WHERE site_id = ${text(input.siteId)}::bigint
          AND member_id = ${text(input.memberId)}::bigint
          AND (${input.status ?? null}::text IS NULL OR status = ${input.status ?? null}::text)
          AND (${input.beforeId == null ? null : text(input.beforeId)}::bigint IS NULL
               OR id < ${input.beforeId == null ? null : text(input.beforeId)}::bigint)
        ORDER BY id DESC LIMIT ${limit}`,
  );
  return rows.map(toGrant);
}
