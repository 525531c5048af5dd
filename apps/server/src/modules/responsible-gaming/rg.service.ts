import {
  formatMinor,
  MAX_TIME_LIMIT_MINUTES,
  parseMinor,
  type TRgLimitKind,
  type TRgPeriod,
  type TRgStatus,
  type TSetRgLimitRequest,
} from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { kycRequired } from '../kyc/kyc.gate.ts';
import { siteJurisdiction } from '../promotions/promotions.repo.ts';
import { endMemberSessions, findSecurityMember } from '../security/security.repo.ts';
import { recordSecurityEvent, type TClientInfo } from '../security/security-events.ts';
import { verifySecret } from '../sessions/passwords.ts';
import { forgetMemberSessions } from '../sessions/session-cache.ts';
import { forfeitActiveGrants } from '../wallet/bonus/grants.ts';
import {
  findActiveExclusion,
  findGate,
  findJurisdictionProfile,
  findLimits,
  findRealityCheckMinutes,
  gateParts,
  insertExclusion,
  lockMemberRow,
  PLAY_LIMIT_KINDS,
  setSessionsPlayUntil,
  sumDeposits,
  sumPlay,
  sumSessionMinutes,
  type TExclusionRow,
  type TGate,
  type TLimitRow,
  updateRealityCheckMinutes,
  upsertLimit,
} from './rg.repo.ts';

/**
 * Responsible gaming: the one place that decides whether a member may play, deposit or stay
 * logged in. Bet paths call `assertPlayAllowed`, deposit creation `assertDepositAllowed`, login
 * `loginRestriction` and session authentication `assertSessionTimeLeft`; each refusal names the
 * limit, what is left and when it resets, in the player's language.
 */

type TSiteRef = Pick<TSite, 'id' | 'jurisdiction'>;

/** The refusal of an active pause or exclusion (withdrawals stay open). */
export function exclusionError(exclusion: TExclusionRow, site: TSiteRef): AppError {
  const timeZone = siteTimeZone(site);
  if (exclusion.kind === 'cooling_off') {
    return new AppError('COOLING_OFF', {
      params: { until: exclusion.endsAt!.toISOString(), time_zone: timeZone },
    });
  }
  if (exclusion.kind === 'registry') return new AppError('REGISTRY_IMPEDED');
  if (!exclusion.endsAt)
    return new AppError('SELF_EXCLUDED', { messageKey: 'errors.SELF_EXCLUDED_INDEFINITE' });
  return new AppError('SELF_EXCLUDED', {
    params: { until: exclusion.endsAt.toISOString(), time_zone: timeZone },
  });
}

function limitError(
  code: 'RG_DEPOSIT_LIMIT' | 'RG_LOSS_LIMIT' | 'RG_STAKE_LIMIT',
  limit: TLimitRow,
  usedMinor: bigint,
  site: TSiteRef,
): AppError {
  const left = limit.value! > usedMinor ? limit.value! - usedMinor : 0n;
  return new AppError(code, {
    params: {
      period: `rg.period.${limit.period}`,
      limit: formatMinor(limit.value!),
      left: formatMinor(left),
      reset_at: limit.resetsAt.toISOString(),
      time_zone: siteTimeZone(site),
    },
    extra: { limit: { kind: limit.kind, period: limit.period, resets_at: limit.resetsAt.toISOString() } },
  });
}

/**
 * What a bet's own statement can read with it (`gateParts`), to pass to `assertPlayAllowed`: the
 * in-house bet opens its round and reads the gate in one round trip.
 */
export async function playGateParts(executor: Executor, player: { siteId: bigint; memberId: bigint }) {
  const site = { id: player.siteId, jurisdiction: await siteJurisdiction(executor, player.siteId) };
  return gateParts(player.memberId, siteTimeZone(site), PLAY_LIMIT_KINDS, 'bet');
}

/**
 * A member's bet of `stakeMinor` (in-house, crash or third-party), in the bet's transaction:
 * refused during a pause or exclusion, past a stake limit, or when losing the stake could pass a
 * loss limit (net loss = stakes − wins and refunds of the period). `read`: the gate as the bet's
 * own statement read it (`playGateParts`), else it is read here.
 */
export async function assertPlayAllowed(
  tx: Executor,
  player: { siteId: bigint; memberId: bigint },
  stakeMinor: bigint,
  read?: TGate,
): Promise<void> {
  // Every bet asks: the site's jurisdiction comes from the per-process cache the stake path uses.
  const site = { id: player.siteId, jurisdiction: await siteJurisdiction(tx, player.siteId) };
  const gate = read ?? (await findGate(tx, player.memberId, siteTimeZone(site), PLAY_LIMIT_KINDS, 'bet'));
  const limits: TLimitRow[] = [];
  if (!gate.exclusion && !gate.kycMissing && !gate.termsPending) {
    for (const limit of gate.limits) {
      if (limit.value === null) continue;
      limits.push(
        limit.play ? limit : { ...limit, play: await sumPlay(tx, player.memberId, limit.periodStart) },
      );
    }
  }
  const refusal = playRefusal(site, { ...gate, limits }, stakeMinor);
  if (refusal) throw refusal;
}

