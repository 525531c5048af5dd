import { describe, expect, it } from 'vitest';
import { isValidCnpj, normalizeCnpj } from './cnpj.ts';

describe('isValidCnpj', () => {
  it('accepts well-known valid numeric CNPJs, with or without punctuation', () => {
    for (const cnpj of ['11222333000181', '11444777000161', '11.222.333/0001-81', '00000000000191']) {
      expect(isValidCnpj(cnpj), cnpj).toBe(true);
    }
  });

  it('accepts the Receita Federal example of an alphanumeric CNPJ', () => {
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12abc34501de35')).toBe(true);
  });

  it('rejects wrong check digits', () => {
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('11222333000191')).toBe(false);
    expect(isValidCnpj('12ABC34501DE36')).toBe(false);
  });

  it('rejects repeated digits, wrong lengths, letters in the check digits and other characters', () => {
    for (const cnpj of [
      '00000000000000',
      '11111111111111',
      '1122233300018',
      '112223330001811',
      '12ABC34501DEA5',
      '11222333000-8#',
      '',
    ]) {
      expect(isValidCnpj(cnpj), cnpj).toBe(false);
    }
  });

  it('normalises punctuation and case', () => {
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });
});
