import type { TLanguage, TLoginRequest, TRegisterRequest, TSessionResponse } from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import { notifyIfNewDevice } from '../information/information.service.ts';
import { newInviteCode } from '../members/invite-code.ts';
import { getUserInfo } from '../members/member-info.ts';
import {
  findMemberById,
  findMemberByInviteCode,
  findMemberByUsername,
  insertMember,
  isCpfTaken,
} from '../members/members.repo.ts';
import type { TMemberRow } from '../members/members.schema.ts';
import { normalizePhone } from '../members/phone.ts';
import { registrationExtras, storeRegistrationExtras } from '../responsible-gaming/registration-rules.ts';
import type { RegistryGateway } from '../responsible-gaming/registry.connection.ts';
import { assertNotOnRegistry, checkRegistryAtLogin } from '../responsible-gaming/registry.service.ts';
import {
  loginRestriction,
  scheduleSessionClock,
  withWithdrawalSession,
} from '../responsible-gaming/rg.service.ts';
import { assertLoginSecurity, findPreviousLogin, recordLogin } from '../security/login-security.ts';
import type { LoginThrottle } from '../sessions/login-throttle.ts';
import { hashSecret, verifyAgainstDummy, verifySecret } from '../sessions/passwords.ts';
import {
  claimRefreshToken,
  refreshRefused,
  revokeRefreshFamilies,
  rotateRefreshToken,
} from '../sessions/refresh-tokens.repo.ts';
import { createMemberSession, idleMinutesOf, sessionIdle } from '../sessions/sessions.service.ts';
import { openMemberAccounts } from '../wallet/accounts.ts';
import type { CaptchaService } from './captcha.service.ts';

/**
 * Who is calling: the address, the user agent, the language, and the device id the web app keeps
 * for this browser (`x-sorte-device`; null when absent or not an id), which compliance compares
 * across accounts (ADR 040) where a user agent, shared by every phone of a model, could not.
 */
export type TClient = {
  ip: string | null;
  userAgent: string | null;
  deviceId?: string | null;
  lang: TLanguage;
};

export type TAuthDeps = {
  executor: Executor;
  captcha: CaptchaService;
  throttle: LoginThrottle;
  limits: { maxFailuresPerAccount: number; maxFailuresPerIp: number };
  /** The national self-exclusion registry (asked where the site's jurisdiction profile says so). */
  registry: RegistryGateway;
};

const INVITE_CODE_ATTEMPTS = 5;

async function toSessionResponse(
  deps: TAuthDeps,
  site: TSite,
  member: TMemberRow,
  session: { token: string; expiresAt: Date; id: bigint },
): Promise<TSessionResponse> {
  return {
    token: session.token,
    token_type: 'Bearer',
    expires_at: session.expiresAt.toISOString(),
    user: await getUserInfo(deps.executor, site, member.id),
    previous_login: await findPreviousLogin(deps.executor, member.id, session.id),
  };
}

/**
 * Registers a player on this site and logs them in. Order matters: the captcha is spent first (so a
 * bot cannot probe which names are free), then the introducer's code, then the insert, where the
 * database's unique index is the final word on duplicate names (case-insensitive).
 */
export async function register(
  deps: TAuthDeps,
  site: TSite,
  input: TRegisterRequest,
  client: TClient,
): Promise<TSessionResponse> {
  await deps.captcha.verify(site.id, input.captcha_id, input.captcha_code);

  let introducer: TMemberRow | null = null;
  if (input.invite_code) {
    introducer = await findMemberByInviteCode(deps.executor, site.id, input.invite_code);
    if (!introducer) {
      throw new AppError('INVITE_CODE_UNKNOWN', {
        fieldErrors: { invite_code: 'errors.INVITE_CODE_UNKNOWN' },
      });
    }
  }
  if (await findMemberByUsername(deps.executor, site.id, input.username)) {
    throw new AppError('USERNAME_TAKEN', { fieldErrors: { username: 'errors.USERNAME_TAKEN' } });
  }
  // The site's jurisdiction profile: CPF, date of birth (min_age), mandatory limits; then the
  // national self-exclusion registry for the CPF, before anything is created.
  const extras = await registrationExtras(deps.executor, site, input);
  if (extras.cpf !== null && (await isCpfTaken(deps.executor, site.id, extras.cpf))) {
    throw new AppError('CPF_IN_USE', { fieldErrors: { cpf: 'errors.CPF_IN_USE' } });
  }
  const registryChecked =
    extras.cpf !== null && (await assertNotOnRegistry(deps.executor, deps.registry, site, extras.cpf));

  const [passwordHash, qkPwdHash] = await Promise.all([
    hashSecret(input.password),
    input.qk_pwd ? hashSecret(input.qk_pwd) : null,
  ]);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { member, session } = await deps.executor.transaction(async (tx) => {
        const member = await insertMember(tx, {
          siteId: site.id,
          username: input.username,
          passwordHash,
          qkPwdHash,
          realname: input.realname,
          phone: normalizePhone(input.phone),
          inviteCode: newInviteCode(),
          // top_id is the root of the invitation chain, agent_id the direct introducer.
          topId: introducer ? (introducer.topId ?? introducer.id) : null,
          agentId: introducer ? introducer.id : null,
          lang: client.lang,
          registerIp: client.ip,
        });
        // In the same transaction: a member never exists without their wallet accounts.
        await openMemberAccounts(tx, { siteId: site.id, memberId: member.id });
        await storeRegistrationExtras(tx, site, member.id, extras, registryChecked);
        return { member, session: await createMemberSession(tx, site, member.id, client) };
      });
      if (extras.limits.some((limit) => limit.kind === 'session_time')) {
        await scheduleSessionClock(deps.executor, site, member.id);
      }
      return await toSessionResponse(deps, site, member, session);
    } catch (error) {
      if (isUniqueViolation(error, 'username')) {
        throw new AppError('USERNAME_TAKEN', { fieldErrors: { username: 'errors.USERNAME_TAKEN' } });
      }
      if (isUniqueViolation(error, 'members_site_cpf')) {
        throw new AppError('CPF_IN_USE', { fieldErrors: { cpf: 'errors.CPF_IN_USE' } });
      }
      if (isUniqueViolation(error, 'invite_code') && attempt < INVITE_CODE_ATTEMPTS) continue;
      throw error;
    }
  }
}

