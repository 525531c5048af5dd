import { randomInt } from 'node:crypto';

/** No 0/O or 1/I: codes are read aloud and typed from screenshots. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_LENGTH = 8;

/** A random invite code (32^8 ≈ 10^12 possibilities; uniqueness per site is enforced by the database). */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
