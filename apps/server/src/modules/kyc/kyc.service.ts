import {
  formatMinor,
  isMessageKey,
  type TKycCheck,
  type TKycStatus,
  type TLanguage,
  translate,
} from '@sorte/contract';
import { pepFlagged } from '../../core/kyc-events.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { forceOffline } from '../sessions/sessions.service.ts';
import type { KycGateway } from './kyc.connection.ts';
import { kycRequired, missingChecks } from './kyc.gate.ts';
import {
  addPassedCheck,
  findKycRules,
  findLatestSession,
  findMemberIdentity,
  findMemberKyc,
  insertCheck,
  insertSession,
  lockSessionByProviderId,
  recordWebhookEvent,
  setPep,
  type TKycRule,
  updateSession,
} from './kyc.repo.ts';
import type { TKycEvent } from './kyc.webhook.ts';

/**
 * Identity verification: what the site's jurisdiction requires (kyc_rules), what the member has
 * passed, the CPF check (asked of the provider, compared here), the document-and-selfie session at
 * the provider and its decisions by webhook. The deposit and bet gate lives in responsible gaming's
 * gate statement (kycMissingExpression); the withdrawal gate is `assertWithdrawalVerified`.
 */

export type TKycDeps = { db: Db; kyc: KycGateway };
type TSiteRef = Pick<TSite, 'id' | 'jurisdiction'>;

/** Every check some rule of the site requires, in a stable order. */
function requiredByAnyRule(rules: readonly TKycRule[]): TKycCheck[] {
  const all = new Set(rules.flatMap((rule) => rule.requiredChecks));
  return (['cpf', 'identity'] as const).filter((check) => all.has(check));
}

const CAPTURE_OPEN = new Set(['created', 'resubmission_requested']);

/** A rule's legal basis in `lang` (its message), or the stored citation when it has none. */
function legalBasisIn(lang: TLanguage, rule: TKycRule): string {
  const key = `kyc.legal_basis.${rule.legalBasisKey}`;
  return isMessageKey(key) ? translate(lang, key) : rule.legalBasis;
}

export async function getKycStatus(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
  lang: TLanguage = 'en',
): Promise<TKycStatus> {
  const rules = await findKycRules(executor, site);
  const state = await findMemberKyc(executor, memberId);
  const session = await findLatestSession(executor, memberId);
  return {
    passed_checks: state.passedChecks,
    missing_checks: missingChecks(requiredByAnyRule(rules), state.passedChecks),
    requirements: rules.map((rule) => ({
      action: rule.action,
      required_checks: rule.requiredChecks,
      above_amount: rule.aboveAmountMinor === null ? null : formatMinor(rule.aboveAmountMinor),
      above_total: rule.aboveTotalMinor === null ? null : formatMinor(rule.aboveTotalMinor),
      legal_basis: legalBasisIn(lang, rule),
      legal_basis_key: rule.legalBasisKey,
    })),
    session: session
      ? {
          status: session.status as NonNullable<TKycStatus['session']>['status'],
          reason: session.reason,
          capture_url: CAPTURE_OPEN.has(session.status) ? session.captureUrl : null,
          updated_at: session.updatedAt.toISOString(),
        }
      : null,
  };
}

/** Whole years from `birthDate` (YYYY-MM-DD) to today (UTC). */
export function ageOn(birthDate: string, today: Date): number {
  const [year, month, day] = birthDate.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - year;
  const beforeBirthday =
    today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
  if (beforeBirthday) age -= 1;
  return age;
}

/** The refusal message of a failed CPF check, by reason. */
const CPF_REASONS = {
  missing: 'errors.KYC_CPF_MISSING',
  underage: 'errors.KYC_UNDERAGE',
  irregular: 'errors.KYC_CPF_IRREGULAR',
  deceased: 'errors.KYC_CPF_DECEASED',
  name_mismatch: 'errors.KYC_CPF_NAME_MISMATCH',
  birth_date_mismatch: 'errors.KYC_CPF_BIRTH_DATE_MISMATCH',
} as const;

