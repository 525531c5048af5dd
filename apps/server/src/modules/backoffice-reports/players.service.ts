import type {
  TBalanceAdjustResponse,
  TPlayerDetail,
  TPlayerRow,
  TPlayerSearchField,
  TPlayerSearchResponse,
} from '@sorte/contract';
import { formatMinor, TRANSACTION_KINDS } from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { TOperatorAuth } from '../../core/audit.ts';
import { recordOperatorAction } from '../../core/audit.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { ipFor, playerContactFor } from '../admin/pii.ts';
import { normalizePhone } from '../members/phone.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import { getBalances, transfer } from '../wallet/wallet.service.ts';
import {
  containsPattern,
  intOf,
  isoOf,
  limitOffset,
  moneyText,
  pageOf,
  queryRows,
  type TPage,
  type TPaging,
  textOrNull,
} from './reports.sql.ts';

/**
 * Players in the back office: search, detail (profile, balances, ledger, rounds, sessions, limits,
 * notes, audit log) and the operator's actions on them. Every query is scoped to the operator's
 * site; a player of another site is NOT_FOUND. Every action writes its audit entry (before and
 * after) in the action's own transaction, so there is never an action without its entry.
 */

const notFound = () => new AppError('NOT_FOUND', { messageKey: 'messages.user_not_exist' });

type TMemberRaw = {
  id: unknown;
  username: string;
  realname: string;
  cpf: string | null;
  phone: string;
  email: string | null;
  register_ip: string | null;
  status: unknown;
  cash: unknown;
  bonus: unknown;
  created_at: string;
  last_login_at: string | null;
};

const memberColumns = sql`m.id::text AS id, m.username, m.realname, m.cpf, m.phone, m.email, m.register_ip,
  m.status::text AS status,
  (SELECT balance_minor::text FROM wallet_accounts WHERE member_id = m.id AND kind = 'cash') AS cash,
  (SELECT balance_minor::text FROM wallet_accounts WHERE member_id = m.id AND kind = 'bonus') AS bonus,
  ${isoOf('m.created_at')} AS created_at,
  (SELECT ${isoOf('max(s.created_at)')} FROM member_sessions s WHERE s.member_id = m.id) AS last_login_at`;

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

/**
 * CPF, e-mail and phone conditions for an operator without `players.pii` (ADR 022): they may look a
 * player up by a full value they already know, never by a fragment — a "contains" search would let
 * them read the masked digits back one guess at a time.
 */
function exactContactConditions(q: string) {
  const digits = q.replace(/\D/g, '');
  return {
    email: sql`lower(m.email) = ${q.trim().toLowerCase()}`,
    cpf: digits.length === 11 ? sql`m.cpf = ${digits}` : sql`false`,
    phone: digits.length >= 10 ? sql`m.phone = ${normalizePhone(q)}` : sql`false`,
  };
}

/**
 * The WHERE condition of a search for `q` in `field` (contains, case-insensitive; CPF, e-mail and
 * phone only as a whole value when the operator sees them masked).
 */
function searchCondition(q: string, field: TPlayerSearchField, pii: boolean): SQL {
  const pattern = containsPattern(q);
  const digits = q.replace(/\D/g, '');
  const digitsPattern = digits.length > 0 ? containsPattern(digits) : null;
  const contact = pii
    ? {
        email: sql`m.email ILIKE ${pattern}`,
        // CPF and phone: typed with or without punctuation ("123.456.789-09", "(11) 98765-4321").
        cpf: digitsPattern ? sql`m.cpf LIKE ${digitsPattern}` : sql`false`,
        phone: digitsPattern
          ? sql`(m.phone ILIKE ${pattern} OR regexp_replace(m.phone, '[^0-9]', '', 'g') LIKE ${digitsPattern})`
          : sql`m.phone ILIKE ${pattern}`,
      }
    : exactContactConditions(q);
  const byField: Record<Exclude<TPlayerSearchField, 'any'>, SQL> = {
    username: sql`m.username ILIKE ${pattern}`,
    name: sql`m.realname ILIKE ${pattern}`,
    ...contact,
    // The addresses a player is known by: the sign-up IP and the IPs of their sessions (a whole
    // address only when the operator sees them masked).
    address: pii
      ? sql`(m.register_ip ILIKE ${pattern} OR EXISTS (
          SELECT 1 FROM member_sessions s WHERE s.member_id = m.id AND s.ip ILIKE ${pattern}))`
      : sql`(m.register_ip = ${q.trim()} OR EXISTS (
          SELECT 1 FROM member_sessions s WHERE s.member_id = m.id AND s.ip = ${q.trim()}))`,
  };
  if (field !== 'any') return byField[field];
  return sql`(${sql.join(Object.values(byField), sql` OR `)})`;
}

