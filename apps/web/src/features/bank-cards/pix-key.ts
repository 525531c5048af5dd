import { normalizePixKey, type TBankAccountType } from '@sorte/contract';

export { validCnpj, validCpf } from '@sorte/contract';

/**
 * Null when the key fits its type, else the i18n key of the contract message saying what is wrong.
 * The same checks the server runs (packages/contract/src/pix-key.ts), so a typo is caught before
 * the request; the server checks again and decides.
 */
export function pixKeyProblem(type: TBankAccountType, raw: string): string | null {
  const result = normalizePixKey(type, raw);
  return result.ok ? null : result.messageKey;
}
