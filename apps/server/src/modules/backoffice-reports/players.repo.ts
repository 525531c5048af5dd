import type { TPlayerSearchField } from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { containsPattern, isoOf, rowsOf } from '../../db/sql.ts';
import { normalizePhone } from '../members/phone.ts';
import type { TPaging } from './reports.format.ts';
import { limitOffset } from './reports.repo.ts';

/**
 * The SQL of the back office's players: search, detail, ledger, rounds, sessions, notes, audit and
 * the rows an operator's action locks and writes. Every query is scoped to the operator's site by
 * its caller (`findMemberOfSite`, `lockMemberOfSite`).
 */

export type TMemberRaw = {
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

/** What the operator searches players by (every part optional). */
export type TPlayerSearch = {
  q?: string | undefined;
  field?: TPlayerSearchField | undefined;
  status?: 'active' | 'frozen' | undefined;
};

export async function findPlayersPage(
  executor: Executor,
  siteId: bigint,
  input: TPlayerSearch,
  paging: TPaging,
  pii: boolean,
) {
  const conditions: SQL[] = [sql`m.site_id = ${siteId.toString()}::bigint`, sql`m.deleted_at IS NULL`];
  if (input.q) conditions.push(searchCondition(input.q, input.field ?? 'any', pii));
  if (input.status) conditions.push(input.status === 'active' ? sql`m.status = 1` : sql`m.status <> 1`);
  const where = sql.join(conditions, sql` AND `);
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM members m WHERE ${where}`,
  );
  const rows = await rowsOf<TMemberRaw>(
    executor,
    sql`SELECT ${memberColumns} FROM members m WHERE ${where} ORDER BY m.id DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

/** The member's id if it is a (not deleted) player of this site. */
export async function findMemberOfSite(
  executor: Executor,
  siteId: bigint,
  memberId: number,
): Promise<bigint | null> {
  const rows = await rowsOf<{ id: unknown }>(
    executor,
    sql`SELECT id::text AS id FROM members WHERE id = ${String(memberId)}::bigint
        AND site_id = ${siteId.toString()}::bigint AND deleted_at IS NULL`,
  );
  return rows[0] ? BigInt(String(rows[0].id)) : null;
}

export async function findPlayerProfile(executor: Executor, id: bigint) {
  const [row] = await rowsOf<
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
  return row;
}

/** What the player deposited, withdrew, bet and won, ever. */
export async function findPlayerTotals(executor: Executor, id: bigint) {
  const [totals] = await rowsOf<{ deposits: unknown; withdrawals: unknown; bets: unknown; wins: unknown }>(
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
  return totals;
}

/** The player's responsible-gaming limits and exclusions. */
export async function findPlayerRg(executor: Executor, id: bigint) {
  const limits = await rowsOf<{
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
  const exclusions = await rowsOf<{
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
  return { limits, exclusions };
}

export async function findPlayerMovesPage(
  executor: Executor,
  id: bigint,
  kind: string | null,
  paging: TPaging,
) {
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
  const [count] = await rowsOf<{ n: unknown }>(executor, sql`${moves} SELECT count(*)::text AS n FROM moves`);
  const rows = await rowsOf<{
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
  return { count: count?.n, rows };
}

export async function findPlayerRoundsPage(executor: Executor, id: string, paging: TPaging) {
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
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`${rounds} SELECT count(*)::text AS n FROM rounds`,
  );
  const rows = await rowsOf<{
    source: 'originals' | 'crash' | 'provider';
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
  return { count: count?.n, rows };
}

export async function findPlayerSessionsPage(executor: Executor, id: string, paging: TPaging) {
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_sessions WHERE member_id = ${id}::bigint`,
  );
  // The row as the service answers it, but for the id, which the driver hands back as text.
  const rows = await rowsOf<Omit<TPlayerSessionRow, 'id'> & { id: unknown }>(
    executor,
    sql`SELECT id::text AS id, ${isoOf('created_at')} AS created_at, ${isoOf('last_seen_at')} AS last_seen_at,
          ${isoOf('ended_at')} AS ended_at, end_reason, (ended_at IS NULL AND expires_at > now()) AS active,
          restricted, ip, user_agent
        FROM member_sessions WHERE member_id = ${id}::bigint ORDER BY id DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

export async function findPlayerNotesPage(executor: Executor, id: string, paging: TPaging) {
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_notes WHERE member_id = ${id}::bigint`,
  );
  const rows = await rowsOf<{ id: unknown; created_at: string; operator: string; body: string }>(
    executor,
    sql`SELECT n.id::text AS id, ${isoOf('n.created_at')} AS created_at, o.username AS operator, n.body
        FROM member_notes n JOIN operators o ON o.id = n.operator_id
        WHERE n.member_id = ${id}::bigint ORDER BY n.id DESC ${limitOffset(paging)}`,
  );
  return { count: count?.n, rows };
}

export async function findPlayerAuditPage(executor: Executor, id: string, paging: TPaging) {
  const [count] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM operator_actions WHERE member_id = ${id}::bigint`,
  );
  const rows = await rowsOf<{
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
  return { count: count?.n, rows };
}

/** Locks the member row of this site (not deleted) and reads its state. */
export async function lockMemberOfSite(executor: Executor, siteId: bigint, memberId: number) {
  const rows = await rowsOf<{ id: unknown; username: string; status: unknown }>(
    executor,
    sql`SELECT id::text AS id, username, status::text AS status FROM members
        WHERE id = ${String(memberId)}::bigint AND site_id = ${siteId.toString()}::bigint AND deleted_at IS NULL
        FOR NO KEY UPDATE`,
  );
  return rows[0];
}

export async function countActiveSessions(executor: Executor, memberId: bigint): Promise<unknown> {
  const [row] = await rowsOf<{ n: unknown }>(
    executor,
    sql`SELECT count(*)::text AS n FROM member_sessions
        WHERE member_id = ${memberId.toString()}::bigint AND ended_at IS NULL AND expires_at > now()`,
  );
  return row?.n;
}

export async function updateMemberStatus(tx: Tx, memberId: bigint, status: number): Promise<void> {
  await tx.execute(
    sql`UPDATE members SET status = ${status}, updated_at = now() WHERE id = ${memberId.toString()}::bigint`,
  );
}

export async function insertMemberNote(
  tx: Tx,
  note: { siteId: bigint; memberId: bigint; operatorId: bigint; body: string },
): Promise<{ id: unknown; created_at: string } | undefined> {
  const [row] = await rowsOf<{ id: unknown; created_at: string }>(
    tx,
    sql`INSERT INTO member_notes (site_id, member_id, operator_id, body)
        VALUES (${note.siteId.toString()}::bigint, ${note.memberId.toString()}::bigint,
                ${note.operatorId.toString()}::bigint, ${note.body})
        RETURNING id::text AS id, ${isoOf('created_at')} AS created_at`,
  );
  return row;
}

/** One of a player's sessions in the back office. */
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
