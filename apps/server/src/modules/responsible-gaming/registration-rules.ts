import {
  ageOn,
  normalizeCpf,
  type TRegisterRequest,
  type TRgLimitKind,
  type TRgPeriod,
} from '@sorte/contract';
import { siteTimeZone } from '../../core/periods.ts';
import type { TSite } from '../../core/site.ts';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  findJurisdictionProfile,
  type TJurisdictionProfile,
  updateRegistrationColumns,
  upsertLimit,
} from './rg.repo.ts';
import { parseLimitValue } from './rg.service.ts';

/**
 * What a sign-up must carry on this site, from its jurisdiction profile (data, never "if br"): a
 * CPF (one account per CPF), a date of birth at least the site's min_age ago, the mandatory
 * limits; elsewhere the "I am of age" box. Returns what to store with the new member.
 */
export type TRegistrationExtras = {
  profile: TJurisdictionProfile;
  cpf: string | null;
  birthDate: string | null;
  limits: { kind: TRgLimitKind; period: TRgPeriod; value: bigint }[];
};

/** Today's calendar day (YYYY-MM-DD) in the site's time zone. */
function siteToday(site: Pick<TSite, 'jurisdiction'>): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: siteTimeZone(site),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

export async function registrationExtras(
  executor: Executor,
  site: TSite,
  input: TRegisterRequest,
): Promise<TRegistrationExtras> {
  const profile = await findJurisdictionProfile(executor, site);
  const fieldErrors: Record<string, string> = {};

  let cpf: string | null = null;
  if (profile.requiresCpf) {
    if (!input.cpf) fieldErrors.cpf = 'validation.required.cpf';
    else cpf = normalizeCpf(input.cpf);
  }

  let birthDate: string | null = null;
  if (profile.requiresBirthDate) {
    if (!input.birth_date) fieldErrors.birth_date = 'validation.required.birth_date';
    else if (ageOn(input.birth_date, siteToday(site)) < site.minAge) {
      fieldErrors.birth_date = 'validation.adult_required';
    } else if (ageOn(input.birth_date, siteToday(site)) > 120) {
      fieldErrors.birth_date = 'validation.birth_date_invalid';
    } else birthDate = input.birth_date;
  } else if (input.is_adult !== true) {
    fieldErrors.is_adult = 'validation.adult_required';
  }
  const first = Object.values(fieldErrors)[0];
  // As for schema errors: the message is the first field's.
  if (first) throw new AppError('VALIDATION_FAILED', { fieldErrors, messageKey: first });

  const limits: TRegistrationExtras['limits'] = [];
  const seen = new Set<string>();
  for (const limit of input.limits ?? []) {
    const key = `${limit.kind}:${limit.period}`;
    if (seen.has(key)) continue;
    seen.add(key);
    limits.push({
      kind: limit.kind,
      period: limit.period,
      value: parseLimitValue(limit.kind, limit.period, limit.value),
    });
  }
  const missing = profile.mandatoryLimits.filter((kind) => !limits.some((limit) => limit.kind === kind));
  if (missing.length > 0) {
    throw new AppError('RG_LIMIT_REQUIRED', {
      fieldErrors: Object.fromEntries(missing.map((kind) => [`limits.${kind}`, 'errors.RG_LIMIT_REQUIRED'])),
    });
  }
  return { profile, cpf, birthDate, limits };
}

/** Stores the CPF, date of birth and limits of a member just inserted, in the sign-up transaction. */
export async function storeRegistrationExtras(
  tx: Executor,
  site: TSite,
  memberId: bigint,
  extras: TRegistrationExtras,
  registryChecked: boolean,
): Promise<void> {
  if (extras.cpf !== null || extras.birthDate !== null || registryChecked) {
    await updateRegistrationColumns(tx, memberId, extras, registryChecked);
  }
  for (const limit of extras.limits) {
    await upsertLimit(tx, {
      siteId: site.id,
      memberId,
      kind: limit.kind,
      period: limit.period,
      value: limit.value,
      pendingValue: null,
      pendingRemove: false,
      pendingEffectiveAt: null,
    });
  }
}
