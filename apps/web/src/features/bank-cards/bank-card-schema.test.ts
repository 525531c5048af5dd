import { describe, expect, it } from 'vitest';
import { ZBankCardForm } from './bank-card-schema.ts';
import { pixKeyProblem, validCnpj, validCpf } from './pix-key.ts';

const CARD = {
  account_type: 'CPF',
  name: 'Maria da Silva',
  account: '529.982.247-25',
  cpf_id: '52998224725',
};

function fieldErrors(input: unknown): Record<string, string> {
  const result = ZBankCardForm.safeParse(input);
  if (result.success) return {};
  // The form shows the first problem of each field, as react-hook-form's zod resolver does.
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

describe('bank card form validation', () => {
  it('checks CPF and CNPJ check digits (CNPJ also in the alphanumeric form)', () => {
    expect(validCpf('529.982.247-25')).toBe('52998224725');
    expect(validCpf('529.982.247-26')).toBeNull();
    expect(validCpf('111.111.111-11')).toBeNull();
    expect(validCnpj('11.222.333/0001-81')).toBe('11222333000181');
    expect(validCnpj('11.222.333/0001-82')).toBeNull();
    expect(validCnpj('12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
  });

  it('checks each PIX key against its type', () => {
    expect(pixKeyProblem('EVP', '123e4567-e89b-42d3-a456-426614174000')).toBeNull();
    expect(pixKeyProblem('EVP', 'not-a-key')).toBe('validation.evp_invalid');
    expect(pixKeyProblem('PHONE', '(11) 98765-4321')).toBeNull();
    expect(pixKeyProblem('PHONE', '12345')).toBe('validation.pix_phone_invalid');
    expect(pixKeyProblem('EMAIL', 'maria@example.com')).toBeNull();
    expect(pixKeyProblem('EMAIL', 'maria@')).toBe('validation.email_invalid');
  });

  it('accepts a valid card', () => {
    expect(fieldErrors(CARD)).toEqual({});
  });

  it('reports every problem on its field with the catalogue message key', () => {
    expect(fieldErrors({ ...CARD, account: '529.982.247-26', cpf_id: '123' })).toEqual({
      account: 'validation.cpf_invalid',
      cpf_id: 'validation.cpf_invalid',
    });
    expect(fieldErrors({ ...CARD, cpf_id: '111.444.777-35' })).toEqual({
      account: 'validation.pix_cpf_mismatch',
    });
    expect(fieldErrors({ ...CARD, account_type: 'BANK', name: '' })).toMatchObject({
      account_type: 'validation.account_type_invalid',
      name: 'validation.required.name',
    });
  });
});
