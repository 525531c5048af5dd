import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './error-handler.ts';

describe('fieldErrorsOf', () => {
  it('keeps the first message per field and the first overall', () => {
    const result = fieldErrorsOf([
      { instancePath: '/password', message: 'validation.password_min' },
      { instancePath: '/password', message: 'validation.too_long' },
      { instancePath: '/phone', message: 'validation.phone_invalid' },
    ]);
    expect(result).toEqual({
      first: 'validation.password_min',
      fields: { password: 'validation.password_min', phone: 'validation.phone_invalid' },
    });
  });

  it("never passes zod's English defaults through", () => {
    const result = fieldErrorsOf([
      {
        instancePath: '/domain',
        message: 'Too big: expected string to have <=253 characters',
        keyword: 'too_big',
      },
      { instancePath: '/x', message: 'Invalid input', keyword: 'invalid_type' },
      { instancePath: '/y', message: 'Something odd', keyword: 'custom' },
    ]);
    expect(result.fields).toEqual({
      domain: 'validation.too_long',
      x: 'validation.wrong_type',
      y: 'validation.invalid',
    });
  });

  it('gives a whole-body error no field', () => {
    expect(
      fieldErrorsOf([{ instancePath: '', message: 'expected object', keyword: 'invalid_type' }]),
    ).toEqual({
      fields: {},
      first: 'validation.wrong_type',
    });
  });
});
