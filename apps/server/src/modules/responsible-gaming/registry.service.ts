import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { endMemberSessions } from '../security/security.repo.ts';
import { recordSecurityEvent } from '../security/security-events.ts';
import { sites } from '../sites/sites.schema.ts';
import { rowsOf } from '../wallet/wallet.repo.ts';
import { forfeitActiveGrants } from '../wallet/wallet.service.ts';
import type { RegistryGateway } from './registry.connection.ts';
import { findJurisdictionProfile } from './rg.repo.ts';

/**
 * The national self-exclusion registry (IN SPA 31/2025) where the site's profile asks for it: the
 * CPF is checked at sign-up (an impeded CPF cannot register), at the member's first login of each
 * day and whenever the last answer is older than the profile's registry_recheck_days (15). Every
 * query is kept in registry_checks; an impeded answer blocks play (withdrawals stay open), a later
 * clear answer lifts that block.
 */

export type TRegistryReason = 'sign_up' | 'daily_login' | 'periodic';

async function recordCheck(
  executor: Executor,
  check: { siteId: bigint; memberId: bigint | null; cpf: string; reason: TRegistryReason; impeded: boolean },
): Promise<void> {
  await executor.execute(sql`
    INSERT INTO registry_checks (site_id, member_id, cpf, reason, impeded)
    VALUES (${check.siteId.toString()}::bigint, ${check.memberId?.toString() ?? null}::bigint, ${check.cpf},
            ${check.reason}, ${check.impeded})`);
}

/** Sign-up: refuses an impeded CPF (REGISTRY_IMPEDED) or an unreachable registry (nothing is created). */
export async function assertNotOnRegistry(
  executor: Executor,
  registry: RegistryGateway,
  site: TSite,
  cpf: string,
): Promise<boolean> {
  const profile = await findJurisdictionProfile(executor, site);
  if (!profile.selfExclusionRegistry) return false;
  const impeded = await registry.isImpeded(cpf);
  await recordCheck(executor, { siteId: site.id, memberId: null, cpf, reason: 'sign_up', impeded });
  if (impeded) throw new AppError('REGISTRY_IMPEDED', { fieldErrors: { cpf: 'errors.REGISTRY_IMPEDED' } });
  return true;
}

/** Applies one registry answer to a member: the record, the check time, and the block or its end. */
async function applyAnswer(
  db: Executor,
  site: TSite,
  member: { id: bigint; cpf: string },
  reason: TRegistryReason,
  impeded: boolean,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT id FROM members WHERE id = ${member.id.toString()}::bigint FOR NO KEY UPDATE`,
    );
    await recordCheck(tx, { siteId: site.id, memberId: member.id, cpf: member.cpf, reason, impeded });
    await tx.execute(
      sql`UPDATE members SET registry_checked_at = now() WHERE id = ${member.id.toString()}::bigint`,
    );
    const open = await rowsOf<{ id: string }>(
      tx,
      sql`SELECT id::text FROM rg_exclusions WHERE member_id = ${member.id.toString()}::bigint
          AND kind = 'registry' AND (ends_at IS NULL OR ends_at > now())`,
    );
    if (impeded && open.length === 0) {
      await tx.execute(sql`INSERT INTO rg_exclusions (site_id, member_id, kind, ends_at)
                           VALUES (${site.id.toString()}::bigint, ${member.id.toString()}::bigint, 'registry', NULL)`);
      await endMemberSessions(tx, member.id, 'self_excluded');
      // As for a self-exclusion chosen here: active bonuses end at once, cash stays withdrawable.
      await forfeitActiveGrants(tx, { siteId: site.id, memberId: member.id });
      await recordSecurityEvent(tx, site, member.id, 'registry_impeded', { ip: null, userAgent: null });
    } else if (!impeded && open.length > 0) {
      // The citizen's exclusion on the national platform has ended: so does the block it caused.
      await tx.execute(sql`UPDATE rg_exclusions SET ends_at = greatest(now(), starts_at + interval '1 millisecond')
                           WHERE member_id = ${member.id.toString()}::bigint AND kind = 'registry'
                             AND (ends_at IS NULL OR ends_at > now())`);
    }
  });
}

/**
 * Login: the first login of the member's day (site time zone), or a last answer older than the
 * recheck period, asks the registry before the session opens. When the registry cannot be reached
 * the login goes on and the next one asks again (the periodic recheck catches up too).
 */
export async function checkRegistryAtLogin(
  db: Executor,
  registry: RegistryGateway,
  site: TSite,
  memberId: bigint,
  log?: { warn(obj: object, msg: string): void },
): Promise<void> {
  const profile = await findJurisdictionProfile(db, site);
  if (!profile.selfExclusionRegistry) return;
  const rows = await rowsOf<{ cpf: string | null; due: boolean }>(
    db,
    sql`SELECT cpf, (registry_checked_at IS NULL
                     OR (registry_checked_at AT TIME ZONE ${siteTimeZone(site)})::date
                        < (now() AT TIME ZONE ${siteTimeZone(site)})::date
                     OR registry_checked_at < now() - make_interval(days => ${profile.registryRecheckDays})) AS due
        FROM members WHERE id = ${memberId.toString()}::bigint`,
  );
  const member = rows[0];
  if (!member?.cpf || !member.due) return;
  let impeded: boolean;
  try {
    impeded = await registry.isImpeded(member.cpf);
  } catch (error) {
    log?.warn({ err: error, memberId: memberId.toString() }, 'self-exclusion registry unavailable at login');
    return;
  }
  await applyAnswer(db, site, { id: memberId, cpf: member.cpf }, 'daily_login', impeded);
}

/**
 * The periodic recheck: members of registry sites whose last answer is older than the profile's
 * recheck period (or who were never checked), oldest first, up to `batch`. Returns how many were
 * checked; stops at the first unreachable answer (the next run resumes).
 */
export async function recheckRegistry(
  db: Db,
  registry: RegistryGateway,
  sites: TSite[],
  batch = 200,
): Promise<number> {
  let checked = 0;
  for (const site of sites) {
    const profile = await findJurisdictionProfile(db, site);
    if (!profile.selfExclusionRegistry) continue;
    const due = await rowsOf<{ id: string; cpf: string }>(
      db,
      sql`SELECT id::text, cpf FROM members
          WHERE site_id = ${site.id.toString()}::bigint AND cpf IS NOT NULL AND deleted_at IS NULL
            AND (registry_checked_at IS NULL
                 OR registry_checked_at < now() - make_interval(days => ${profile.registryRecheckDays}))
          ORDER BY registry_checked_at NULLS FIRST, id LIMIT ${batch}`,
    );
    for (const member of due) {
      const impeded = await registry.isImpeded(member.cpf);
      await applyAnswer(db, site, { id: BigInt(member.id), cpf: member.cpf }, 'periodic', impeded);
      checked += 1;
    }
  }
  return checked;
}

const RECHECK_EVERY_MS = 60 * 60_000;

/**
 * Every hour, the periodic recheck over the active sites (several processes may run it: each
 * answer is applied under the member's row lock, and a member just checked is no longer due).
 */
export function startRegistryRechecks(app: FastifyInstance): void {
  const run = async () => {
    const active = await app.services.db.select().from(sites).where(eq(sites.status, 1));
    await recheckRegistry(app.services.db, app.registry, active);
  };
  const timer = setInterval(() => {
    run().catch((error: unknown) => app.log.warn({ err: error }, 'self-exclusion registry recheck failed'));
  }, RECHECK_EVERY_MS);
  timer.unref();
  app.registry.onClose(() => clearInterval(timer));
}
