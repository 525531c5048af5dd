import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { TBankAccountType } from './bank-cards.ts';
import { isValidCnpj, normalizeCnpj } from './cnpj.ts';
import { isValidCpf, normalizeCpf } from './cpf.ts';

/**
 * One definition for the server (which decides) and the browser (which catches typos before the
 * request). PIX keys as the DICT (the central bank's key directory) writes them, so one key has one spelling
 * and duplicates are caught by a plain equality: CPF 11 digits, CNPJ 14 characters, EVP a
 * lower-case UUID v4, phone "+55" plus area code and number, email lower case.
 */

export type TPixKeyResult = { ok: true; key: string } | { ok: false; messageKey: string };

const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Deliberately simple: one "@", no spaces, a dot in the domain; the DICT allows 77 characters. */
const EMAIL = /^[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}$/;
const EMAIL_MAX = 77;

/** The normalised key, or the i18n key of what is wrong with it. */
export function normalizePixKey(type: TBankAccountType, raw: string): TPixKeyResult {
  const text = raw.trim();
  switch (type) {
    case 'CPF': {
      const cpf = normalizeCpf(text);
      return cpf && isValidCpf(cpf)
        ? { ok: true, key: cpf }
        : { ok: false, messageKey: 'validation.cpf_invalid' };
    }
    case 'CNPJ': {
      const cnpj = normalizeCnpj(text);
      return cnpj && isValidCnpj(cnpj)
        ? { ok: true, key: cnpj }
        : { ok: false, messageKey: 'validation.cnpj_invalid' };
    }
    case 'EVP': {
      const evp = text.toLowerCase();
      return EVP.test(evp) ? { ok: true, key: evp } : { ok: false, messageKey: 'validation.evp_invalid' };
    }
    case 'PHONE': {
      // National numbers are read as Brazilian; a foreign "+" number is refused (PIX keys are +55).
      const phone = /^\+?[0-9 ()-]{10,20}$/.test(text) ? parsePhoneNumberFromString(text, 'BR') : undefined;
      return phone?.country === 'BR' && phone.isValid() && /^\+55\d{10,11}$/.test(phone.number)
        ? { ok: true, key: phone.number }
        : { ok: false, messageKey: 'validation.pix_phone_invalid' };
    }
    case 'EMAIL': {
      const email = text.toLowerCase();
      return email.length <= EMAIL_MAX && EMAIL.test(email)
        ? { ok: true, key: email }
        : { ok: false, messageKey: 'validation.email_invalid' };
    }
  }
}

/** The 11 digits of a valid CPF, or null. */
export function validCpf(raw: string): string | null {
  const cpf = normalizeCpf(raw.trim());
  return cpf && isValidCpf(cpf) ? cpf : null;
}

/** The 14 characters of a valid CNPJ (numeric or the 2026 alphanumeric form), or null. */
export function validCnpj(raw: string): string | null {
  const cnpj = normalizeCnpj(raw.trim());
  return cnpj && isValidCnpj(cnpj) ? cnpj : null;
}
