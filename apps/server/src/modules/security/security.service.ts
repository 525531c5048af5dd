import { randomInt } from 'node:crypto';
import {
  EMAIL_CODE_MINUTES,
  normalizeLanguage,
  PASSWORD_VERIFY_MINUTES,
  type TChangePasswordRequest,
  type TLanguage,
  type TResetPasswordRequest,
  type TSecurityEventsResponse,
  type TSecurityOverview,
  type TSessionsResponse,
  type TSetWithdrawPasswordRequest,
  type TTotpSetupResponse,
  translate,
} from '@sorte/contract';
import { sha256Hex } from '../../core/hash.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { isoText } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { hashSecret, verifySecret } from '../sessions/passwords.ts';
import type { TMemberAuth } from '../sessions/sessions.service.ts';
import { assertSecondFactor } from './second-factor.ts';
import {
  countUnusedMemberRecoveryCodes,
  emailTaken,
  endMemberSessions,
  findLogins,
  findSecurityMember,
  findSecurityMemberByUsername,
  insertMemberRecoveryCode,
  listActiveSessions,
  listSecurityEvents,
  lockLiveEmailCode,
  markPasswordVerified,
  passwordVerifiedWithin,
  recordEmailCodeAttempt,
  replaceEmailCode,
  spendEmailCode,
  spendUnusedMemberRecoveryCodes,
  type TSecurityMember,
  updateMemberSecrets,
} from './security.repo.ts';
import { recordSecurityEvent, type TClientInfo } from './security-events.ts';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpQrDataUrl, totpUri } from './totp.ts';

export type TSecurityDeps = { db: Db; throttle: LoginThrottle };

const EVENTS_SHOWN = 50;
/** Wrong tries that spend an emailed code. */
const EMAIL_CODE_MAX_ATTEMPTS = 5;

async function lockedMember(tx: Executor, site: TSite, memberId: bigint): Promise<TSecurityMember> {
  const member = await findSecurityMember(tx, site.id, memberId, { lock: true });
  if (!member) throw new AppError('UNAUTHENTICATED');
  return member;
}

/**
 * Changes the login password: the old one must be right, the new one different (the schema
 * checks both entries match). Every other session of the member ends, so a token stolen before the
 * change stops working; the calling session stays.
 */
