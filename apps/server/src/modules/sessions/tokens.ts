import { randomBytes } from 'node:crypto';

/** 256 random bits, base64url: 43 characters. Only its SHA-256 is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The token of an `Authorization: Bearer …` header, or null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header || header.length > 200) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  return token && TOKEN_SHAPE.test(token) ? token : null;
}
