import type {
  TBalanceAdjustResponse,
  TPlayerDetail,
  TPlayerRow,
  TPlayerSearchResponse,
} from '@sorte/contract';
import { formatMinor, TRANSACTION_KINDS } from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { ipFor, playerContactFor } from '../admin/pii.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import { getBalances } from '../wallet/balances.ts';
import { transfer } from '../wallet/wallet.service.ts';
import {
  countActiveSessions,
  findMemberOfSite,
  findPlayerAuditPage,
  findPlayerMovesPage,
  findPlayerNotesPage,
  findPlayerProfile,
  findPlayerRg,
  findPlayerRoundsPage,
  findPlayerSessionsPage,
  findPlayersPage,
  findPlayerTotals,
  insertMemberNote,
  lockMemberOfSite,
  type TMemberRaw,
  type TPlayerSearch,
  type TPlayerSessionRow,
  updateMemberStatus,
} from './players.repo.ts';
import { intOf, moneyText, pageOf, type TPage, type TPaging, textOrNull } from './reports.format.ts';

/**
 * Players in the back office: search, detail (profile, balances, ledger, rounds, sessions, limits,
 * notes, audit log) and the operator's actions on them. Every query is scoped to the operator's
 * site; a player of another site is NOT_FOUND. Every action writes its audit entry (before and
 * after) in the action's own transaction, so there is never an action without its entry.
 */

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'messages.user_not_exist' });

function playerRow(row: TMemberRaw): TPlayerRow {
  return {
    id: intOf(row.id),
    username: row.username,
    realname: row.realname,
    cpf: row.cpf,
    phone: row.phone,
    email: row.email,
    register_ip: row.register_ip,
    status: intOf(row.status) === 1 ? 'active' : 'frozen',
    cash: moneyText(row.cash),
    bonus: moneyText(row.bonus),
    created_at: row.created_at,
    last_login_at: row.last_login_at,
  };
}

export async function searchPlayers(
  executor: Executor,
  siteId: bigint,
  input: TPlayerSearch,
  paging: TPaging,
  pii: boolean,
): Promise<TPlayerSearchResponse> {
  const { count, rows } = await findPlayersPage(executor, siteId, input, paging, pii);
  return pageOf(
    rows.map((row) => playerContactFor(playerRow(row), pii)),
    intOf(count),
    paging,
  );
}

/** The member's id if it is a (not deleted) player of this site, else NOT_FOUND. */
async function memberOfSite(executor: Executor, siteId: bigint, memberId: number): Promise<bigint> {
  const id = await findMemberOfSite(executor, siteId, memberId);
  if (id === null) throw notFound();
  return id;
}

export async function playerDetail(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  pii: boolean,
): Promise<TPlayerDetail> {
  const id = await memberOfSite(executor, siteId, memberId);
  const row = await findPlayerProfile(executor, id);
  if (!row) throw notFound();
  const balances = await getBalances(executor, id, { siteId });
  const totals = await findPlayerTotals(executor, id);
  const { limits, exclusions } = await findPlayerRg(executor, id);
  // Money limits are centavos, the session-time limit minutes.
  const limitValue = (kind: string, value: string | null) =>
    value === null ? null : kind === 'session_time' ? value : formatMinor(BigInt(value));
  return {
    profile: {
      ...playerContactFor(playerRow(row), pii),
      nickname: row.nickname,
      birth_date: row.birth_date,
      lang: row.lang,
      level: intOf(row.level),
      invite_code: row.invite_code,
      email_verified: row.email_verified === true,
      totp_enabled: row.totp_enabled === true,
      is_demo: row.is_demo === true,
    },
    balances: {
      cash: formatMinor(balances.cashMinor),
      bonus: formatMinor(balances.bonusMinor),
      withdrawal_hold: formatMinor(balances.holdMinor),
      wagering_required: formatMinor(balances.wageringRequiredMinor),
      withdrawable: formatMinor(balances.withdrawableMinor),
    },
    totals: {
      deposits: moneyText(totals?.deposits),
      withdrawals: moneyText(totals?.withdrawals),
      bets: moneyText(totals?.bets),
      wins: moneyText(totals?.wins),
    },
    online_sessions: intOf(row.online),
    rg: {
      limits: limits.map((l) => ({
        kind: l.kind,
        period: l.period,
        value: limitValue(l.kind, l.value),
        pending_value: limitValue(l.kind, l.pending_value),
        pending_remove: l.pending_remove === true,
        pending_effective_at: l.pending_effective_at,
      })),
      exclusions: exclusions.map((e) => ({ ...e, active: e.active === true })),
    },
  };
}

export type TPlayerTransferRow = {
  id: number;
  created_at: string;
  kind: string;
  account: 'cash' | 'bonus' | 'withdrawal_hold';
  counterparty: string;
  change: string;
  balance_after: string;
  reference: string;
  idempotency_key: string;
};

