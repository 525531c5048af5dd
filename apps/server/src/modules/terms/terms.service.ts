import {
  LANGUAGES,
  type TAnnounceTermsRequest,
  TERMS_MIN_NOTICE_DAYS,
  type TTermsStatus,
  type TTermsVersion,
  translate,
} from '@sorte/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { TOperatorAuth } from '../../core/audit.ts';
import { recordOperatorAction } from '../../core/audit.ts';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';

type TVersionRow = { id: string; version: number; effective_at: Date | string; summary: string };

const DAY_MS = 24 * 60 * 60 * 1000;

function toVersion(row: TVersionRow): TTermsVersion {
  return {
    version: Number(row.version),
    effective_at: new Date(row.effective_at).toISOString(),
    summary: row.summary,
  };
}

/**
 * The newest terms version in force that the member has neither accepted nor signed up under
 * (a member accepts the version in force at sign-up, so only versions effective after
 * members.created_at can be pending).
 */
async function findPending(executor: Executor, memberId: bigint): Promise<TVersionRow | null> {
  const rows = await rowsOf<TVersionRow>(executor, pendingTermsQuery(memberId));
  return rows[0] ?? null;
}

/** The query of `findPending`, for checks that ask it inside a statement of their own (bets). */
export function pendingTermsQuery(member: bigint | SQL) {
  const id = typeof member === 'bigint' ? sql`${member.toString()}::bigint` : member;
  return sql`SELECT v.id::text AS id, v.version, v.effective_at, v.summary
          FROM terms_versions v JOIN members m ON m.site_id = v.site_id
         WHERE m.id = ${id}
           AND v.effective_at <= now() AND v.effective_at > m.created_at
           AND NOT EXISTS (SELECT 1 FROM terms_acceptances a
                            WHERE a.member_id = m.id AND a.terms_version_id = v.id)
         ORDER BY v.version DESC LIMIT 1`;
}

/** The terms version awaiting the member's acceptance, if any (login and /api/auth/me report it). */
export async function pendingTerms(executor: Executor, memberId: bigint): Promise<TTermsVersion | null> {
  const row = await findPending(executor, memberId);
  return row ? toVersion(row) : null;
}

export async function termsStatus(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<TTermsStatus> {
  const versions = await rowsOf<TVersionRow & { in_force: boolean }>(
    executor,
    sql`SELECT id::text AS id, version, effective_at, summary, effective_at <= now() AS in_force
          FROM terms_versions WHERE site_id = ${siteId.toString()}::bigint ORDER BY version DESC`,
  );
  const current = versions.find((row) => row.in_force);
  const upcoming = versions.find((row) => !row.in_force);
  const pending = await findPending(executor, memberId);
  return {
    current_version: current ? Number(current.version) : 1,
    pending: pending ? toVersion(pending) : null,
    upcoming: upcoming ? toVersion(upcoming) : null,
  };
}

/** The member accepts the pending version (only that one: accepting an older or future one is refused). */
export async function acceptTerms(executor: Executor, memberId: bigint, version: number): Promise<void> {
  const pending = await findPending(executor, memberId);
  if (!pending || Number(pending.version) !== version) throw new AppError('TERMS_VERSION_UNKNOWN');
  await executor.execute(
    sql`INSERT INTO terms_acceptances (member_id, terms_version_id)
        VALUES (${memberId.toString()}::bigint, ${pending.id}::bigint) ON CONFLICT DO NOTHING`,
  );
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
    // Two operators announcing at once take turns on the site row: each gets the next version.
    await tx.execute(
      sql`SELECT id FROM sites WHERE id = ${operator.siteId.toString()}::bigint FOR NO KEY UPDATE`,
    );
    const rows = await rowsOf<TVersionRow>(
      tx,
      sql`INSERT INTO terms_versions (site_id, version, effective_at, summary, announced_by)
          SELECT ${operator.siteId.toString()}::bigint, COALESCE(MAX(version), 1) + 1,
                 ${effectiveAt.toISOString()}::timestamptz, ${input.summary}, ${operator.operatorId.toString()}::bigint
            FROM terms_versions WHERE site_id = ${operator.siteId.toString()}::bigint
          RETURNING id::text AS id, version, effective_at, summary`,
    );
    const announced = toVersion(rows[0]!);
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
  const sites = await rowsOf<{ jurisdiction: TSite['jurisdiction'] }>(
    executor,
    sql`SELECT jurisdiction FROM sites WHERE id = ${siteId.toString()}::bigint`,
  );
  const params = {
    version: announced.version,
    effective_at: announced.effective_at,
    summary: announced.summary,
    time_zone: siteTimeZone({ jurisdiction: sites[0]?.jurisdiction ?? 'intl' }),
  };
  const title = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, translate(lang, 'messages.terms_announcement_title')]),
  );
  const body = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, translate(lang, 'messages.terms_announcement_body', params)]),
  );
  await executor.execute(
    sql`INSERT INTO site_announcements (site_id, code, title, body, position, expires_at)
        VALUES (${siteId.toString()}::bigint, ${`terms_v${announced.version}`}, ${JSON.stringify(title)}::jsonb,
                ${JSON.stringify(body)}::jsonb, -1, ${announced.effective_at}::timestamptz + interval '30 days')
        ON CONFLICT (site_id, code) DO NOTHING`,
  );
}
