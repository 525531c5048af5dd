import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSha256, hmacSha256Hex, sha256Hex } from './sha256.ts';

/** A deterministic byte pattern, so a failure is reproducible. */
function bytesOfLength(length: number, salt: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 131 + salt * 17 + (i >> 3)) & 0xff;
  return bytes;
}

describe('sha256', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto for every length from 0 to 300 bytes (all padding cases)', () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = bytesOfLength(length, length);
      expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('hashes strings as UTF-8', () => {
    const text = 'Sorte — sorte grande 幸运 🎲';
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
  });
});

describe('hmacSha256', () => {
  it('matches RFC 4231 test case 2', () => {
    expect(hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('agrees with node:crypto for keys shorter than, equal to and longer than a block', () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 100, 200]) {
      const key = bytesOfLength(keyLength, 7);
      const hmac = new HmacSha256(key);
      for (const messageLength of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200]) {
        const message = bytesOfLength(messageLength, messageLength + 3);
        const expected = createHmac('sha256', key).update(message).digest('hex');
        expect(Buffer.from(hmac.digest(message)).toString('hex')).toBe(expected);
      }
    }
  });

  it('gives the same digest when a precomputed key is reused many times', () => {
    const hmac = new HmacSha256('server-seed');
    const first = Buffer.from(hmac.digest('client:0:0')).toString('hex');
    for (let i = 0; i < 5; i++) hmac.digest(`noise-${i}`);
    expect(Buffer.from(hmac.digest('client:0:0')).toString('hex')).toBe(first);
  });
});
