import type { TSecurityEventKind } from '@sorte/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';
import { revokeRefreshFamilies } from '../sessions/refresh-tokens.repo.ts';
import { forgetMemberSessions } from '../sessions/session-cache.ts';

/** SQL of the security centre. Every function takes the executor (or transaction) it runs in. */

export type TSecurityMember = {
  id: bigint;
  siteId: bigint;
  username: string;
  passwordHash: string;
  qkPwdHash: string | null;
  email: string | null;
  emailVerifiedAt: Date | null;
  passwordChangedAt: Date | null;
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  lang: string;
  status: number;
};

function toMember(row: Record<string, unknown>): TSecurityMember {
  const date = (value: unknown) => (value === null || value === undefined ? null : new Date(String(value)));
  return {
    id: BigInt(String(row.id)),
    siteId: BigInt(String(row.site_id)),
    username: String(row.username),
    passwordHash: String(row.password_hash),
    qkPwdHash: (row.qk_pwd_hash as string | null) ?? null,
    email: (row.email as string | null) ?? null,
    emailVerifiedAt: date(row.email_verified_at),
    passwordChangedAt: date(row.password_changed_at),
    totpSecret: (row.totp_secret as string | null) ?? null,
    totpEnabledAt: date(row.totp_enabled_at),
    lang: String(row.lang),
    status: Number(row.status),
  };
}

const MEMBER_COLUMNS = sql.raw(`id, site_id, username, password_hash, qk_pwd_hash, email, email_verified_at,
  password_changed_at, totp_secret, totp_enabled_at, lang, status`);

/** The member row, locked FOR NO KEY UPDATE when `lock` (password and secret changes serialise on it). */
export async function findSecurityMember(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  options: { lock?: boolean } = {},
): Promise<TSecurityMember | null> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT ${MEMBER_COLUMNS} FROM members
        WHERE id = ${memberId.toString()}::bigint AND site_id = ${siteId.toString()}::bigint
          AND deleted_at IS NULL ${options.lock ? sql`FOR NO KEY UPDATE` : sql``}`,
  );
  return rows[0] ? toMember(rows[0]) : null;
}

export async function findSecurityMemberByUsername(
  executor: Executor,
  siteId: bigint,
  username: string,
): Promise<TSecurityMember | null> {
  const rows = await rowsOf<Record<string, unknown>>(
    executor,
    sql`SELECT ${MEMBER_COLUMNS} FROM members
        WHERE site_id = ${siteId.toString()}::bigint AND username_lower = lower(${username})
          AND deleted_at IS NULL`,
  );
  return rows[0] ? toMember(rows[0]) : null;
}

export async function updateMemberSecrets(
  executor: Executor,
  memberId: bigint,
  changes: {
    passwordHash?: string;
    qkPwdHash?: string;
    email?: string;
    totpSecret?: string | null;
    totpEnabled?: boolean;
  },
): Promise<void> {
  const sets = [sql`updated_at = now()`];
  if (changes.passwordHash !== undefined) {
    sets.push(sql`password_hash = ${changes.passwordHash}`, sql`password_changed_at = now()`);
  }
  if (changes.qkPwdHash !== undefined) sets.push(sql`qk_pwd_hash = ${changes.qkPwdHash}`);
  if (changes.email !== undefined) sets.push(sql`email = ${changes.email}`, sql`email_verified_at = now()`);
  if (changes.totpSecret !== undefined) sets.push(sql`totp_secret = ${changes.totpSecret}`);
  if (changes.totpEnabled !== undefined) {
    sets.push(changes.totpEnabled ? sql`totp_enabled_at = now()` : sql`totp_enabled_at = NULL`);
  }
  await executor.execute(
    sql`UPDATE members SET ${sql.join(sets, sql`, `)} WHERE id = ${memberId.toString()}::bigint`,
  );
}

export async function insertSecurityEvent(
  executor: Executor,
  event: {
    siteId: bigint;
    memberId: bigint;
    kind: TSecurityEventKind;
    ip: string | null;
    userAgent: string | null;
    detail?: Record<string, unknown>;
  },
): Promise<Date> {
  const rows = await rowsOf<{ created_at: unknown }>(
    executor,
    sql`INSERT INTO member_security_events (site_id, member_id, kind, ip, user_agent, detail)
        VALUES (${event.siteId.toString()}::bigint, ${event.memberId.toString()}::bigint, ${event.kind},
                ${event.ip}, ${event.userAgent?.slice(0, 512) ?? null}, ${JSON.stringify(event.detail ?? {})}::jsonb)
        RETURNING created_at`,
  );
  return new Date(String(rows[0]!.created_at));
}

export type TSecurityEventRow = {
  id: string;
  kind: TSecurityEventKind;
  ip: string | null;
  user_agent: string | null;
  created_at: unknown;
};

export async function listSecurityEvents(
  executor: Executor,
  memberId: bigint,
  limit: number,
): Promise<TSecurityEventRow[]> {
  return rowsOf<TSecurityEventRow>(
    executor,
    sql`SELECT id::text, kind, ip, user_agent, created_at FROM member_security_events
        WHERE member_id = ${memberId.toString()}::bigint ORDER BY id DESC LIMIT ${limit}`,
  );
}

export type TSessionRow = {
  id: string;
  created_at: unknown;
  last_seen_at: unknown;
  ip: string | null;
  user_agent: string | null;
  password_verified_at: unknown;
};

export async function listActiveSessions(executor: Executor, memberId: bigint): Promise<TSessionRow[]> {
  return rowsOf<TSessionRow>(
    executor,
    sql`SELECT id::text, created_at, last_seen_at, ip, user_agent, password_verified_at FROM member_sessions
        WHERE member_id = ${memberId.toString()}::bigint AND ended_at IS NULL AND expires_at > now()
        ORDER BY id DESC`,
  );
}

/** The session's login and the one before it (the previous login a player checks). */
export async function findLogins(
  executor: Executor,
  memberId: bigint,
  sessionId: bigint,
): Promise<{ current: TSessionRow | null; previous: TSessionRow | null }> {
  const rows = await rowsOf<TSessionRow>(
    executor,
    sql`(SELECT id::text, created_at, last_seen_at, ip, user_agent, password_verified_at FROM member_sessions
         WHERE id = ${sessionId.toString()}::bigint)
        UNION ALL
        (SELECT id::text, created_at, last_seen_at, ip, user_agent, password_verified_at FROM member_sessions
         WHERE member_id = ${memberId.toString()}::bigint AND id < ${sessionId.toString()}::bigint
         ORDER BY id DESC LIMIT 1)`,
  );
  const current = rows.find((row) => row.id === sessionId.toString()) ?? null;
  const previous = rows.find((row) => row.id !== sessionId.toString()) ?? null;
  return { current, previous };
}

export type TEndReason = 'password_changed' | 'ended_by_player' | 'self_excluded' | 'time_limit';

/** Ends the member's open sessions (all, or all but `keepSessionId`); returns how many. */
export async function endMemberSessions(
  executor: Executor,
  memberId: bigint,
  reason: TEndReason,
  options: { keepSessionId?: bigint; onlySessionId?: bigint } = {},
): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE member_sessions SET ended_at = now(), end_reason = ${reason}
        WHERE member_id = ${memberId.toString()}::bigint AND ended_at IS NULL
        ${options.keepSessionId === undefined ? sql`` : sql`AND id <> ${options.keepSessionId.toString()}::bigint`}
        ${options.onlySessionId === undefined ? sql`` : sql`AND id = ${options.onlySessionId.toString()}::bigint`}
        RETURNING id::text`,
  );
  // Cached sessions: this process forgets them at once, the others at commit (migration 0042).
  forgetMemberSessions(memberId);
  // Remembered devices go too (all of them on a password change, even the one that changed it);
  // ending one device ends only that device's family.
  await revokeRefreshFamilies(
    executor,
    memberId,
    reason,
    options.onlySessionId === undefined ? {} : { sessionId: options.onlySessionId },
  );
  return rows.length;
}

