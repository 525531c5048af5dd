import type { TBankAccountType } from '@sorte/contract';

/**
 * The browser's copy of the server's PIX key checks (apps/server bank-cards/pix-key.ts), so a typo
 * is caught before the request: CPF and CNPJ check digits (CNPJ may be the 2026 alphanumeric form),
 * EVP as a UUID v4, a Brazilian mobile number, an email. The server checks again and decides.
 */

const CPF_PUNCTUATION = /[.\-\s]/g;
const CNPJ_PUNCTUATION = /[./\-\s]/g;
const CNPJ_WEIGHTS_FIRST = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_WEIGHTS_SECOND = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EMAIL = /^[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}$/;
const EMAIL_MAX = 77;
/** Brazilian mobile: optional +55, two-digit area code (11–99), 9 and eight digits. */
const BR_MOBILE = /^(?:\+?55)?([1-9][1-9])(9\d{8})$/;

function remainderDigit(sum: number): number {
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The 11 digits of a CPF with valid check digits, or null. */
export function validCpf(text: string): string | null {
  if (text.length > 20) return null;
  const cpf = text.trim().replace(CPF_PUNCTUATION, '');
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return null;
  const digits = [...cpf].map(Number);
  const check = (count: number) => {
    let sum = 0;
    for (let i = 0; i < count; i++) sum += (digits[i] ?? 0) * (count + 1 - i);
    return remainderDigit(sum);
  };
  return check(9) === digits[9] && check(10) === digits[10] ? cpf : null;
}

/** The 14 characters of a CNPJ with valid check digits, or null. */
export function validCnpj(text: string): string | null {
  if (text.length > 24) return null;
  const cnpj = text.trim().replace(CNPJ_PUNCTUATION, '').toUpperCase();
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return null;
  // Letters count by their code point minus 48, as the Receita Federal defines for alphanumeric CNPJs.
  const values = [...cnpj].map((char) => char.charCodeAt(0) - 48);
  const check = (weights: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < weights.length; i++) sum += (values[i] ?? 0) * (weights[i] ?? 0);
    return remainderDigit(sum);
  };
  return check(CNPJ_WEIGHTS_FIRST) === values[12] && check(CNPJ_WEIGHTS_SECOND) === values[13] ? cnpj : null;
}

/** Null when the key fits its type, else the i18n key of the contract message saying what is wrong. */
export function pixKeyProblem(type: TBankAccountType, raw: string): string | null {
  const text = raw.trim();
  switch (type) {
    case 'CPF':
      return validCpf(text) ? null : 'validation.cpf_invalid';
    case 'CNPJ':
      return validCnpj(text) ? null : 'validation.cnpj_invalid';
    case 'EVP':
      return EVP.test(text.toLowerCase()) ? null : 'validation.evp_invalid';
    case 'PHONE':
      return BR_MOBILE.test(text.replace(/[\s()-]/g, '')) ? null : 'validation.pix_phone_invalid';
    case 'EMAIL':
      return text.length <= EMAIL_MAX && EMAIL.test(text.toLowerCase()) ? null : 'validation.email_invalid';
  }
}
