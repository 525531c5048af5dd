import { type SQL, sql } from 'drizzle-orm';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';

/** The SQL of the site's terms: versions, a member's acceptances and the announcement of a new one. */

export type TVersionRow = { id: string; version: number; effective_at: Date | string; summary: string };

/**
 * The newest terms version in force that the member has neither accepted nor signed up under
 * (a member accepts the version in force at sign-up, so only versions effective after
 * members.created_at can be pending).
 */
export async function findPendingVersion(executor: Executor, memberId: bigint): Promise<TVersionRow | null> {
  const rows = await rowsOf<TVersionRow>(executor, pendingTermsQuery(memberId));
  return rows[0] ?? null;
}

/** The query of `findPendingVersion`, for checks that ask it inside a statement of their own (bets). */
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

/** The site's versions, newest first, with whether each is in force. */
export async function findVersions(
  executor: Executor,
  siteId: bigint,
): Promise<(TVersionRow & { in_force: boolean })[]> {
  return rowsOf<TVersionRow & { in_force: boolean }>(
    executor,
    sql`SELECT id::text AS id, version, effective_at, summary, effective_at <= now() AS in_force
          FROM terms_versions WHERE site_id = ${siteId.toString()}::bigint ORDER BY version DESC`,
  );
}

export async function insertAcceptance(
  executor: Executor,
  memberId: bigint,
  versionId: string,
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO terms_acceptances (member_id, terms_version_id)
        VALUES (${memberId.toString()}::bigint, ${versionId}::bigint) ON CONFLICT DO NOTHING`,
  );
}

/** Two operators announcing at once take turns on the site row: each gets the next version. */
export async function lockSiteForTerms(tx: Executor, siteId: bigint): Promise<void> {
  await tx.execute(sql`SELECT id FROM sites WHERE id = ${siteId.toString()}::bigint FOR NO KEY UPDATE`);
}

/** The site's next version (versions without a row count from 1, the terms at launch). */
export async function insertNextVersion(
  tx: Executor,
  version: { siteId: bigint; effectiveAt: Date; summary: string; operatorId: bigint },
): Promise<TVersionRow | undefined> {
  const rows = await rowsOf<TVersionRow>(
    tx,
    sql`INSERT INTO terms_versions (site_id, version, effective_at, summary, announced_by)
          SELECT ${version.siteId.toString()}::bigint, COALESCE(MAX(version), 1) + 1,
                 ${version.effectiveAt.toISOString()}::timestamptz, ${version.summary}, ${version.operatorId.toString()}::bigint
            FROM terms_versions WHERE site_id = ${version.siteId.toString()}::bigint
          RETURNING id::text AS id, version, effective_at, summary`,
  );
  return rows[0];
}

export async function findSiteJurisdiction(
  executor: Executor,
  siteId: bigint,
): Promise<TSite['jurisdiction'] | undefined> {
  const sites = await rowsOf<{ jurisdiction: TSite['jurisdiction'] }>(
    executor,
    sql`SELECT jurisdiction FROM sites WHERE id = ${siteId.toString()}::bigint`,
  );
  return sites[0]?.jurisdiction;
}

/** The announcement of a new version (kept if one with its code is there already). */
export async function insertTermsAnnouncement(
  executor: Executor,
  announcement: {
    siteId: bigint;
    version: number;
    title: Record<string, string>;
    body: Record<string, string>;
    effectiveAt: string;
  },
): Promise<void> {
  const { siteId, version, title, body } = announcement;
  await executor.execute(
    sql`INSERT INTO site_announcements (site_id, code, title, body, position, expires_at)
        VALUES (${siteId.toString()}::bigint, ${`terms_v${version}`}, ${JSON.stringify(title)}::jsonb,
                ${JSON.stringify(body)}::jsonb, -1, ${announcement.effectiveAt}::timestamptz + interval '30 days')
        ON CONFLICT (site_id, code) DO NOTHING`,
  );
}
