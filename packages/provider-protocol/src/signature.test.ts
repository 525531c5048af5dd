import { describe, expect, it } from 'vitest';
import { signBody, verifyBody } from './signature.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';

describe('signatures', () => {
  it('verify the exact raw body under the shared secret, in constant time', () => {
    const raw = '{"amount":"1.00"}';
    const signature = signBody(SECRET, raw);
    expect(verifyBody(SECRET, raw, signature)).toBe(true);
    expect(verifyBody(SECRET, '{"amount":"9.00"}', signature)).toBe(false);
    expect(verifyBody('another-secret-of-at-least-32-chars', raw, signature)).toBe(false);
    expect(verifyBody(SECRET, raw, undefined)).toBe(false);
    expect(verifyBody(SECRET, raw, signature.toUpperCase())).toBe(false);
    expect(verifyBody(SECRET, raw, signature.slice(2))).toBe(false);
  });
});
