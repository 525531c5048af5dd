import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../core/hash.ts';
import { bearerToken, newToken } from './tokens.ts';

describe('session tokens', () => {
  it('are 256-bit base64url strings, all different', () => {
    const tokens = new Set(Array.from({ length: 50 }, newToken));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are read from a Bearer header only when well formed', () => {
    const token = newToken();
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`bearer   ${token}`)).toBe(token);
    for (const bad of [
      undefined,
      token,
      `Basic ${token}`,
      'Bearer short',
      `Bearer ${token}x`,
      `Bearer ${'a'.repeat(300)}`,
    ]) {
      expect(bearerToken(bad)).toBeNull();
    }
  });

  it('are stored as their SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