export async function changePassword(
  deps: TSecurityDeps,
  site: TSite,
  auth: TMemberAuth,
  input: TChangePasswordRequest,
  client: TClientInfo,
): Promise<void> {
  const member = await findSecurityMember(deps.db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (!(await verifySecret(member.passwordHash, input.old_password))) {
    throw new AppError('OLD_PASSWORD_WRONG', { fieldErrors: { old_password: 'errors.OLD_PASSWORD_WRONG' } });
  }
  const passwordHash = await hashSecret(input.new_password);
  await deps.db.transaction(async (tx) => {
    await lockedMember(tx, site, auth.memberId);
    await updateMemberSecrets(tx, auth.memberId, { passwordHash });
    const ended = await endMemberSessions(tx, auth.memberId, 'password_changed', {
      keepSessionId: auth.sessionId,
    });
    await recordSecurityEvent(tx, site, auth.memberId, 'password_changed', client, { sessions_ended: ended });
  });
}

/** Re-entering the login password opens a short window for sensitive changes in this session. */
export async function verifyPassword(
  deps: TSecurityDeps,
  site: TSite,
  auth: TMemberAuth,
  password: string,
  client: TClientInfo,
): Promise<{ verified_until: string }> {
  const member = await findSecurityMember(deps.db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  const key = { scope: 'account' as const, key: member.username.toLowerCase() };
  // Counted with the account's failed logins, before the password is checked (parallel guesses).
  const attempt = await deps.throttle.reserve(site.id, [{ ...key, max: 5 }]);
  if (!(await verifySecret(member.passwordHash, password))) {
    await attempt.fail();
    throw new AppError('OLD_PASSWORD_WRONG', { fieldErrors: { password: 'errors.OLD_PASSWORD_WRONG' } });
  }
  await attempt.release();
  const at = await deps.db.transaction(async (tx) => {
    const verifiedAt = await markPasswordVerified(tx, auth.sessionId);
    await recordSecurityEvent(tx, site, auth.memberId, 'password_verified', client);
    return verifiedAt;
  });
  return { verified_until: new Date(at.getTime() + PASSWORD_VERIFY_MINUTES * 60_000).toISOString() };
}

/** Sets or changes the 6-digit withdrawal password, after /verify-password (and 2FA when on). */
export async function setWithdrawPassword(
  deps: TSecurityDeps,
  site: TSite,
  auth: TMemberAuth,
  input: TSetWithdrawPasswordRequest,
  client: TClientInfo,
): Promise<void> {
  if (!(await passwordVerifiedWithin(deps.db, auth.sessionId, PASSWORD_VERIFY_MINUTES))) {
    throw new AppError('PASSWORD_NOT_VERIFIED');
  }
  const member = await findSecurityMember(deps.db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  await assertSecondFactor(deps.db, deps.throttle, site, member, input.totp_code, client);
  const qkPwdHash = await hashSecret(input.qk_pwd);
  await deps.db.transaction(async (tx) => {
    const locked = await lockedMember(tx, site, auth.memberId);
    await updateMemberSecrets(tx, auth.memberId, { qkPwdHash });
    await recordSecurityEvent(
      tx,
      site,
      auth.memberId,
      locked.qkPwdHash ? 'withdraw_password_changed' : 'withdraw_password_set',
      client,
    );
  });
}

export async function getSecurityOverview(
  db: Db,
  site: TSite,
  auth: TMemberAuth,
): Promise<TSecurityOverview> {
  const member = await findSecurityMember(db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  const { current, previous } = await findLogins(db, auth.memberId, auth.sessionId);
  const codesLeft = await countUnusedMemberRecoveryCodes(db, auth.memberId);
  const verifiedAt = current?.password_verified_at ? new Date(String(current.password_verified_at)) : null;
  const verifiedUntil = verifiedAt ? new Date(verifiedAt.getTime() + PASSWORD_VERIFY_MINUTES * 60_000) : null;
  return {
    has_qk_pwd: member.qkPwdHash !== null,
    email: member.email,
    email_verified: member.emailVerifiedAt !== null,
    totp_enabled: member.totpEnabledAt !== null,
    recovery_codes_left: member.totpEnabledAt ? codesLeft : 0,
    password_changed_at: member.passwordChangedAt?.toISOString() ?? null,
    last_login: previous ? { at: isoText(previous.created_at), ip: previous.ip } : null,
    current_login: {
      at: current ? isoText(current.created_at) : new Date().toISOString(),
      ip: current?.ip ?? null,
    },
    password_verified_until: verifiedUntil && verifiedUntil > new Date() ? verifiedUntil.toISOString() : null,
  };
}

export async function listSessions(db: Db, auth: TMemberAuth): Promise<TSessionsResponse> {
  const rows = await listActiveSessions(db, auth.memberId);
  return {
    list: rows.map((row) => ({
      id: Number(row.id),
      created_at: isoText(row.created_at),
      last_seen_at: isoText(row.last_seen_at),
      ip: row.ip,
      user_agent: row.user_agent,
      current: row.id === auth.sessionId.toString(),
    })),
  };
}

/** Ends one of the member's own sessions (another member's id is simply not found). */
export async function endOwnSession(
  db: Db,
  site: TSite,
  auth: TMemberAuth,
  sessionId: bigint,
  client: TClientInfo,
): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await endMemberSessions(tx, auth.memberId, 'ended_by_player', { onlySessionId: sessionId });
    if (ended === 0) throw new AppError('NOT_FOUND');
    await recordSecurityEvent(tx, site, auth.memberId, 'session_ended', client, {
      session_id: Number(sessionId),
    });
  });
}

export async function listEvents(db: Db, auth: TMemberAuth): Promise<TSecurityEventsResponse> {
  const rows = await listSecurityEvents(db, auth.memberId, EVENTS_SHOWN);
  return {
    list: rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      ip: row.ip,
      user_agent: row.user_agent,
      created_at: isoText(row.created_at),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Email: binding an address, resetting a forgotten password

function codeHash(code: string, memberId: bigint, purpose: string): string {
  return sha256Hex(`${purpose}:${memberId}:${code}`);
}

function memberLanguage(member: TSecurityMember): TLanguage {
  return normalizeLanguage(member.lang) ?? 'en';
}

async function issueEmailCode(
  tx: Executor,
  site: TSite,
  member: TSecurityMember,
  purpose: 'bind_email' | 'reset_password',
  email: string,
): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await replaceEmailCode(tx, {
    siteId: site.id,
    memberId: member.id,
    purpose,
    email,
    codeHash: codeHash(code, member.id, purpose),
    minutes: EMAIL_CODE_MINUTES,
  });
  const lang = memberLanguage(member);
  const kind = purpose === 'bind_email' ? 'bind' : 'reset';
  await enqueueMail(tx, {
    siteId: site.id,
    memberId: member.id,
    to: email,
    subject: translate(lang, `mail.${kind}_subject`, { site: site.name }),
    text: translate(lang, `mail.${kind}_body`, { user: member.username, code }),
  });
}

/** Spends a matching emailed code (or counts a wrong try); EMAIL_CODE_INVALID when none matches. */
async function consumeEmailCode(
  tx: Executor,
  member: TSecurityMember,
  purpose: 'bind_email' | 'reset_password',
  code: string,
  email?: string,
): Promise<string> {
  const row = await lockLiveEmailCode(tx, member.id, purpose);
  if (!row || (email !== undefined && row.email !== email)) throw new AppError('EMAIL_CODE_INVALID');
  if (row.code_hash !== codeHash(code.trim(), member.id, purpose)) {
    const attempts = Number(row.attempts) + 1;
    await recordEmailCodeAttempt(tx, row.id, attempts, EMAIL_CODE_MAX_ATTEMPTS);
    return '';
  }
  await spendEmailCode(tx, row.id);
  return row.email;
}

export async function sendBindEmailCode(
  db: Db,
  site: TSite,
  auth: TMemberAuth,
  email: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const member = await lockedMember(tx, site, auth.memberId);
    await assertEmailFree(tx, site, member.id, email);
    await issueEmailCode(tx, site, member, 'bind_email', email);
  });
}

