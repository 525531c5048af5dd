import { describe, expect, it } from 'vitest';
import { isValidCpf, normalizeCpf } from './cpf.ts';

describe('isValidCpf', () => {
  it('accepts well-known valid CPFs, with or without punctuation', () => {
    for (const cpf of ['52998224725', '11144477735', '12345678909', '529.982.247-25', '111.444.777-35']) {
      expect(isValidCpf(cpf), cpf).toBe(true);
    }
  });

  it('rejects a wrong first or second check digit', () => {
    expect(isValidCpf('52998224715')).toBe(false);
    expect(isValidCpf('52998224724')).toBe(false);
    expect(isValidCpf('11144477736')).toBe(false);
  });

  it('rejects repeated digits, wrong lengths and non-digits', () => {
    for (const cpf of [
      '11111111111',
      '00000000000',
      '5299822472',
      '529982247250',
      '5299822472a',
      '',
      '529 982 247 2 5x',
    ]) {
      expect(isValidCpf(cpf), cpf).toBe(false);
    }
  });

  it('normalises punctuation and refuses absurdly long input', () => {
    expect(normalizeCpf('529.982.247-25')).toBe('52998224725');
    expect(normalizeCpf(`${'1'.repeat(11)}${' '.repeat(30)}`)).toBeNull();
  });
});