/**
 * The CPF check (Lei 14.790/2023 art. 26 I; Portaria SPA/MF 1.231/2024 art. 8): the CPF is regular
 * at the Receita Federal, the account's name and birth date match it, and the member is of the
 * site's minimum age. A failure is recorded with its reason and refused with KYC_CPF_REJECTED.
 */
async function runCpfCheck(deps: TKycDeps, site: TSiteRef, memberId: bigint): Promise<void> {
  const member = { siteId: site.id, memberId };
  const identity = await findMemberIdentity(deps.db, memberId);
  if (!identity) throw new AppError('UNAUTHENTICATED');
  const fail = async (reason: keyof typeof CPF_REASONS, params?: Record<string, number>) => {
    await insertCheck(deps.db, {
      ...member,
      checkKind: 'cpf',
      outcome: 'failed',
      reason,
      sessionId: null,
      source: 'provider',
    });
    return new AppError('KYC_CPF_REJECTED', {
      messageKey: CPF_REASONS[reason],
      ...(params ? { params } : {}),
    });
  };
  if (!identity.cpf || !identity.birthDate)
    throw new AppError('KYC_CPF_REJECTED', { messageKey: CPF_REASONS.missing });
  if (ageOn(identity.birthDate, new Date()) < identity.minAge)
    throw await fail('underage', { min_age: identity.minAge });
  const answer = await deps.kyc.validateCpf({
    cpf: identity.cpf,
    name: identity.realname,
    birthDate: identity.birthDate,
  });
  if (answer.situacao !== 'Regular')
    throw await fail(answer.situacao === 'Titular Falecido' ? 'deceased' : 'irregular');
  if (!answer.nameMatches) throw await fail('name_mismatch');
  if (!answer.birthDateMatches) throw await fail('birth_date_mismatch');
  await deps.db.transaction(async (tx) => {
    await insertCheck(tx, {
      ...member,
      checkKind: 'cpf',
      outcome: 'passed',
      reason: null,
      sessionId: null,
      source: 'provider',
    });
    await addPassedCheck(tx, member, 'cpf');
  });
}

/**
 * `POST /api/kyc/verifications`: runs what the site still requires of the session's member. The
 * CPF check first (at once, through the provider); then, for the identity check, the open
 * verification session (its capture link) or a new one at the provider. Refused when everything
 * has passed, while documents await a decision, and after a rejection (support reviews it).
 */
export async function startVerification(
  deps: TKycDeps,
  site: TSiteRef,
  memberId: bigint,
  returnUrl: string,
  lang: TLanguage = 'en',
): Promise<TKycStatus> {
  const rules = await findKycRules(deps.db, site);
  const state = await findMemberKyc(deps.db, memberId);
  const missing = missingChecks(requiredByAnyRule(rules), state.passedChecks);
  if (missing.length === 0) throw new AppError('KYC_ALREADY_VERIFIED');
  if (missing.includes('cpf')) await runCpfCheck(deps, site, memberId);
  if (missing.includes('identity')) {
    const latest = await findLatestSession(deps.db, memberId);
    if (latest?.status === 'rejected')
      throw new AppError('KYC_REJECTED', { params: { reason: latest.reason ?? '' } });
    if (latest?.status === 'submitted' || latest?.status === 'manual_review')
      throw new AppError('KYC_IN_REVIEW');
    if (!latest || !CAPTURE_OPEN.has(latest.status)) {
      const opened = await deps.kyc.createSession(memberId.toString(), returnUrl);
      await insertSession(deps.db, {
        siteId: site.id,
        memberId,
        provider: opened.provider,
        providerSessionId: opened.id,
        captureUrl: opened.captureUrl,
      });
    }
  }
  return getKycStatus(deps.db, site, memberId, lang);
}

export type TWebhookOutcome = 'applied' | 'replayed' | 'out_of_order' | 'unknown_session';

