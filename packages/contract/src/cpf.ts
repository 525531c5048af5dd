/**
 * CPF (Cadastro de Pessoas Físicas) check digits: two mod-11 digits over the first nine.
 * Input may carry the usual punctuation ("529.982.247-25"); `normalizeCpf` strips it.
 */

const PUNCTUATION = /[.\-\s]/g;

/** The 11 digits of a CPF written with or without punctuation, or null when it is not 11 digits. */
export function normalizeCpf(text: string): string | null {
  if (text.length > 20) return null;
  const digits = text.replace(PUNCTUATION, '');
  return /^\d{11}$/.test(digits) ? digits : null;
}

function checkDigit(digits: readonly number[], count: number): number {
  let sum = 0;
  for (let i = 0; i < count; i++) sum += digits[i]! * (count + 1 - i);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** True for 11 digits whose two check digits match; repeated-digit numbers are refused. */
export function isValidCpf(text: string): boolean {
  const cpf = normalizeCpf(text);
  if (!cpf || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  return checkDigit(digits, 9) === digits[9] && checkDigit(digits, 10) === digits[10];
}
