/**
 * CPF and CNPJ check digits (mod 11), as the payer's and the payee's banks check them.
 * The sandbox is a separate bank, so it keeps its own copy rather than importing the casino's.
 */

function mod11Digit(digits: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += digits[i]! * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(text: string): boolean {
  if (!/^\d{11}$/.test(text) || /^(\d)\1{10}$/.test(text)) return false;
  const d = [...text].map(Number);
  const first = mod11Digit(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[9] === first && d[10] === second;
}

/** Numeric or alphanumeric CNPJ (letters allowed in the first 12 positions since July 2026; value = ASCII - 48). */
export function isValidCnpj(text: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(text) || /^(\d)\1{13}$/.test(text)) return false;
  const d = [...text].map((char) => char.charCodeAt(0) - 48);
  const first = mod11Digit(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[12] === first && d[13] === second;
}
