/**
 * CNPJ (Cadastro Nacional da Pessoa Jurídica) check digits, numeric and alphanumeric.
 * Since July 2026 the Receita Federal issues CNPJs whose first 12 positions may be letters
 * (the API Pix already allows `^[0-9A-Z]{14}$`); each character counts as its ASCII code minus
 * 48, so digits keep their value and the classic numeric rule is the special case.
 */

const PUNCTUATION = /[./\-\s]/g;
const WEIGHTS_FIRST = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const WEIGHTS_SECOND = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** The 14 characters of a CNPJ with punctuation removed and letters upper-cased, or null. */
export function normalizeCnpj(text: string): string | null {
  if (text.length > 24) return null;
  const compact = text.replace(PUNCTUATION, '').toUpperCase();
  return /^[0-9A-Z]{12}\d{2}$/.test(compact) ? compact : null;
}

function checkDigit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += values[i]! * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** True when both check digits match; all-zero and repeated-digit numbers are refused. */
export function isValidCnpj(text: string): boolean {
  const cnpj = normalizeCnpj(text);
  if (!cnpj || /^(\d)\1{13}$/.test(cnpj)) return false;
  const values = [...cnpj].map((char) => char.charCodeAt(0) - 48);
  return (
    checkDigit(values, WEIGHTS_FIRST) === values[12] && checkDigit(values, WEIGHTS_SECOND) === values[13]
  );
}
