import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone.ts';

describe('normalizePhone', () => {
  it('turns national Brazilian numbers and spaced international ones into E.164', () => {
    expect(normalizePhone('11987654321')).toBe('+5511987654321');
    expect(normalizePhone('(11) 98765-4321')).toBe('+5511987654321');
    expect(normalizePhone('+55 11 98765 4321')).toBe('+5511987654321');
    expect(normalizePhone('+351 912 345 678')).toBe('+351912345678');
  });
});