export async function searchPlayers(
  executor: Executor,
  siteId: bigint,
  input: {
    q?: string | undefined;
    field?: TPlayerSearchField | undefined;
    status?: 'active' | 'frozen' | undefined;
  },
  paging: TPaging,
  pii: boolean,
): Promise<TPlayerSearchResponse> {
  const conditions: SQL[] = [sql`m.site_id = ${siteId.toString()}::bigint`, sql`m.deleted_at IS NULL`];
  if (input.q) conditions.push(searchCondition(input.q, input.field ?? 'any', pii));
  if (input.status) conditions.push(input.status === 'active' ? sql`m.status = 1` : sql`m.status <> 1`);
  const where = sql.join(conditions, sql` AND `);
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM members m WHERE ${where}`,
  );
  const rows = await queryRows<TMemberRaw>(
    executor,
    sql`SELECT ${memberColumns} FROM members m WHERE ${where} ORDER BY m.id DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((row) => playerContactFor(playerRow(row), pii)),
    intOf(count?.n),
    paging,
  );
}

/** The member's id if it is a (not deleted) player of this site, else NOT_FOUND. */
async function memberOfSite(executor: Executor, siteId: bigint, memberId: number): Promise<bigint> {
  const rows = await queryRows<{ id: unknown }>(
    executor,
    sql`SELECT id::text AS id FROM members WHERE id = ${String(memberId)}::bigint
        AND site_id = ${siteId.toString()}::bigint AND deleted_at IS NULL`,
  );
  if (!rows[0]) throw notFound();
  return BigInt(String(rows[0].id));
}