/** The player's ledger: one row per transfer and account of theirs it moved, newest first. */
export async function playerTransfers(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  filter: { kind?: string | undefined },
  paging: TPaging,
): Promise<TPage<TPlayerTransferRow>> {
  const id = await memberOfSite(executor, siteId, memberId);
  const kind =
    filter.kind && (TRANSACTION_KINDS as readonly string[]).includes(filter.kind) ? filter.kind : null;
  if (filter.kind && !kind) return pageOf([], 0, paging);
  const { count, rows } = await findPlayerMovesPage(executor, id, kind, paging);
  return pageOf(
    rows.map((r) => {
      const delta = BigInt(String(r.delta));
      return {
        id: intOf(r.id),
        created_at: r.created_at,
        kind: r.kind,
        account: r.account,
        counterparty: r.other_member ? `player:${r.other_kind}` : r.other_kind,
        change: `${delta >= 0n ? '+' : ''}${formatMinor(delta)}`,
        balance_after: moneyText(r.after),
        reference: r.reference,
        idempotency_key: r.idempotency_key,
      };
    }),
    intOf(count),
    paging,
  );
}

export type TPlayerRoundRow = {
  source: 'originals' | 'crash' | 'provider';
  id: string;
  game: string;
  created_at: string;
  status: string;
  stake: string;
  payout: string;
  multiplier: string | null;
};

/** The player's rounds of every kind of game (in-house, crash, third-party), newest first. */
export async function playerRounds(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  paging: TPaging,
): Promise<TPage<TPlayerRoundRow>> {
  const id = (await memberOfSite(executor, siteId, memberId)).toString();
  const { count, rows } = await findPlayerRoundsPage(executor, id, paging);
  return pageOf(
    rows.map((r) => ({
      source: r.source,
      id: r.id,
      game: r.game,
      created_at: r.created_at,
      status: r.status,
      stake: moneyText(r.stake),
      payout: moneyText(r.payout),
      multiplier: r.multiplier,
    })),
    intOf(count),
    paging,
  );
}

export async function playerSessions(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  paging: TPaging,
  pii: boolean,
): Promise<TPage<TPlayerSessionRow>> {
  const id = (await memberOfSite(executor, siteId, memberId)).toString();
  const { count, rows } = await findPlayerSessionsPage(executor, id, paging);
  return pageOf(
    rows.map((r) => ({
      ...r,
      id: intOf(r.id),
      active: r.active === true,
      restricted: r.restricted === true,
      ip: ipFor(r.ip, pii),
    })),
    intOf(count),
    paging,
  );
}

export type TPlayerNoteRow = { id: number; created_at: string; operator: string; body: string };

export async function playerNotes(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  paging: TPaging,
): Promise<TPage<TPlayerNoteRow>> {
  const id = (await memberOfSite(executor, siteId, memberId)).toString();
  const { count, rows } = await findPlayerNotesPage(executor, id, paging);
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id) })),
    intOf(count),
    paging,
  );
}

export type TAuditRow = {
  id: number;
  created_at: string;
  operator: string;
  action: string;
  entity: string | null;
  entity_id: string | null;
  before: unknown;
  after: unknown;
};

/** The audit log entries about this player (every operator action on them), newest first. */
export async function playerAudit(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  paging: TPaging,
): Promise<TPage<TAuditRow>> {
  const id = (await memberOfSite(executor, siteId, memberId)).toString();
  const { count, rows } = await findPlayerAuditPage(executor, id, paging);
  const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : (value ?? null));
  return pageOf(
    rows.map((r) => ({
      id: intOf(r.id),
      created_at: r.created_at,
      operator: r.operator,
      action: r.action,
      entity: textOrNull(r.entity),
      entity_id: textOrNull(r.entity_id),
      before: json(r.before),
      after: json(r.after),
    })),
    intOf(count),
    paging,
  );
}

// ---------------------------------------------------------------------------------------------
// Actions

/** Locks the member row of this site for the action (NOT_FOUND otherwise) and returns its state. */
async function lockMember(
  executor: Executor,
  siteId: bigint,
  memberId: number,
): Promise<{ id: bigint; username: string; status: number }> {
  const row = await lockMemberOfSite(executor, siteId, memberId);
  if (!row) throw notFound();
  return { id: BigInt(String(row.id)), username: row.username, status: intOf(row.status) };
}

async function activeSessions(executor: Executor, memberId: bigint): Promise<number> {
  return intOf(await countActiveSessions(executor, memberId));
}