export async function markPasswordVerified(executor: Executor, sessionId: bigint): Promise<Date> {
  const rows = await rowsOf<{ at: unknown }>(
    executor,
    sql`UPDATE member_sessions SET password_verified_at = now() WHERE id = ${sessionId.toString()}::bigint
        RETURNING password_verified_at AS at`,
  );
  return new Date(String(rows[0]!.at));
}

/** Whether the session re-entered the login password within the last `minutes`. */
export async function passwordVerifiedWithin(
  executor: Executor,
  sessionId: bigint,
  minutes: number,
): Promise<boolean> {
  const rows = await rowsOf<{ ok: boolean }>(
    executor,
    sql`SELECT (password_verified_at > now() - make_interval(mins => ${minutes})) AS ok
        FROM member_sessions WHERE id = ${sessionId.toString()}::bigint`,
  );
  return rows[0]?.ok === true;
}

/** The rows that keep an authenticator's last accepted time step (migrations/0059_totp_last_step.sql). */
export type TTotpOwnerKind = 'member' | 'operator' | 'setup';
const TOTP_OWNER_TABLES: Record<TTotpOwnerKind, string> = {
  member: 'members',
  operator: 'operators',
  setup: 'operator_setup_tokens',
};

/**
 * Records `step` as the authenticator's last accepted time step when it is later than the one
 * recorded: true when it was (the code is spent now), false when that step or a later one was
 * already used. One conditional UPDATE, so of parallel uses of one code exactly one gets true.
 */