export async function playerDetail(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  pii: boolean,
): Promise<TPlayerDetail> {
  const id = await memberOfSite(executor, siteId, memberId);
  const [row] = await queryRows<
    TMemberRaw & {
      nickname: string | null;
      birth_date: string | null;
      lang: string;
      level: unknown;
      invite_code: string;
      email_verified: boolean;
      totp_enabled: boolean;
      is_demo: boolean;
      online: unknown;
    }
  >(
    executor,
    sql`SELECT ${memberColumns}, m.nickname, to_char(m.birth_date, 'YYYY-MM-DD') AS birth_date, m.lang,
          m.level::text AS level, m.invite_code, (m.email_verified_at IS NOT NULL) AS email_verified,
          (m.totp_enabled_at IS NOT NULL) AS totp_enabled, m.is_demo,
          (SELECT count(*) FROM member_sessions s WHERE s.member_id = m.id AND s.ended_at IS NULL
             AND s.expires_at > now())::text AS online
        FROM members m WHERE m.id = ${id.toString()}::bigint`,
  );
  if (!row) throw notFound();
  const balances = await getBalances(executor, id, { siteId });
  const [totals] = await queryRows<{ deposits: unknown; withdrawals: unknown; bets: unknown; wins: unknown }>(
    executor,
    sql`WITH acc AS (SELECT id FROM wallet_accounts WHERE member_id = ${id.toString()}::bigint)
        SELECT
          (SELECT COALESCE(sum(amount_minor), 0) FROM wallet_transfers WHERE kind = 'deposit'
             AND credit_account_id IN (SELECT id FROM acc))::text AS deposits,
          (SELECT COALESCE(sum(amount_minor), 0) FROM wallet_transfers WHERE kind = 'withdrawal_payout'
             AND debit_account_id IN (SELECT id FROM acc))::text AS withdrawals,
          (SELECT COALESCE(sum(amount_minor), 0) FROM wallet_transfers WHERE kind = 'bet'
             AND debit_account_id IN (SELECT id FROM acc))::text AS bets,
          (SELECT COALESCE(sum(amount_minor), 0) FROM wallet_transfers WHERE kind = 'win'
             AND credit_account_id IN (SELECT id FROM acc))::text AS wins`,
  );
  const limits = await queryRows<{
    kind: string;
    period: string;
    value: string | null;
    pending_value: string | null;
    pending_remove: boolean;
    pending_effective_at: string | null;
  }>(
    executor,
    sql`SELECT kind, period, value::text AS value, pending_value::text AS pending_value, pending_remove,
          ${isoOf('pending_effective_at')} AS pending_effective_at
        FROM rg_limits WHERE member_id = ${id.toString()}::bigint ORDER BY kind, period`,
  );
  const exclusions = await queryRows<{
    kind: string;
    starts_at: string;
    ends_at: string | null;
    active: boolean;
  }>(
    executor,
    sql`SELECT kind, ${isoOf('starts_at')} AS starts_at, ${isoOf('ends_at')} AS ends_at,
          (starts_at <= now() AND (ends_at IS NULL OR ends_at > now())) AS active
        FROM rg_exclusions WHERE member_id = ${id.toString()}::bigint ORDER BY id DESC`,
  );
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
  const moves = sql`WITH acc AS (SELECT id, kind FROM wallet_accounts WHERE member_id = ${id.toString()}::bigint),
    moves AS (
      SELECT t.id, t.created_at, t.kind, a.kind AS account, -t.amount_minor AS delta,
             t.debit_balance_after_minor AS after, t.credit_account_id AS other, t.reference, t.idempotency_key
      FROM wallet_transfers t JOIN acc a ON a.id = t.debit_account_id
      WHERE (${kind}::text IS NULL OR t.kind = ${kind}::text)
      UNION ALL
      SELECT t.id, t.created_at, t.kind, a.kind, t.amount_minor, t.credit_balance_after_minor,
             t.debit_account_id, t.reference, t.idempotency_key
      FROM wallet_transfers t JOIN acc a ON a.id = t.credit_account_id
      WHERE (${kind}::text IS NULL OR t.kind = ${kind}::text))`;
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`${moves} SELECT count(*)::text AS n FROM moves`,
  );
  const rows = await queryRows<{
    id: unknown;
    created_at: string;
    kind: string;
    account: 'cash' | 'bonus' | 'withdrawal_hold';
    delta: unknown;
    after: unknown;
    other_kind: string;
    other_member: boolean;
    reference: string;
    idempotency_key: string;
  }>(
    executor,
    sql`${moves}
        SELECT moves.id::text AS id, ${isoOf('moves.created_at')} AS created_at, moves.kind, moves.account,
               moves.delta::text AS delta, moves.after::text AS after, o.kind AS other_kind,
               (o.member_id IS NOT NULL) AS other_member, moves.reference, moves.idempotency_key
        FROM moves JOIN wallet_accounts o ON o.id = moves.other
        ORDER BY moves.id DESC, moves.account ${limitOffset(paging)}`,
  );
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
    intOf(count?.n),
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
  const rounds = sql`WITH rounds AS (
      SELECT 'originals' AS source, r.id, r.game_code AS game, r.created_at, r.status,
             r.stake_minor AS stake, r.payout_minor AS payout, r.multiplier
      FROM game_rounds r WHERE r.member_id = ${id}::bigint
      UNION ALL
      SELECT 'crash', b.id, 'crash', b.created_at, b.status, b.stake_minor, b.payout_minor,
             CASE WHEN b.cashout_hundredths IS NULL THEN NULL
                  ELSE to_char(b.cashout_hundredths / 100.0, 'FM999999990.00') END
      FROM crash_bets b WHERE b.member_id = ${id}::bigint
      UNION ALL
      SELECT 'provider', p.id, g.code, p.created_at, p.status, p.stake_minor, p.payout_minor, NULL
      FROM provider_rounds p JOIN games g ON g.id = p.game_id WHERE p.member_id = ${id}::bigint)`;
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`${rounds} SELECT count(*)::text AS n FROM rounds`,
  );
  const rows = await queryRows<{
    source: TPlayerRoundRow['source'];
    id: string;
    game: string;
    created_at: string;
    status: string;
    stake: unknown;
    payout: unknown;
    multiplier: string | null;
  }>(
    executor,
    sql`${rounds}
        SELECT source, id::text AS id, game, ${isoOf('created_at')} AS created_at, status,
               stake::text AS stake, payout::text AS payout, multiplier
        FROM rounds ORDER BY rounds.created_at DESC, source, rounds.id DESC ${limitOffset(paging)}`,
  );
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
    intOf(count?.n),
    paging,
  );
}

