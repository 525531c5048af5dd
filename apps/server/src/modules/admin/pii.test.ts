import { describe, expect, it } from 'vitest';
import { maskCpf, maskEmail, maskIp, maskPhone, maskPixKey } from '../../core/pii-masks.ts';
import { playerContactFor, seesPii } from './pii.ts';

describe('personal data masked for operators without players.pii', () => {
  it('masks a CPF to its middle six digits, typed with or without punctuation', () => {
    expect(maskCpf('12345678909')).toBe('***.456.789-**');
    expect(maskCpf('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpf('1234')).toBe('***');
  });

  it('masks an e-mail to first letters and the domain suffix', () => {
    expect(maskEmail('joao@dominio.com')).toBe('j***@d***.com');
    expect(maskEmail('maria.silva@empresa.com.br')).toBe('m***@e***.com.br');
    expect(maskEmail('not-an-email')).toBe('***');
  });

  it('masks a phone to country, area code and the last four digits', () => {
    expect(maskPhone('+5511987654321')).toBe('+55 11 *****-4321');
    expect(maskPhone('+551133334321')).toBe('+55 11 ****-4321');
    expect(maskPhone('+447911123456')).toBe('+44 ******3456');
    expect(maskPhone('12')).toBe('***');
  });

  it('masks an IP address to its network', () => {
    expect(maskIp('203.0.113.45')).toBe('203.0.*.*');
    expect(maskIp('2001:db8:85a3::8a2e:370:7334')).toBe('2001:db8:*');
    expect(maskIp('unknown')).toBe('***');
  });

  it('masks a PIX key by its type', () => {
    expect(maskPixKey('CPF', '12345678909')).toBe('***.456.789-**');
    expect(maskPixKey('EMAIL', 'joao@dominio.com')).toBe('j***@d***.com');
    expect(maskPixKey('PHONE', '+5511987654321')).toBe('+55 11 *****-4321');
    expect(maskPixKey('EVP', '123e4567-e89b-12d3-a456-426614174000')).toBe('123e4567-****-****-****-4000');
    expect(maskPixKey('CNPJ', '12345678000195')).toBe('12.***.***/0001-**');
  });

  it('leaves rows whole for roles with players.pii (owner, finance, support), not content', () => {
    const row = {
      id: 1,
      cpf: '12345678909',
      phone: '+5511987654321',
      email: 'joao@dominio.com',
      register_ip: '203.0.113.45',
    };
    expect(playerContactFor(row, true)).toBe(row);
    expect(playerContactFor(row, false)).toEqual({
      id: 1,
      cpf: '***.456.789-**',
      phone: '+55 11 *****-4321',
      email: 'j***@d***.com',
      register_ip: '203.0.*.*',
    });
    expect(playerContactFor({ ...row, cpf: null, email: null }, false)).toMatchObject({
      cpf: null,
      email: null,
    });
    expect(
      ['owner', 'finance', 'support', 'content'].map((role) => seesPii({ role: role as never })),
    ).toEqual([true, true, true, false]);
  });
});
