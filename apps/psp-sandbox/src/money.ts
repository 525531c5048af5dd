/**
 * Amounts as the API Pix writes them: a decimal string with exactly two places ("123.45"),
 * 1..10 integer digits. Inside the sandbox they are centavos in a bigint; never a JS float.
 */

const VALOR = /^(\d{1,10})\.(\d{2})$/;

/** Centavos of a well-formed API Pix amount, or null when it does not match `\d{1,10}\.\d{2}`. */
export function parseValor(text: string): bigint | null {
  const match = VALOR.exec(text);
  if (!match) return null;
  return BigInt(match[1]!) * 100n + BigInt(match[2]!);
}

/** "123.45" for 12345n. Negative amounts never occur in the API Pix. */
export function formatValor(minor: bigint): string {
  if (minor < 0n) throw new RangeError('amounts are never negative');
  return `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;
}

/** Shows "R$ 1.234,56" on the payer page, the way a Brazilian bank app would. */
export function displayBrl(valor: string): string {
  const minor = parseValor(valor) ?? 0n;
  const whole = (minor / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${whole},${(minor % 100n).toString().padStart(2, '0')}`;
}