/**
 * The decision of `assertPlayAllowed` on a gate whose limits carry their period's play (grouped
 * bets read it for many members in one statement): the refusal, or null when the bet may go on.
 */
export function playRefusal(site: TSiteRef, gate: TGate, stakeMinor: bigint): AppError | null {
  if (gate.exclusion) return exclusionError(gate.exclusion, site);
  if (gate.kycMissing) return kycRequired('bet', gate.kycMissing);
  if (gate.termsPending) return new AppError('TERMS_NOT_ACCEPTED');
  for (const limit of gate.limits) {
    if (limit.value === null) continue;
    const play = limit.play;
    if (!play) throw new Error(`the ${limit.kind} limit was read without its period's play`);
    if (limit.kind === 'stake' && play.stakedMinor + stakeMinor > limit.value) {
      return limitError('RG_STAKE_LIMIT', limit, play.stakedMinor, site);
    }
    if (limit.kind === 'loss') {
      const lossMinor = play.stakedMinor > play.returnedMinor ? play.stakedMinor - play.returnedMinor : 0n;
      if (lossMinor + stakeMinor > limit.value) return limitError('RG_LOSS_LIMIT', limit, lossMinor, site);
    }
  }
  return null;
}

/**
 * A deposit order of `amountMinor`: refused during a pause or exclusion, before the identity checks
 * the site's KYC rule requires, and past a deposit limit.
 */
export async function assertDepositAllowed(
  executor: Executor,
  site: TSite,
  memberId: bigint,
  amountMinor: bigint,
): Promise<void> {
  const gate = await findGate(executor, memberId, siteTimeZone(site), ['deposit'], 'deposit');
  if (gate.exclusion) throw exclusionError(gate.exclusion, site);
  if (gate.kycMissing) throw kycRequired('deposit', gate.kycMissing);
  if (gate.termsPending) throw new AppError('TERMS_NOT_ACCEPTED');
  for (const limit of gate.limits) {
    if (limit.value === null) continue;
    const used = await sumDeposits(executor, memberId, limit.periodStart);
    if (used + amountMinor > limit.value) throw limitError('RG_DEPOSIT_LIMIT', limit, used, site);
  }
}

/** The session-time limit that runs out first: minutes left and when its period resets. */
async function sessionTimeLeft(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
): Promise<{ limit: TLimitRow; leftMinutes: number } | null> {
  const limits = await findLimits(executor, memberId, siteTimeZone(site), ['session_time']);
  let tightest: { limit: TLimitRow; leftMinutes: number } | null = null;
  for (const limit of limits) {
    if (limit.value === null) continue;
    const used = await sumSessionMinutes(executor, memberId, limit.periodStart);
    const leftMinutes = Number(limit.value) - used;
    if (!tightest || leftMinutes < tightest.leftMinutes) tightest = { limit, leftMinutes };
  }
  return tightest;
}

function timeLimitError(limit: TLimitRow, site: TSiteRef): AppError {
  return new AppError('RG_TIME_LIMIT', {
    params: {
      period: `rg.period.${limit.period}`,
      limit: String(limit.value),
      reset_at: limit.resetsAt.toISOString(),
      time_zone: siteTimeZone(site),
    },
  });
}

/**
 * Sets when each open session of the member runs out of session time (play_until), from the
 * tightest session-time limit; null when none applies before its period resets.
 */
export async function scheduleSessionClock(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
): Promise<void> {
  const left = await sessionTimeLeft(executor, site, memberId);
  const until =
    left && Date.now() + left.leftMinutes * 60_000 < left.limit.resetsAt.getTime()
      ? new Date(Date.now() + Math.max(0, left.leftMinutes) * 60_000)
      : null;
  await setSessionsPlayUntil(executor, memberId, until);
  forgetMemberSessions(memberId);
}

/**
 * Called when a session's play_until has passed: ends the member's sessions (reason time_limit)
 * and answers the refusal naming the limit and when play can resume.
 */
export async function endSessionsPastTimeLimit(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
): Promise<AppError> {
  const left = await sessionTimeLeft(executor, site, memberId);
  if (left && left.leftMinutes > 0) {
    // The limit was loosened or its period reset since the clock was set: carry on.
    await scheduleSessionClock(executor, site, memberId);
    return new AppError('RG_TIME_LIMIT');
  }
  await endMemberSessions(executor, memberId, 'time_limit');
  return left ? timeLimitError(left.limit, site) : new AppError('UNAUTHENTICATED');
}

