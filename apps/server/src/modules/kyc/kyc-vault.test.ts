import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DocumentTooLarge, MAX_KYC_DOCUMENT_BYTES, readAtMost } from './kyc.connection.ts';
import { documentAad, KycVault, parseDocumentKey, sniffDocument, vaultFromConfig } from './kyc.vault.ts';
import { checkDocument } from './kyc-documents.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 9, 9]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj');

describe('identity documents by content', () => {
  it('reads the type from the magic bytes, whatever the file claims to be', () => {
    expect(sniffDocument(PNG)).toBe('image/png');
    expect(sniffDocument(JPEG)).toBe('image/jpeg');
    expect(sniffDocument(PDF)).toBe('application/pdf');
    expect(sniffDocument(Buffer.from('GIF89a....'))).toBeNull();
    expect(sniffDocument(Buffer.from('MZ\x90\x00 executable', 'latin1'))).toBeNull();
    expect(sniffDocument(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
  });

  it('refuses empty, oversized and wrong-typed files, and a PDF as a selfie', () => {
    expect(checkDocument('document_front', JPEG)).toEqual({ contentType: 'image/jpeg' });
    expect(checkDocument('document_back', PDF)).toEqual({ contentType: 'application/pdf' });
    expect(checkDocument('selfie', PDF)).toEqual({ refused: 'unsupported_type' });
    expect(checkDocument('selfie', Buffer.alloc(0))).toEqual({ refused: 'missing' });
    const big = Buffer.concat([JPEG, Buffer.alloc(MAX_KYC_DOCUMENT_BYTES)]);
    expect(checkDocument('document_front', big)).toEqual({ refused: 'too_large' });
    const exact = Buffer.concat([JPEG, Buffer.alloc(MAX_KYC_DOCUMENT_BYTES - JPEG.length)]);
    expect(checkDocument('document_front', exact)).toEqual({ contentType: 'image/jpeg' });
  });

  it('stops reading a body past the limit, declared or not', async () => {
    const body = new Uint8Array(1025);
    await expect(readAtMost(new Response(body), 1024)).rejects.toBeInstanceOf(DocumentTooLarge);
    await expect(
      readAtMost(new Response(body, { headers: { 'content-length': '1025' } }), 1024),
    ).rejects.toBeInstanceOf(DocumentTooLarge);
    expect((await readAtMost(new Response(new Uint8Array(1024)), 1024)).length).toBe(1024);
  });
});

describe('the document vault (AES-256-GCM)', () => {
  const vault = new KycVault(randomBytes(32));
  const aad = documentAad(42n, 'selfie');

  it('round-trips a file and stores none of its bytes in the clear', () => {
    const plaintext = Buffer.concat([JPEG, Buffer.from('face of Maria da Silva')]);
    const sealed = vault.seal(plaintext, aad);
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(sealed.ciphertext.includes(Buffer.from('Maria'))).toBe(false);
    expect(vault.open(sealed, aad).equals(plaintext)).toBe(true);
    // A fresh IV each time: the same file never seals to the same bytes.
    expect(vault.seal(plaintext, aad).ciphertext.equals(sealed.ciphertext)).toBe(false);
  });

  it('refuses a changed byte, another session or kind, and another key', () => {
    const sealed = vault.seal(PNG, aad);
    const flipped = Buffer.from(sealed.ciphertext);
    flipped[0] = flipped[0]! ^ 1;
    expect(() => vault.open({ ...sealed, ciphertext: flipped }, aad)).toThrow();
    expect(() => vault.open(sealed, documentAad(43n, 'selfie'))).toThrow();
    expect(() => vault.open(sealed, documentAad(42n, 'document_front'))).toThrow();
    const other = new KycVault(randomBytes(32));
    expect(() => other.open(sealed, aad)).toThrow(/unknown key/);
  });

  it('takes the key as 64 hex digits or base64 of 32 bytes, nothing else', () => {
    const key = randomBytes(32);
    expect(parseDocumentKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseDocumentKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => parseDocumentKey('short')).toThrow(/32 bytes/);
    expect(() => parseDocumentKey(randomBytes(16).toString('hex'))).toThrow(/32 bytes/);
  });

  it('digests a CPF under the key, so the digest cannot be reversed by trying every CPF without it', () => {
    const digest = vault.digest('cpf-lookup', '1:52998224725');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).toBe(vault.digest('cpf-lookup', '1:52998224725'));
    expect(new KycVault(randomBytes(32)).digest('cpf-lookup', '1:52998224725')).not.toBe(digest);
  });
});

describe('the document key rotated', () => {
  it('opens rows under the current or a retired key, seals under the current one, and names an unknown key', () => {
    const [before, now] = [randomBytes(32), randomBytes(32)];
    const earlier = new KycVault(before);
    const rotated = new KycVault(now, [before, now]);
    // The current key given as retired too is not retired.
    expect(rotated.retiredKeyIds).toEqual([earlier.keyId]);
    const aad = documentAad(7n, 'selfie');
    const old = earlier.seal(JPEG, aad);
    expect(rotated.open(old, aad).equals(JPEG)).toBe(true);
    const fresh = rotated.seal(JPEG, aad);
    expect(fresh.keyId).toBe(rotated.keyId);
    expect(() => earlier.open(fresh, aad)).toThrow(/unknown key/);
    expect(() => rotated.open(old, documentAad(8n, 'selfie'))).toThrow();
  });

  it('reads the retired keys from the environment, comma-separated, and refuses one that is not 32 bytes', () => {
    const [before, now] = [randomBytes(32).toString('hex'), randomBytes(32).toString('base64')];
    const vault = vaultFromConfig({
      KYC_DOCUMENT_KEY: now,
      KYC_DOCUMENT_KEYS_RETIRED: ` ${before} ,`,
      NODE_ENV: 'production',
      DATA_DIR: '/nonexistent',
    });
    expect(vault.retiredKeyIds).toEqual([new KycVault(Buffer.from(before, 'hex')).keyId]);
    expect(() =>
      vaultFromConfig({
        KYC_DOCUMENT_KEY: now,
        KYC_DOCUMENT_KEYS_RETIRED: 'abc',
        NODE_ENV: 'production',
        DATA_DIR: '/x',
      }),
    ).toThrow(/32 bytes/);
  });
});
