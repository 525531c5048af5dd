import { hash, verify } from '@node-rs/argon2';

/** Argon2id (the `Algorithm` enum of @node-rs/argon2 is a const enum, unusable under isolatedModules). */
const ARGON2ID = 2;

/** OWASP's baseline for Argon2id: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, OPTIONS);
}

/** False for a wrong secret and for a malformed stored hash (never throws on user input). */
export async function verifySecret(stored: string, secret: string): Promise<boolean> {
  try {
    return await verify(stored, secret);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * Spends the same work as a real check when the account does not exist, so response times do not
 * reveal which account names are registered.
 */
export async function verifyAgainstDummy(secret: string): Promise<false> {
  dummy ??= hashSecret('not-a-real-password-0f3a9c');
  await verifySecret(await dummy, secret);
  return false;
}