/** Ends every session of the player (their next call: 401 force_offline); audited. */
export async function forcePlayerOffline(
  executor: Executor,
  operator: TOperatorAuth,
  memberId: number,
): Promise<{ member_id: number; sessions_ended: number }> {
  return executor.transaction(async (tx) => {
    const member = await lockMember(tx, operator.siteId, memberId);
    const before = { active_sessions: await activeSessions(tx, member.id) };
    const ended = await forceOffline(tx, operator.siteId, member.id);
    await recordOperatorAction(
      tx,
      operator,
      'member.force_offline',
      { memberId: member.id, entity: 'member', entityId: member.id.toString() },
      before,
      {
        active_sessions: 0,
        sessions_ended: ended,
      },
    );
    return { member_id: Number(member.id), sessions_ended: ended };
  });
}

/**
 * Freezes (status 0: login and every call with an old token refused with ACCOUNT_DISABLED, play
 * with it) or unfreezes the account; freezing also ends every session. Audited with the reason.
 */
export async function setPlayerFrozen(
  executor: Executor,
  operator: TOperatorAuth,
  memberId: number,
  frozen: boolean,
  reason: string,
): Promise<{ id: number; status: 'active' | 'frozen'; sessions_ended: number }> {
  return executor.transaction(async (tx) => {
    const member = await lockMember(tx, operator.siteId, memberId);
    const before = { status: member.status === 1 ? 'active' : 'frozen' };
    const status = frozen ? 0 : 1;
    await updateMemberStatus(tx, member.id, status);
    const ended = frozen ? await forceOffline(tx, operator.siteId, member.id) : 0;
    const after = { status: frozen ? 'frozen' : 'active', reason, sessions_ended: ended };
    await recordOperatorAction(
      tx,
      operator,
      frozen ? 'member.freeze' : 'member.unfreeze',
      { memberId: member.id, entity: 'member', entityId: member.id.toString() },
      before,
      after,
    );
    return { id: Number(member.id), status: frozen ? 'frozen' : 'active', sessions_ended: ended };
  });
}

/** Adds an operator note on the player (append-only); audited. */
export async function addPlayerNote(
  executor: Executor,
  operator: TOperatorAuth,
  memberId: number,
  body: string,
): Promise<TPlayerNoteRow> {
  return executor.transaction(async (tx) => {
    const member = await lockMember(tx, operator.siteId, memberId);
    const note = await insertMemberNote(tx, {
      siteId: operator.siteId,
      memberId: member.id,
      operatorId: operator.operatorId,
      body,
    });
    const row = { id: intOf(note!.id), created_at: note!.created_at, operator: operator.username, body };
    await recordOperatorAction(
      tx,
      operator,
      'member.note_add',
      { memberId: member.id, entity: 'member_note', entityId: String(row.id) },
      null,
      { body },
    );
    return row;
  });
}

/**
 * Adjusts the player's cash with a correcting ledger transfer (kind `correction`) between the cash
 * account and the site's suspense account, through the wallet service: credit = suspense → cash,
 * debit = cash → suspense (refused with INSUFFICIENT_FUNDS beyond the cash). The idempotency key
 * makes a retried request post once (the replay answers the first transfer and adds no audit
 * entry); the same key with another amount, direction or reason is IDEMPOTENCY_CONFLICT.
 */
export async function adjustPlayerBalance(
  executor: Executor,
  operator: TOperatorAuth,
  memberId: number,
  input: { direction: 'credit' | 'debit'; amountMinor: bigint; reason: string; idempotencyKey: string },
): Promise<TBalanceAdjustResponse> {
  return executor.transaction(async (tx) => {
    const member = await lockMember(tx, operator.siteId, memberId);
    const before = await getBalances(tx, member.id, { siteId: operator.siteId });
    const cash = { memberId: member.id, account: 'cash' } as const;
    const suspense = { system: 'suspense' } as const;
    const result = await transfer(tx, {
      siteId: operator.siteId,
      kind: 'correction',
      from: input.direction === 'credit' ? suspense : cash,
      to: input.direction === 'credit' ? cash : suspense,
      amountMinor: input.amountMinor,
      idempotencyKey: `admin-adjust:${input.idempotencyKey}`,
      reference: `operator:${operator.operatorId}`,
      metadata: { operatorId: operator.operatorId.toString(), reason: input.reason },
    });
    const cashAfter =
      (input.direction === 'credit' ? result.creditBalanceAfterMinor : result.debitBalanceAfterMinor) ?? 0n;
    if (!result.replayed) {
      const after = await getBalances(tx, member.id, { siteId: operator.siteId });
      await recordOperatorAction(
        tx,
        operator,
        'member.balance_adjust',
        { memberId: member.id, entity: 'wallet_transfer', entityId: result.transferId.toString() },
        { cash: formatMinor(before.cashMinor) },
        {
          cash: formatMinor(after.cashMinor),
          direction: input.direction,
          amount: formatMinor(input.amountMinor),
          reason: input.reason,
          transfer_id: result.transferId.toString(),
        },
      );
    }
    return {
      transfer_id: Number(result.transferId),
      direction: input.direction,
      amount: formatMinor(result.amountMinor),
      cash_after: formatMinor(cashAfter),
      replayed: result.replayed,
    };
  });
}
