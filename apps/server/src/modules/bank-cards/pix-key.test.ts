import { BANK_ACCOUNT_TYPES, normalizePixKey, validCpf } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import { maskCpf, maskPixKey } from '../../core/pii-masks.ts';

describe('PIX key normalisation', () => {
  it('writes CPF and CNPJ keys without punctuation and checks their digits', () => {
    expect(normalizePixKey('CPF', ' 529.982.247-25 ')).toEqual({ ok: true, key: '52998224725' });
    expect(normalizePixKey('CPF', '52998224726')).toEqual({
      ok: false,
      messageKey: 'validation.cpf_invalid',
    });
    expect(normalizePixKey('CPF', '11111111111').ok).toBe(false);
    expect(normalizePixKey('CPF', '5299822472').ok).toBe(false);
    expect(normalizePixKey('CNPJ', '11.222.333/0001-81')).toEqual({ ok: true, key: '11222333000181' });
    expect(normalizePixKey('CNPJ', '12.abc.345/01de-35')).toEqual({ ok: true, key: '12ABC34501DE35' });
    expect(normalizePixKey('CNPJ', '11222333000182')).toEqual({
      ok: false,
      messageKey: 'validation.cnpj_invalid',
    });
  });

  it('accepts only UUID version 4 random keys, stored in lower case', () => {
    expect(normalizePixKey('EVP', '3F2504E0-4F89-41D3-9A0C-0305E82C3301')).toEqual({
      ok: true,
      key: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    });
    // Version 1 UUID, wrong variant, no dashes, too short.
    for (const bad of [
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      '3f2504e0-4f89-41d3-7a0c-0305e82c3301',
      '3f2504e04f8941d39a0c0305e82c3301',
      '3f2504e0-4f89-41d3-9a0c',
    ]) {
      expect(normalizePixKey('EVP', bad)).toEqual({ ok: false, messageKey: 'validation.evp_invalid' });
    }
  });

  it('writes Brazilian phone keys in E.164 and refuses foreign or malformed numbers', () => {
    expect(normalizePixKey('PHONE', '(11) 98765-4321')).toEqual({ ok: true, key: '+5511987654321' });
    expect(normalizePixKey('PHONE', '+55 21 99876-5432')).toEqual({ ok: true, key: '+5521998765432' });
    for (const bad of ['+1 202 555 0143', '12345', '11 98765-432a', '+55 00 98765-4321', '9'.repeat(30)]) {
      expect(normalizePixKey('PHONE', bad)).toEqual({
        ok: false,
        messageKey: 'validation.pix_phone_invalid',
      });
    }
  });

  it('writes email keys in lower case and refuses malformed or over-long ones', () => {
    expect(normalizePixKey('EMAIL', ' Maria.Silva@Example.COM ')).toEqual({
      ok: true,
      key: 'maria.silva@example.com',
    });
    for (const bad of [
      'maria',
      'maria@',
      '@example.com',
      'ma ria@example.com',
      'a@b@c.com',
      'maria@example',
    ]) {
      expect(normalizePixKey('EMAIL', bad)).toEqual({ ok: false, messageKey: 'validation.email_invalid' });
    }
    expect(normalizePixKey('EMAIL', `${'a'.repeat(70)}@example.com`).ok).toBe(false);
  });

  it('gives every account type an answer for garbage', () => {
    for (const type of BANK_ACCOUNT_TYPES) {
      for (const garbage of ['', ' ', '💸', 'x'.repeat(500), "'; DROP TABLE members; --"]) {
        expect(normalizePixKey(type, garbage).ok).toBe(false);
      }
    }
  });

  it('validates payee CPFs', () => {
    expect(validCpf('529.982.247-25')).toBe('52998224725');
    expect(validCpf('529.982.247-24')).toBeNull();
  });

  it("masks the player's own keys by the same rules as the back office (ADR 022)", () => {
    expect(maskCpf('52998224725')).toBe('***.982.247-**');
    expect(maskCpf('529.982.247-25')).toBe('***.982.247-**');
    expect(maskPixKey('EMAIL', 'maria@example.com')).toBe('m***@e***.com');
    expect(maskPixKey('PHONE', '+5511987654321')).toBe('+55 11 *****-4321');
    expect(maskPixKey('EVP', '3f2504e0-4f89-41d3-9a0c-0305e82c3301')).toBe('3f2504e0-****-****-****-3301');
    expect(maskPixKey('CNPJ', '11222333000181')).toBe('11.***.***/0001-**');
  });
});
