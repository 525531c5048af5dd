/**
 * Input masks of the sign-up's identity fields, as Brazilian sites show them while the player
 * types: CPF 000.000.000-00 and dates dd/mm/aaaa. Only digits count; the punctuation follows.
 */

function digitsOf(text: string, most: number): string {
  return text.replace(/\D/g, '').slice(0, most);
}

/** "52998224725" → "529.982.247-25", growing as digits are typed. */
export function maskCpf(text: string): string {
  const digits = digitsOf(text, 11);
  return digits
    .replace(/^(\d{3})(\d)/, '$1.$2')
    .replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3')
    .replace(/^(\d{3})\.(\d{3})\.(\d{3})(\d)/, '$1.$2.$3-$4');
}

/** "17051990" → "17/05/1990", growing as digits are typed. */
export function maskDate(text: string): string {
  const digits = digitsOf(text, 8);
  return digits.replace(/^(\d{2})(\d)/, '$1/$2').replace(/^(\d{2})\/(\d{2})(\d)/, '$1/$2/$3');
}

/**
 * The form's value of a masked date: "17/05/1990" → "1990-05-17" (the API's YYYY-MM-DD). Anything
 * else is kept as typed, so the schema refuses it with the "invalid date" message.
 */
export function isoDate(masked: string): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(masked.trim());
  return match ? `${match[3]}-${match[2]}-${match[1]}` : masked.trim();
}
