import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { WalletError } from '../modules/wallet/wallet.errors.ts';
import { errorHandlerPlugin, fieldErrorsOf } from './error-handler.ts';

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

describe('wallet refusals no caller translated', () => {
  async function appThrowing(error: Error) {
    const app = Fastify({ logger: false });
    app.decorateRequest('lang', 'pt');
    await app.register(errorHandlerPlugin);
    app.get('/boom', async () => {
      throw error;
    });
    return app;
  }

  it('become the contract code with a translated message, never a 500', async () => {
    const app = await appThrowing(new WalletError('INVALID_AMOUNT', 'amount must be positive'));
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      status: 'fail',
      code: 'INVALID_AMOUNT',
      message: 'Valor inválido',
    });
    await app.close();
  });

  it('say how much wagering is still owed', async () => {
    const app = await appThrowing(
      new WalletError('WAGERING_NOT_MET', 'owed', { wageringRequiredMinor: '50000' }),
    );
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('500.00');
    await app.close();
  });
});

describe('a transaction that lost a lock conflict on every try', () => {
  it('is a translated 503 with Retry-After, never a 500', async () => {
    const app = Fastify({ logger: false });
    app.decorateRequest('lang', 'pt');
    await app.register(errorHandlerPlugin);
    app.get('/boom', async () => {
      throw Object.assign(new Error('Failed query: INSERT INTO wallet_transfers …'), {
        cause: Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      });
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.json()).toMatchObject({
      status: 'fail',
      code: 'SERVICE_UNAVAILABLE',
      message: 'Serviço temporariamente indisponível, tente novamente em instantes',
    });
    await app.close();
  });
});
