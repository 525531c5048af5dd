import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TKycDocumentKind } from '@sorte/contract';

declare module 'fastify' {
  interface FastifyInstance {
    /** Encrypts and decrypts identity documents at rest (KYC_DOCUMENT_KEY). */
    kycVault: KycVault;
  }
}

/**
 * Identity documents at rest: AES-256-GCM under one 32-byte key from the environment
 * (KYC_DOCUMENT_KEY, 64 hex digits or base64). Each file gets a fresh 12-byte IV, and
 * "<session id>:<kind>" is authenticated with it, so a row moved onto another session or kind
 * fails to decrypt instead of showing someone else's face.
 */
export type TSealed = { keyId: string; iv: Buffer; authTag: Buffer; ciphertext: Buffer };

/** A key's id as rows carry it: the first 16 hex digits of its SHA-256. */
function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * Rotation: the vault seals under its current key and also opens rows sealed under the keys it is
 * given as retired (KYC_DOCUMENT_KEYS_RETIRED); the `kyc-documents-rekey` job seals those rows
 * again under the current key, after which a retired key can be dropped from the environment.
 */
export class KycVault {
  readonly keyId: string;
  private readonly retired: Map<string, Buffer>;

  constructor(
    private readonly key: Buffer,
    retired: readonly Buffer[] = [],
  ) {
    if (key.length !== 32) throw new Error('KYC_DOCUMENT_KEY must be 32 bytes');
    this.keyId = keyIdOf(key);
    this.retired = new Map(
      retired.filter((old) => keyIdOf(old) !== this.keyId).map((old) => [keyIdOf(old), old] as const),
    );
  }

  /** The ids of the retired keys this vault still opens (rows under them are to be sealed again). */
  get retiredKeyIds(): string[] {
    return [...this.retired.keys()];
  }

  seal(plaintext: Buffer, aad: string): TSealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { keyId: this.keyId, iv, authTag: cipher.getAuthTag(), ciphertext };
  }

  /**
   * The plaintext, under the current key or a retired one; throws when the row's key is neither or
   * a byte of the row or its AAD changed.
   */
  open(sealed: TSealed, aad: string): Buffer {
    const key = sealed.keyId === this.keyId ? this.key : this.retired.get(sealed.keyId);
    if (!key) throw new Error(`document sealed under an unknown key (${sealed.keyId})`);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  }

  /**
   * A keyed digest (HMAC-SHA256 under a key derived from the current key): for values that must be
   * counted without being kept, such as the CPFs of sign-up lookups. A plain hash of an 11-digit
   * CPF would be reversed by trying them all. A rotation starts the counts afresh (their windows
   * are short).
   */
  digest(purpose: string, value: string): string {
    const derived = createHmac('sha256', this.key).update(`sorte:${purpose}`).digest();
    return createHmac('sha256', derived).update(value).digest('hex');
  }
}

/** "<session id>:<kind>": the data each document's ciphertext is bound to. */
export function documentAad(sessionId: bigint, kind: TKycDocumentKind): string {
  return `${sessionId}:${kind}`;
}

/** 64 hex digits or base64 of 32 bytes; anything else is refused at boot. */
export function parseDocumentKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, 'hex')
    : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('KYC_DOCUMENT_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}

/**
 * The vault of a process: KYC_DOCUMENT_KEY when set. Without it, a test process makes a key up
 * (its documents live as long as its database), and a demo keeps one in
 * `<DATA_DIR>/secrets/kyc-document.key` (created on first start, mode 0600, shared by the
 * workers of `npm run serve`), so documents stored yesterday still open today. A real provider
 * needs the key set (server.ts refuses to start without it): a key beside the data it protects is
 * no protection for a copy of that disk.
 */
export function vaultFromConfig(config: {
  KYC_DOCUMENT_KEY?: string | undefined;
  KYC_DOCUMENT_KEYS_RETIRED?: string | undefined;
  NODE_ENV: string;
  DATA_DIR: string;
}): KycVault {
  const retired = (config.KYC_DOCUMENT_KEYS_RETIRED ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean)
    .map(parseDocumentKey);
  if (config.KYC_DOCUMENT_KEY) return new KycVault(parseDocumentKey(config.KYC_DOCUMENT_KEY), retired);
  if (config.NODE_ENV === 'test') return new KycVault(randomBytes(32));
  const file = join(config.DATA_DIR, 'secrets', 'kyc-document.key');
  try {
    return new KycVault(parseDocumentKey(devKey(file)), retired);
  } catch (error) {
    throw new Error(
      `KYC_DOCUMENT_KEY is unset and ${file} cannot be kept: set it, or make that folder writable`,
      {
        cause: error,
      },
    );
  }
}

function devKey(file: string): string {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Written whole to a file of this process, then linked into place: link() fails when the key
  // exists, so of two processes starting at once the first one's key wins and is read complete.
  const draft = `${file}.${process.pid}.tmp`;
  writeFileSync(draft, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  return readFileSync(file, 'utf8');
}

/** A document's type read from its first bytes (magic numbers), never from what was claimed. */
export function sniffDocument(bytes: Buffer): 'image/jpeg' | 'image/png' | 'application/pdf' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}
