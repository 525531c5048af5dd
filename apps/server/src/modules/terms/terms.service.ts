import {
  LANGUAGES,
  type TAnnounceTermsRequest,
  TERMS_MIN_NOTICE_DAYS,
  type TTermsStatus,
  type TTermsVersion,
  translate,
} from '@sorte/contract';
import { recordOperatorAction, type TOperatorAuth } from '../../core/audit.ts';
import { siteTimeZone } from '../../core/periods.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  findPendingVersion,
  findSiteJurisdiction,
  findVersions,
  insertAcceptance,
  insertNextVersion,
  insertTermsAnnouncement,
  lockSiteForTerms,
  type TVersionRow,
} from './terms.repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function toVersion(row: TVersionRow): TTermsVersion {
  return {
    version: Number(row.version),
    effective_at: new Date(row.effective_at).toISOString(),
    summary: row.summary,
  };
}

/** The terms version awaiting the member's acceptance, if any (login and /api/auth/me report it). */
export async function pendingTerms(executor: Executor, memberId: bigint): Promise<TTermsVersion | null> {
  const row = await findPendingVersion(executor, memberId);
  return row ? toVersion(row) : null;
}

export async function termsStatus(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<TTermsStatus> {
  const versions = await findVersions(executor, siteId);
  const current = versions.find((row) => row.in_force);
  const upcoming = versions.find((row) => !row.in_force);
  const pending = await findPendingVersion(executor, memberId);
  return {
    current_version: current ? Number(current.version) : 1,
    pending: pending ? toVersion(pending) : null,
    upcoming: upcoming ? toVersion(upcoming) : null,
  };
}

/** The member accepts the pending version (only that one: accepting an older or future one is refused). */
export async function acceptTerms(executor: Executor, memberId: bigint, version: number): Promise<void> {
  const pending = await findPendingVersion(executor, memberId);
  if (!pending || Number(pending.version) !== version) throw new AppError('TERMS_VERSION_UNKNOWN');
  await insertAcceptance(executor, memberId, pending.id);
}

/**
 * An operator announces the next version of the site's terms, effective at least
 * TERMS_MIN_NOTICE_DAYS days from now. Versions without a row count from 1 (the terms at launch).
 */
export async function announceTerms(
  executor: Executor,
  operator: TOperatorAuth,
  input: TAnnounceTermsRequest,
  now = new Date(),
): Promise<TTermsVersion> {
  const effectiveAt = new Date(input.effective_at);
  if (effectiveAt.getTime() - now.getTime() < TERMS_MIN_NOTICE_DAYS * DAY_MS) {
    throw new AppError('TERMS_NOTICE_TOO_SHORT', { params: { days: TERMS_MIN_NOTICE_DAYS } });
  }
  return executor.transaction(async (tx) => {
    await lockSiteForTerms(tx, operator.siteId);
    const row = await insertNextVersion(tx, {
      siteId: operator.siteId,
      effectiveAt,
      summary: input.summary,
      operatorId: operator.operatorId,
    });
    const announced = toVersion(row!);
    await announceToPlayers(tx, operator.siteId, announced);
    await recordOperatorAction(
      tx,
      operator,
      'terms.announce',
      { entity: 'terms_version', entityId: String(announced.version) },
      null,
      announced,
    );
    return announced;
  });
}

/**
 * Every player of the site sees the announcement in the information centre's announcements
 * (in their language, the date in the site's time zone) until 30 days after the effective date.
 */
async function announceToPlayers(
  executor: Executor,
  siteId: bigint,
  announced: TTermsVersion,
): Promise<void> {
  const jurisdiction = await findSiteJurisdiction(executor, siteId);
  const params = {
    version: announced.version,
    effective_at: announced.effective_at,
    summary: announced.summary,
    time_zone: siteTimeZone({ jurisdiction: jurisdiction ?? 'intl' }),
  };
  const title = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, translate(lang, 'messages.terms_announcement_title')]),
  );
  const body = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, translate(lang, 'messages.terms_announcement_body', params)]),
  );
  await insertTermsAnnouncement(executor, {
    siteId,
    version: announced.version,
    title,
    body,
    effectiveAt: announced.effective_at,
  });
}
