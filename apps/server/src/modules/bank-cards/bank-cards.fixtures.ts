import { randomInt, randomUUID } from 'node:crypto';

/**
 * Test fixtures: valid documents and keys that no other test uses (random, with correct check
 * digits), so tests on a shared database never collide on the "one key per site" rule.
 */

function mod11(digits: readonly number[], weights: readonly number[]): number {
  const rest = digits.reduce((sum, digit, i) => sum + digit * weights[i]!, 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A random valid CPF (11 digits, not all the same). */
export function randomCpf(): string {
  for (;;) {
    const base = Array.from({ length: 9 }, () => randomInt(10));
    if (base.every((d) => d === base[0])) continue;
    const first = mod11(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const second = mod11([...base, first], [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    return [...base, first, second].join('');
  }
}

/** A random valid numeric CNPJ (14 digits). */
export function randomCnpj(): string {
  const base = [...Array.from({ length: 8 }, () => randomInt(10)), 0, 0, 0, 1];
  const first = mod11(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11([...base, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, first, second].join('');
}

/** A random UUID v4 random key. */
export function randomEvp(): string {
  return randomUUID();
}

/** A random Brazilian mobile number (São Paulo area code), as a player would type it. */
export function randomMobile(): string {
  return `(11) 9${randomInt(1000, 10000)}-${randomInt(1000, 10000)}`;
}

/** "123.456.789-09": the CPF with its usual punctuation. */
export function punctuatedCpf(cpf: string): string {
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}