/**
 * Logs a player in. Locked accounts and addresses are refused before any password work; every
 * attempt is counted against both the account name and the address before its password is checked
 * (kept when wrong, taken back when right); the answer never says whether the name exists. The
 * account's failures are forgiven only once the whole login, second factor included, succeeded.
 */
export async function login(
  deps: TAuthDeps,
  site: TSite,
  input: TLoginRequest,
  client: TClient,
): Promise<TSessionResponse> {
  const accountKey = input.username.toLowerCase();
  const keys = [
    { scope: 'account' as const, key: accountKey, max: deps.limits.maxFailuresPerAccount },
    { scope: 'ip' as const, key: client.ip ?? 'unknown', max: deps.limits.maxFailuresPerIp },
  ];
  await deps.throttle.assertAllowed(site.id, keys);
  await deps.captcha.verify(site.id, input.captcha_id, input.captcha_code);

  const attempt = await deps.throttle.reserve(site.id, keys);
  const member = await findMemberByUsername(deps.executor, site.id, input.username);
  const valid = member
    ? await verifySecret(member.passwordHash, input.password)
    : await verifyAgainstDummy(input.password);
  if (!member || !valid || member.deletedAt) {
    await attempt.fail();
    throw new AppError('INVALID_CREDENTIALS');
  }
  await attempt.release();
  if (member.status !== 1) throw new AppError('ACCOUNT_DISABLED');
  await assertLoginSecurity(deps.executor, deps.throttle, site, member.id, input.totp_code, client);
  await deps.throttle.clear(site.id, 'account', accountKey);
  await checkRegistryAtLogin(deps.executor, deps.registry, site, member.id);
  const restriction = await loginRestriction(deps.executor, site, member.id);
  const session = await createMemberSession(deps.executor, site, member.id, client, {
    restricted: restriction !== null,
  });
  await notifyIfNewDevice(deps.executor, site, member.id, client);
  await recordLogin(deps.executor, site, member.id, client);
  if (restriction) {
    // Paused or excluded: no session to play, only one to withdraw the balance with.
    throw withWithdrawalSession(restriction.restricted, session);
  }
  await scheduleSessionClock(deps.executor, site, member.id);
  return toSessionResponse(deps, site, member, session);
}

/**
 * "Keep me signed in": trades a remembered device's refresh token for a new session and the
 * family's next refresh token. Everything a login checks after the password is checked again (the
 * account, the national registry, pauses, exclusions and time limits) and a session idle past its
 * profile's re-authentication minutes is not resumed (SESSION_IDLE); a refusal revokes the family,
 * so the device asks for the password next time.
 */
export async function refresh(
  deps: TAuthDeps,
  site: TSite,
  refreshToken: string | null,
  client: TClient,
): Promise<{ session: TSessionResponse; refreshToken: string }> {
  if (!refreshToken) throw refreshRefused();
  const claim = await claimRefreshToken(deps.executor, site.id, refreshToken);
  let member: TMemberRow | null = null;
  try {
    member = await findMemberById(deps.executor, site.id, claim.memberId);
    if (!member || member.deletedAt) throw refreshRefused();
    // The profile requires the password after this much idleness: a cookie does not resume it.
    if (claim.reauthDue) throw sessionIdle(idleMinutesOf(site, claim.reauthIdleMinutes));
    if (member.status !== 1) throw new AppError('ACCOUNT_DISABLED');
    await checkRegistryAtLogin(deps.executor, deps.registry, site, member.id);
    const restriction = await loginRestriction(deps.executor, site, member.id);
    if (restriction) throw restriction.restricted;
  } catch (error) {
    await revokeRefreshFamilies(deps.executor, claim.memberId, 'refused', { familyId: claim.familyId });
    throw error;
  }
  const opened = await deps.executor.transaction(async (tx) => {
    const session = await createMemberSession(tx, site, claim.memberId, client);
    return { session, next: await rotateRefreshToken(tx, claim, session.id) };
  });
  await scheduleSessionClock(deps.executor, site, claim.memberId);
  return {
    session: await toSessionResponse(deps, site, member, opened.session),
    refreshToken: opened.next,
  };
}
