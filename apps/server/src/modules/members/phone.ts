import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * Stores phones in E.164 ("+5511987654321") whatever way the player typed them, so one number has
 * one spelling (national numbers are Brazilian, as the contract's validation assumes).
 */
export function normalizePhone(input: string): string {
  return parsePhoneNumberFromString(input, 'BR')?.number ?? input.trim();
}
