import type { TCpfLookupResponse } from '@sorte/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * Sign-up prefill: the name and birth date registered for a CPF, where the site offers it. Any
 * refusal (a site without prefill, the hourly limit, the provider down) leaves the form as it is:
 * the player types them, as without the lookup.
 */
export async function lookupCpf(cpf: string): Promise<Extract<TCpfLookupResponse, { found: true }> | null> {
  try {
    const answer = await api.post<TCpfLookupResponse>('/api/kyc/cpf-lookup', { cpf });
    return answer.found ? answer : null;
  } catch {
    return null;
  }
}