/**
 * Applies one verified webhook event in one transaction: its id is recorded first (a replay finds
 * it and changes nothing); an event whose sequence is not newer than the last one applied to its
 * session changes nothing; a session that reached approved or rejected keeps that status. A PEP
 * flag is kept on the member whatever the order.
 */
export async function applyKycEvent(db: Db, provider: string, event: TKycEvent): Promise<TWebhookOutcome> {
  return db.transaction(async (tx) => {
    if (!(await recordWebhookEvent(tx, provider, event.eventId))) return 'replayed';
    const session = await lockSessionByProviderId(tx, provider, event.sessionId);
    if (!session) return 'unknown_session';
    if (event.sequence <= session.lastSequence) return 'out_of_order';
    const member = { siteId: session.siteId, memberId: session.memberId };
    if (event.pep && !(await findMemberKyc(tx, session.memberId)).pep) {
      await setPep(tx, member);
      await insertCheck(tx, {
        ...member,
        checkKind: 'pep',
        outcome: 'flagged',
        reason: null,
        sessionId: session.id,
        source: 'provider',
      });
      await pepFlagged.emit(tx, { ...member, kycSessionId: session.id });
    }
    const final = session.status === 'approved' || session.status === 'rejected';
    const status = final ? (session.status as TKycEvent['status']) : event.status;
    const reason = final ? session.reason : event.reason;
    await updateSession(tx, session.id, { status, reason, lastSequence: event.sequence });
    if (final || status === session.status) return 'applied';
    const outcome =
      status === 'approved'
        ? 'passed'
        : status === 'rejected'
          ? 'failed'
          : status === 'resubmission_requested'
            ? 'resubmit'
            : null;
    if (outcome) {
      await insertCheck(tx, {
        ...member,
        checkKind: 'identity',
        outcome,
        reason,
        sessionId: session.id,
        source: 'provider',
      });
    }
    if (status === 'approved') await addPassedCheck(tx, member, 'identity');
    // A rejection ends every session of the player at once, in every process (the sessions'
    // trigger notifies the others at commit), as self-exclusion does.
    if (status === 'rejected') await forceOffline(tx, session.siteId, session.memberId);
    return 'applied';
  });
}

/**
 * A withdrawal of `amountMinor` by a member who has asked for `withdrawnMinor` before (in the
 * withdrawal's transaction): refused with KYC_REQUIRED when the site's withdrawal rule applies to
 * it (always, or above its amount, or once the total passes its other) and a check it requires
 * has not passed.
 */
export async function assertWithdrawalVerified(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
  amountMinor: bigint,
  withdrawnMinor: bigint,
): Promise<void> {
  const rule = (await findKycRules(executor, site)).find((candidate) => candidate.action === 'withdrawal');
  if (!rule || rule.requiredChecks.length === 0) return;
  const always = rule.aboveAmountMinor === null && rule.aboveTotalMinor === null;
  const applies =
    always ||
    (rule.aboveAmountMinor !== null && amountMinor > rule.aboveAmountMinor) ||
    (rule.aboveTotalMinor !== null && withdrawnMinor + amountMinor > rule.aboveTotalMinor);
  if (!applies) return;
  const missing = missingChecks(rule.requiredChecks, (await findMemberKyc(executor, memberId)).passedChecks);
  if (missing.length > 0) throw kycRequired('withdrawal', missing);
}

/**
 * Records every check the site's rules require as passed, for a member the operator vouches for
 * (the demo accounts); idempotent.
 */
export async function verifyAsRequired(
  executor: Executor,
  site: TSiteRef,
  memberId: bigint,
  source: 'seed' | 'operator',
): Promise<void> {
  const member = { siteId: site.id, memberId };
  const checks = requiredByAnyRule(await findKycRules(executor, site));
  const state = await findMemberKyc(executor, member.memberId);
  for (const check of checks) {
    if (state.passedChecks.includes(check)) continue;
    await insertCheck(executor, {
      ...member,
      checkKind: check,
      outcome: 'passed',
      reason: null,
      sessionId: null,
      source,
    });
    await addPassedCheck(executor, member, check);
  }
}
