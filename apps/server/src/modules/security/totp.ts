import { randomBytes } from 'node:crypto';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { sha256Hex } from '../../core/hash.ts';

/** RFC 6238 codes (30 s, 6 digits, SHA-1: what every authenticator app reads) through otplib. */

export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret });
}

export async function totpQrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The code an authenticator app shows now for this secret (tests and demo tooling sign in with it). */
export async function currentTotpCode(secret: string): Promise<string> {
  return generate({ secret });
}

/** The code of the time step `steps` away from now (-1: the previous 30 s, 1: the next). */
export async function totpCodeAtStep(secret: string, steps: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/**
 * The time step (unix time / 30 s) whose code `code` is, looking at the current step and the one
 * before and after it (clock drift of ±30 s); null when it is none of them. Whether that step may
 * still be used is the caller's to decide (a code is good once: RFC 6238 §5.2).
 */
export async function totpStepOf(secret: string, code: string): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = await verify({ secret, token: code, epochTolerance: 30 });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** Ten one-time recovery codes, xxxx-xxxx from an alphabet without look-alikes. */
export function newRecoveryCodes(count = 10): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(8);
    const chars = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  });
}

export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.trim().toLowerCase());
}