/**
 * What a login must know: null to open a normal session; an exclusion → a restricted session
 * (withdrawals only) and the refusal to show; a used-up session-time limit → refused outright.
 */
export async function loginRestriction(
  executor: Executor,
  site: TSite,
  memberId: bigint,
): Promise<{ restricted: AppError } | null> {
  const exclusion = await findActiveExclusion(executor, memberId);
  if (exclusion) return { restricted: exclusionError(exclusion, site) };
  const left = await sessionTimeLeft(executor, site, memberId);
  if (left && left.leftMinutes <= 0) throw timeLimitError(left.limit, site);
  return null;
}

/** The exclusion refusal of a login, carrying the withdrawals-only session it opened. */
export function withWithdrawalSession(
  error: AppError,
  session: { token: string; expiresAt: Date },
): AppError {
  return new AppError(error.code, {
    messageKey: error.messageKey,
    ...(error.params ? { params: error.params } : {}),
    extra: { withdrawal_session: { token: session.token, expires_at: session.expiresAt.toISOString() } },
  });
}

/** Paths a restricted (paused or excluded) session may still use: balance, withdrawal, account. */
const RESTRICTED_ALLOWED = [
  '/api/auth/me',
  '/api/auth/logout',
  '/api/drawing',
  '/api/member/bank',
  '/api/day7/getAllBalance',
  '/api/transaction/record',
  '/api/responsible-gaming',
  '/api/security/overview',
  '/api/profilepictures',
];

/**
 * The session rules checked on every member request: a restricted session (opened during a pause
 * or exclusion) reaches only RESTRICTED_ALLOWED; a session whose play time ran out ends.
 */
export async function enforceSessionRules(
  executor: Executor,
  site: TSiteRef,
  session: { memberId: bigint; restricted: boolean; playTimeUp: boolean },
  path: string,
): Promise<void> {
  if (session.restricted) {
    const bare = path.split('?')[0] ?? path;
    if (RESTRICTED_ALLOWED.some((prefix) => bare === prefix || bare.startsWith(`${prefix}/`))) return;
    const exclusion = await findActiveExclusion(executor, session.memberId);
    if (exclusion) throw exclusionError(exclusion, site);
    return;
  }
  if (session.playTimeUp) throw await endSessionsPastTimeLimit(executor, site, session.memberId);
}

// ---------------------------------------------------------------------------------------------
// The player's settings

export function parseLimitValue(kind: TRgLimitKind, period: TRgPeriod, text: string): bigint {
  if (kind === 'session_time') {
    if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > MAX_TIME_LIMIT_MINUTES[period]) {
      throw new AppError('VALIDATION_FAILED', { fieldErrors: { value: 'validation.invalid' } });
    }
    return BigInt(text);
  }
  const minor = parseMinor(text);
  if (minor === null || minor <= 0n) {
    throw new AppError('VALIDATION_FAILED', { fieldErrors: { value: 'validation.amount_invalid' } });
  }
  return minor;
}

/**
 * Sets one limit. A new or lower limit applies at once (any pending loosening is dropped); a higher
 * one or a removal waits the profile's delay (24 h) and is shown as pending until then.
 */
export async function setLimit(
  db: Db,
  site: TSite,
  memberId: bigint,
  input: TSetRgLimitRequest,
  client: TClientInfo,
): Promise<{ pendingEffectiveAt: Date | null }> {
  const profile = await findJurisdictionProfile(db, site);
  const wanted = input.value === null ? null : parseLimitValue(input.kind, input.period, input.value);
  return db.transaction(async (tx) => {
    await lockMemberRow(tx, memberId);
    const current = (await findLimits(tx, memberId, siteTimeZone(site), [input.kind])).find(
      (limit) => limit.period === input.period,
    );
    const currentValue = current?.value ?? null;
    const tighter = wanted !== null && (currentValue === null || wanted <= currentValue);
    let pendingEffectiveAt: Date | null = null;
    if (tighter) {
      await upsertLimit(tx, {
        siteId: site.id,
        memberId,
        kind: input.kind,
        period: input.period,
        value: wanted,
        pendingValue: null,
        pendingRemove: false,
        pendingEffectiveAt: null,
      });
    } else if (currentValue === null) {
      // Removing a limit that is not there: nothing to do.
      return { pendingEffectiveAt: null };
    } else {
      pendingEffectiveAt = new Date(Date.now() + profile.loosenDelayHours * 3_600_000);
      await upsertLimit(tx, {
        siteId: site.id,
        memberId,
        kind: input.kind,
        period: input.period,
        value: currentValue,
        pendingValue: wanted,
        pendingRemove: wanted === null,
        pendingEffectiveAt,
      });
    }
    await recordSecurityEvent(tx, site, memberId, 'limit_changed', client, {
      kind: input.kind,
      period: input.period,
      value: input.value,
      pending: pendingEffectiveAt !== null,
    });
    if (input.kind === 'session_time') await scheduleSessionClock(tx, site, memberId);
    return { pendingEffectiveAt };
  });
}