async function assertEmailFree(tx: Executor, site: TSite, memberId: bigint, email: string): Promise<void> {
  if (await emailTaken(tx, site.id, memberId, email))
    throw new AppError('EMAIL_IN_USE', { fieldErrors: { email: 'errors.EMAIL_IN_USE' } });
}

export async function bindEmail(
  db: Db,
  site: TSite,
  auth: TMemberAuth,
  input: { email: string; code: string },
  client: TClientInfo,
): Promise<void> {
  // A wrong code is counted even though the refusal rolls nothing else back.
  const bound = await db.transaction(async (tx) => {
    const member = await lockedMember(tx, site, auth.memberId);
    const email = await consumeEmailCode(tx, member, 'bind_email', input.code, input.email);
    if (!email) return false;
    await assertEmailFree(tx, site, member.id, email);
    await updateMemberSecrets(tx, member.id, { email });
    await recordSecurityEvent(tx, site, member.id, 'email_bound', client);
    return true;
  });
  if (!bound)
    throw new AppError('EMAIL_CODE_INVALID', { fieldErrors: { code: 'errors.EMAIL_CODE_INVALID' } });
}

/**
 * Emails a reset code when the account exists and has a confirmed email. The answer is the same
 * either way, so it does not tell who is registered.
 */
export async function forgotPassword(db: Db, site: TSite, username: string): Promise<void> {
  const member = await findSecurityMemberByUsername(db, site.id, username);
  if (!member?.email || !member.emailVerifiedAt || member.status !== 1) return;
  const email = member.email;
  await db.transaction(async (tx) => {
    const locked = await lockedMember(tx, site, member.id);
    await issueEmailCode(tx, site, locked, 'reset_password', email);
  });
}

