import { normalizeCpf, type TCpfLookupResponse } from '@sorte/contract';
import type { TSite } from '../../core/site.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { KycGateway } from './kyc.connection.ts';
import type { KycVault } from './kyc.vault.ts';
import {
  countRecentLookups,
  cpfHasAccount,
  findProfileSettings,
  insertLookup,
  lockLookups,
} from './kyc-documents.repo.ts';

/**
 * Prefilling sign-up from the CPF (ADR 036 §9): the registration form of a site whose profile has
 * `cpf_prefill` asks who a CPF belongs to, and gets the registered name and birth date, nothing
 * more, and only for a CPF that is regular and has no account on the site. Anyone can call it
 * before having an account, so it is a way to learn a stranger's birth date from their CPF; what
 * keeps that from scaling: a profile's limits per address and per CPF per hour (counted in the
 * database, so every process sees them, before the provider is asked, so a failed lookup
 * counts too), the app's per-minute limit of the auth routes, one answer ("not found") for every
 * CPF that is irregular, unknown or already registered, and no situação in any answer.
 */

export type TPrefillDeps = { db: Db; kyc: KycGateway; vault: KycVault };

const HOUR_SECONDS = 3600;

export async function lookupCpfForSignUp(
  deps: TPrefillDeps,
  site: Pick<TSite, 'id' | 'jurisdiction'>,
  ip: string,
  cpfText: string,
): Promise<TCpfLookupResponse> {
  const settings = await findProfileSettings(deps.db, site.jurisdiction);
  if (!settings?.cpfPrefill) throw new AppError('KYC_CPF_LOOKUP_OFF');
  const cpf = normalizeCpf(cpfText);
  if (!cpf) throw new AppError('VALIDATION_FAILED', { messageKey: 'validation.cpf_invalid' });
  const cpfDigest = deps.vault.digest('cpf-lookup', `${site.id}:${cpf}`);
  await deps.db.transaction(async (tx) => {
    await lockLookups(tx, site.id, ip);
    const recent = await countRecentLookups(tx, site.id, ip, cpfDigest);
    if (recent.byIp >= settings.cpfLookupsPerIpHour || recent.byCpf >= settings.cpfLookupsPerCpfHour)
      throw new AppError('RATE_LIMITED', { params: { seconds: HOUR_SECONDS } });
    await insertLookup(tx, { siteId: site.id, ip: ip.slice(0, 64), cpfDigest });
  });
  if (await cpfHasAccount(deps.db, site.id, cpf)) return { found: false };
  const person = await deps.kyc.lookupCpf(cpf);
  if (person.situacao !== 'Regular') return { found: false };
  return { found: true, realname: person.name, birth_date: person.birthDate };
}