export async function setRealityCheck(db: Db, memberId: bigint, minutes: number): Promise<void> {
  await updateRealityCheckMinutes(db, memberId, minutes);
}

/**
 * Starts a pause (cooling-off, days) or a self-exclusion (months; 0 = indefinite) after the login
 * password: every session ends at once; the next login opens a withdrawals-only session.
 */
export async function startExclusion(
  db: Db,
  site: TSite,
  memberId: bigint,
  input: { kind: 'cooling_off' | 'self_exclusion'; days?: number; months?: number; password: string },
  client: TClientInfo,
): Promise<void> {
  const member = await findSecurityMember(db, site.id, memberId);
  if (!member) throw new AppError('UNAUTHENTICATED');
  if (!(await verifySecret(member.passwordHash, input.password))) {
    throw new AppError('OLD_PASSWORD_WRONG', { fieldErrors: { password: 'errors.OLD_PASSWORD_WRONG' } });
  }
  const now = new Date();
  let endsAt: Date | null;
  if (input.kind === 'cooling_off') {
    endsAt = new Date(now.getTime() + (input.days ?? 1) * 86_400_000);
  } else if (input.months) {
    endsAt = new Date(now);
    endsAt.setUTCMonth(endsAt.getUTCMonth() + input.months);
  } else {
    endsAt = null;
  }
  await db.transaction(async (tx) => {
    await insertExclusion(tx, { siteId: site.id, memberId, kind: input.kind, endsAt });
    await endMemberSessions(tx, memberId, 'self_excluded');
    // Bonuses do not wait for the player's return: forfeited at once, the rest back by the ledger.
    await forfeitActiveGrants(tx, { siteId: site.id, memberId });
    await recordSecurityEvent(
      tx,
      site,
      memberId,
      input.kind === 'cooling_off' ? 'cooling_off' : 'self_exclusion',
      client,
      {
        ends_at: endsAt?.toISOString() ?? null,
      },
    );
  });
}

export async function getRgStatus(db: Db, site: TSite, memberId: bigint): Promise<TRgStatus> {
  const profile = await findJurisdictionProfile(db, site);
  const timeZone = siteTimeZone(site);
  const limits = await findLimits(db, memberId, timeZone);
  const exclusion = await findActiveExclusion(db, memberId);
  const ownRealityCheck = await findRealityCheckMinutes(db, memberId);
  const views = [];
  for (const limit of limits) {
    let used: string;
    if (limit.kind === 'deposit') used = formatMinor(await sumDeposits(db, memberId, limit.periodStart));
    else if (limit.kind === 'session_time')
      used = String(await sumSessionMinutes(db, memberId, limit.periodStart));
    else {
      const play = await sumPlay(db, memberId, limit.periodStart);
      const value =
        limit.kind === 'stake'
          ? play.stakedMinor
          : play.stakedMinor > play.returnedMinor
            ? play.stakedMinor - play.returnedMinor
            : 0n;
      used = formatMinor(value);
    }
    const show = (value: bigint | null) =>
      value === null ? null : limit.kind === 'session_time' ? value.toString() : formatMinor(value);
    views.push({
      kind: limit.kind,
      period: limit.period,
      value: show(limit.value),
      used,
      resets_at: limit.resetsAt.toISOString(),
      pending_value: show(limit.pendingValue),
      pending_remove: limit.pendingRemove,
      pending_effective_at: limit.pendingEffectiveAt?.toISOString() ?? null,
    });
  }
  return {
    limits: views,
    reality_check_minutes: ownRealityCheck ?? profile.realityCheckMinutes,
    exclusion: exclusion
      ? {
          kind: exclusion.kind,
          starts_at: exclusion.startsAt.toISOString(),
          ends_at: exclusion.endsAt?.toISOString() ?? null,
        }
      : null,
    profile: {
      mandatory_limits: profile.mandatoryLimits,
      loosen_delay_hours: profile.loosenDelayHours,
      requires_cpf: profile.requiresCpf,
      requires_birth_date: profile.requiresBirthDate,
      shows_risk_message: profile.showsRiskMessage,
      self_exclusion_registry: profile.selfExclusionRegistry,
    },
  };
}
