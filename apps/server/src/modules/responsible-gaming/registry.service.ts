import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { endMemberSessions } from '../security/security.repo.ts';
import { recordSecurityEvent } from '../security/security-events.ts';
import { forfeitActiveGrants } from '../wallet/bonus/grants.ts';
import type { RegistryGateway } from './registry.connection.ts';
import {
  endRegistryExclusions,
  findMembersDueForRecheck,
  findRegistryDue,
  hasOpenRegistryExclusion,
  insertRegistryCheck,
  insertRegistryExclusion,
  markRegistryChecked,
  type TRegistryReason,
} from './registry.repo.ts';
import { findJurisdictionProfile, lockMemberRow } from './rg.repo.ts';

/**
 * The national self-exclusion registry (IN SPA 31/2025) where the site's profile asks for it: the
 * CPF is checked at sign-up (an impeded CPF cannot register), at the member's first login of each
 * day and whenever the last answer is older than the profile's registry_recheck_days (15). Every
 * query is kept in registry_checks; an impeded answer blocks play (withdrawals stay open), a later
 * clear answer lifts that block.
 */

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
  await insertRegistryCheck(executor, { siteId: site.id, memberId: null, cpf, reason: 'sign_up', impeded });
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
    await lockMemberRow(tx, member.id);
    await insertRegistryCheck(tx, { siteId: site.id, memberId: member.id, cpf: member.cpf, reason, impeded });
    await markRegistryChecked(tx, member.id);
    const open = await hasOpenRegistryExclusion(tx, member.id);
    if (impeded && !open) {
      await insertRegistryExclusion(tx, site.id, member.id);
      await endMemberSessions(tx, member.id, 'self_excluded');
      // As for a self-exclusion chosen here: active bonuses end at once, cash stays withdrawable.
      await forfeitActiveGrants(tx, { siteId: site.id, memberId: member.id });
      await recordSecurityEvent(tx, site, member.id, 'registry_impeded', { ip: null, userAgent: null });
    } else if (!impeded && open) {
      // The citizen's exclusion on the national platform has ended: so does the block it caused.
      await endRegistryExclusions(tx, member.id);
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
  const member = await findRegistryDue(db, memberId, siteTimeZone(site), profile.registryRecheckDays);
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
    const due = await findMembersDueForRecheck(db, site.id, profile.registryRecheckDays, batch);
    for (const member of due) {
      const impeded = await registry.isImpeded(member.cpf);
      await applyAnswer(db, site, { id: BigInt(member.id), cpf: member.cpf }, 'periodic', impeded);
      checked += 1;
    }
  }
  return checked;
}