/** Sets a new password from an emailed code; every session of the member ends. */
export async function resetPassword(
  db: Db,
  site: TSite,
  input: TResetPasswordRequest,
  client: TClientInfo,
): Promise<void> {
  const member = await findSecurityMemberByUsername(db, site.id, input.username);
  if (!member)
    throw new AppError('EMAIL_CODE_INVALID', { fieldErrors: { code: 'errors.EMAIL_CODE_INVALID' } });
  const passwordHash = await hashSecret(input.new_password);
  const done = await db.transaction(async (tx) => {
    const locked = await lockedMember(tx, site, member.id);
    const email = await consumeEmailCode(tx, locked, 'reset_password', input.code);
    if (!email) return false;
    await updateMemberSecrets(tx, member.id, { passwordHash });
    await endMemberSessions(tx, member.id, 'password_changed');
    await recordSecurityEvent(tx, site, member.id, 'password_reset', client);
    return true;
  });
  if (!done) throw new AppError('EMAIL_CODE_INVALID', { fieldErrors: { code: 'errors.EMAIL_CODE_INVALID' } });
}

// ---------------------------------------------------------------------------------------------
// Two-factor authentication (TOTP)

export async function setupTotp(db: Db, site: TSite, auth: TMemberAuth): Promise<TTotpSetupResponse> {
  return db.transaction(async (tx) => {
    const member = await lockedMember(tx, site, auth.memberId);
    if (member.totpEnabledAt) throw new AppError('TOTP_ALREADY_ENABLED');
    const secret = newTotpSecret();
    await updateMemberSecrets(tx, member.id, { totpSecret: secret });
    const uri = totpUri(site.name, member.username, secret);
    return { secret, otpauth_url: uri, qr: await totpQrDataUrl(uri) };
  });
}

export async function enableTotp(
  deps: TSecurityDeps,
  site: TSite,
  auth: TMemberAuth,
  code: string,
  client: TClientInfo,
): Promise<{ recovery_codes: string[] }> {
  const member = await findSecurityMember(deps.db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (member.totpEnabledAt) throw new AppError('TOTP_ALREADY_ENABLED');
  if (!member.totpSecret) throw new AppError('TOTP_NOT_SET_UP');
  // Checked as if it were on: the same lockout counts wrong first codes.
  await assertSecondFactor(
    deps.db,
    deps.throttle,
    site,
    { ...member, totpEnabledAt: new Date() },
    code,
    client,
  );
  const codes = newRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    await lockedMember(tx, site, member.id);
    await updateMemberSecrets(tx, member.id, { totpEnabled: true });
    await spendUnusedMemberRecoveryCodes(tx, member.id);
    for (const recovery of codes) await insertMemberRecoveryCode(tx, member.id, recoveryCodeHash(recovery));
    await recordSecurityEvent(tx, site, member.id, 'totp_enabled', client);
  });
  return { recovery_codes: codes };
}

export async function disableTotp(
  deps: TSecurityDeps,
  site: TSite,
  auth: TMemberAuth,
  input: { password: string; code: string },
  client: TClientInfo,
): Promise<void> {
  const member = await findSecurityMember(deps.db, site.id, auth.memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (!(await verifySecret(member.passwordHash, input.password))) {
    throw new AppError('OLD_PASSWORD_WRONG', { fieldErrors: { password: 'errors.OLD_PASSWORD_WRONG' } });
  }
  if (!member.totpEnabledAt) return;
  await assertSecondFactor(deps.db, deps.throttle, site, member, input.code, client);
  await deps.db.transaction(async (tx) => {
    await lockedMember(tx, site, member.id);
    await updateMemberSecrets(tx, member.id, { totpEnabled: false, totpSecret: null });
    await spendUnusedMemberRecoveryCodes(tx, member.id);
    await recordSecurityEvent(tx, site, member.id, 'totp_disabled', client);
  });
}