export async function advanceTotpStep(
  executor: Executor,
  owner: { kind: TTotpOwnerKind; id: bigint },
  step: number,
): Promise<boolean> {
  const table = sql.identifier(TOTP_OWNER_TABLES[owner.kind]);
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE ${table} SET totp_last_step = ${step}
        WHERE id = ${owner.id.toString()}::bigint
          AND (totp_last_step IS NULL OR totp_last_step < ${step})
        RETURNING id::text`,
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

export async function countUnusedMemberRecoveryCodes(executor: Executor, memberId: bigint): Promise<number> {
  const codes = await rowsOf<{ count: number }>(
    executor,
    sql`SELECT count(*)::int AS count FROM member_recovery_codes
        WHERE member_id = ${memberId.toString()}::bigint AND used_at IS NULL`,
  );
  return Number(codes[0]?.count ?? 0);
}

/** The member's unused recovery codes stop working (a new set replaces them, or 2FA is off). */
export async function spendUnusedMemberRecoveryCodes(tx: Executor, memberId: bigint): Promise<void> {
  await tx.execute(sql`UPDATE member_recovery_codes SET used_at = now()
                         WHERE member_id = ${memberId.toString()}::bigint AND used_at IS NULL`);
}

export async function insertMemberRecoveryCode(
  tx: Executor,
  memberId: bigint,
  codeHash: string,
): Promise<void> {
  await tx.execute(sql`INSERT INTO member_recovery_codes (member_id, code_hash)
                           VALUES (${memberId.toString()}::bigint, ${codeHash})`);
}

/** Spends one unused recovery code of this hash of a member or an operator; false when none. */
export async function spendRecoveryCodeRow(
  executor: Executor,
  owner: 'member' | 'operator',
  ownerId: bigint,
  codeHash: string,
): Promise<boolean> {
  const table = sql.identifier(`${owner}_recovery_codes`);
  const column = sql.identifier(`${owner}_id`);
  const spent = await rowsOf<{ id: string }>(
    executor,
    sql`UPDATE ${table} SET used_at = now()
        WHERE id = (SELECT id FROM ${table}
                    WHERE ${column} = ${ownerId.toString()}::bigint AND used_at IS NULL
                      AND code_hash = ${codeHash} LIMIT 1)
        RETURNING id::text`,
  );
  return spent.length > 0;
}

// ---------------------------------------------------------------------------------------------
// E-mail codes

export type TEmailCodePurpose = 'bind_email' | 'reset_password';

/** A new code replaces the earlier ones of the same purpose. */
export async function replaceEmailCode(
  tx: Executor,
  code: {
    siteId: bigint;
    memberId: bigint;
    purpose: TEmailCodePurpose;
    email: string;
    codeHash: string;
    minutes: number;
  },
): Promise<void> {
  const { memberId, purpose } = code;
  await tx.execute(sql`UPDATE email_codes SET used_at = now()
                       WHERE member_id = ${memberId.toString()}::bigint AND purpose = ${purpose} AND used_at IS NULL`);
  await tx.execute(sql`
    INSERT INTO email_codes (site_id, member_id, purpose, email, code_hash, expires_at)
    VALUES (${code.siteId.toString()}::bigint, ${memberId.toString()}::bigint, ${purpose}, ${code.email},
            ${code.codeHash}, now() + make_interval(mins => ${code.minutes}))`);
}

export type TEmailCodeRow = { id: string; email: string; code_hash: string; attempts: number };

/** The member's live code of this purpose, locked. */
export async function lockLiveEmailCode(
  tx: Executor,
  memberId: bigint,
  purpose: TEmailCodePurpose,
): Promise<TEmailCodeRow | undefined> {
  const rows = await rowsOf<TEmailCodeRow>(
    tx,
    sql`SELECT id::text, email, code_hash, attempts FROM email_codes
        WHERE member_id = ${memberId.toString()}::bigint AND purpose = ${purpose}
          AND used_at IS NULL AND expires_at > now()
        ORDER BY id DESC LIMIT 1 FOR NO KEY UPDATE`,
  );
  return rows[0];
}

/** Counts a wrong try; the code is spent from `maxAttempts`. */
export async function recordEmailCodeAttempt(
  tx: Executor,
  codeId: string,
  attempts: number,
  maxAttempts: number,
): Promise<void> {
  await tx.execute(sql`UPDATE email_codes SET attempts = ${attempts},
                           used_at = CASE WHEN ${attempts} >= ${maxAttempts} THEN now() END
                         WHERE id = ${codeId}::bigint`);
}

export async function spendEmailCode(tx: Executor, codeId: string): Promise<void> {
  await tx.execute(sql`UPDATE email_codes SET used_at = now() WHERE id = ${codeId}::bigint`);
}

/** Whether another member of the site has this e-mail verified. */
export async function emailTaken(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  email: string,
): Promise<boolean> {
  const taken = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT id::text FROM members WHERE site_id = ${siteId.toString()}::bigint AND lower(email) = ${email}
          AND email_verified_at IS NOT NULL AND id <> ${memberId.toString()}::bigint LIMIT 1`,
  );
  return taken.length > 0;
}