export type TPlayerSessionRow = {
  id: number;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
  end_reason: string | null;
  active: boolean;
  restricted: boolean;
  ip: string | null;
  user_agent: string | null;
};

export async function playerSessions(
  executor: Executor,
  siteId: bigint,
  memberId: number,
  paging: TPaging,
  pii: boolean,
): Promise<TPage<TPlayerSessionRow>> {
  const id = (await memberOfSite(executor, siteId, memberId)).toString();
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_sessions WHERE member_id = ${id}::bigint`,
  );
  const rows = await queryRows<{
    id: unknown;
    created_at: string;
    last_seen_at: string;
    ended_at: string | null;
    end_reason: string | null;
    active: boolean;
    restricted: boolean;
    ip: string | null;
    user_agent: string | null;
  }>(
    executor,
    sql`SELECT id::text AS id, ${isoOf('created_at')} AS created_at, ${isoOf('last_seen_at')} AS last_seen_at,
          ${isoOf('ended_at')} AS ended_at, end_reason, (ended_at IS NULL AND expires_at > now()) AS active,
          restricted, ip, user_agent
        FROM member_sessions WHERE member_id = ${id}::bigint ORDER BY id DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((r) => ({
      ...r,
      id: intOf(r.id),
      active: r.active === true,
      restricted: r.restricted === true,
      ip: ipFor(r.ip, pii),
    })),
    intOf(count?.n),
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
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_notes WHERE member_id = ${id}::bigint`,
  );
  const rows = await queryRows<{ id: unknown; created_at: string; operator: string; body: string }>(
    executor,
    sql`SELECT n.id::text AS id, ${isoOf('n.created_at')} AS created_at, o.username AS operator, n.body
        FROM member_notes n JOIN operators o ON o.id = n.operator_id
        WHERE n.member_id = ${id}::bigint ORDER BY n.id DESC ${limitOffset(paging)}`,
  );
  return pageOf(
    rows.map((r) => ({ ...r, id: intOf(r.id) })),
    intOf(count?.n),
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
  const [count] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM operator_actions WHERE member_id = ${id}::bigint`,
  );
  const rows = await queryRows<{
    id: unknown;
    created_at: string;
    operator: string;
    action: string;
    entity: string | null;
    entity_id: string | null;
    before: unknown;
    after: unknown;
  }>(
    executor,
    sql`SELECT a.id::text AS id, ${isoOf('a.created_at')} AS created_at, o.username AS operator, a.action,
          a.entity, a.entity_id, a.before, a.after
        FROM operator_actions a JOIN operators o ON o.id = a.operator_id
        WHERE a.member_id = ${id}::bigint ORDER BY a.id DESC ${limitOffset(paging)}`,
  );
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
    intOf(count?.n),
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
  const rows = await queryRows<{ id: unknown; username: string; status: unknown }>(
    executor,
    sql`SELECT id::text AS id, username, status::text AS status FROM members
        WHERE id = ${String(memberId)}::bigint AND site_id = ${siteId.toString()}::bigint AND deleted_at IS NULL
        FOR NO KEY UPDATE`,
  );
  const row = rows[0];
  if (!row) throw notFound();
  return { id: BigInt(String(row.id)), username: row.username, status: intOf(row.status) };
}

async function activeSessions(executor: Executor, memberId: bigint): Promise<number> {
  const [row] = await queryRows<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_sessions
        WHERE member_id = ${memberId.toString()}::bigint AND ended_at IS NULL AND expires_at > now()`,
  );
  return intOf(row?.n);
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
    await tx.execute(
      sql`UPDATE members SET status = ${status}, updated_at = now() WHERE id = ${member.id.toString()}::bigint`,
    );
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
    const [note] = await queryRows<{ id: unknown; created_at: string }>(
      tx,
      sql`INSERT INTO member_notes (site_id, member_id, operator_id, body)
          VALUES (${operator.siteId.toString()}::bigint, ${member.id.toString()}::bigint,
                  ${operator.operatorId.toString()}::bigint, ${body})
          RETURNING id::text AS id, ${isoOf('created_at')} AS created_at`,
    );
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
