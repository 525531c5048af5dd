import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/sql.ts';

/** The SQL of the national self-exclusion registry: its answers, and the exclusions they open and end. */

export type TRegistryReason = 'sign_up' | 'daily_login' | 'periodic';

export async function insertRegistryCheck(
  executor: Executor,
  check: { siteId: bigint; memberId: bigint | null; cpf: string; reason: TRegistryReason; impeded: boolean },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO registry_checks (site_id, member_id, cpf, reason, impeded)
    VALUES (${check.siteId.toString()}::bigint, ${check.memberId?.toString() ?? null}::bigint, ${check.cpf},
            ${check.reason}, ${check.impeded})`);
}

export async function markRegistryChecked(tx: Executor, memberId: bigint): Promise<void> {
  await tx.execute(
    sql`UPDATE members SET registry_checked_at = now() WHERE id = ${memberId.toString()}::bigint`,
  );
}

/** Whether the member has a registry exclusion in force. */
export async function hasOpenRegistryExclusion(tx: Executor, memberId: bigint): Promise<boolean> {
  const open = await rowsOf<{ id: string }>(
    tx,
    sql`SELECT id::text FROM rg_exclusions WHERE member_id = ${memberId.toString()}::bigint
          AND kind = 'registry' AND (ends_at IS NULL OR ends_at > now())`,
  );
  return open.length > 0;
}

export async function insertRegistryExclusion(tx: Executor, siteId: bigint, memberId: bigint): Promise<void> {
  await tx.execute(sql`INSERT INTO rg_exclusions (site_id, member_id, kind, ends_at)
                           VALUES (${siteId.toString()}::bigint, ${memberId.toString()}::bigint, 'registry', NULL)`);
}

export async function endRegistryExclusions(tx: Executor, memberId: bigint): Promise<void> {
  await tx.execute(sql`UPDATE rg_exclusions SET ends_at = greatest(now(), starts_at + interval '1 millisecond')
                           WHERE member_id = ${memberId.toString()}::bigint AND kind = 'registry'
                             AND (ends_at IS NULL OR ends_at > now())`);
}

/**
 * The member's CPF and whether a check is due: never checked, last checked on an earlier day of the
 * site's time zone, or longer ago than `recheckDays`.
 */
export async function findRegistryDue(
  executor: Executor,
  memberId: bigint,
  timeZone: string,
  recheckDays: number,
): Promise<{ cpf: string | null; due: boolean } | undefined> {
  const rows = await rowsOf<{ cpf: string | null; due: boolean }>(
    executor,
    sql`SELECT cpf, (registry_checked_at IS NULL
                     OR (registry_checked_at AT TIME ZONE ${timeZone})::date
                        < (now() AT TIME ZONE ${timeZone})::date
                     OR registry_checked_at < now() - make_interval(days => ${recheckDays})) AS due
        FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  return rows[0];
}

/** The site's members with a CPF checked longest ago (or never), up to `batch`. */
export async function findMembersDueForRecheck(
  executor: Executor,
  siteId: bigint,
  recheckDays: number,
  batch: number,
): Promise<{ id: string; cpf: string }[]> {
  return rowsOf<{ id: string; cpf: string }>(
    executor,
    sql`SELECT id::text, cpf FROM members
          WHERE site_id = ${siteId.toString()}::bigint AND cpf IS NOT NULL AND deleted_at IS NULL
            AND (registry_checked_at IS NULL
                 OR registry_checked_at < now() - make_interval(days => ${recheckDays}))
          ORDER BY registry_checked_at NULLS FIRST, id LIMIT ${batch}`,
  );
}
