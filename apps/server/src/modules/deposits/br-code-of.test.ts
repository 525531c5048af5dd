import { isValidBrCode } from '@sorte/pix-br-code';
import { describe, expect, it } from 'vitest';
import type { Charge } from '../payments/psp/psp.client.ts';
import { brCodeOf } from './deposits.service.ts';

const charge: Charge = {
  txid: 'abcdefghijklmnopqrstuvwxyz012345',
  revision: 0,
  status: 'ATIVA',
  amountMinor: 1000n,
  pixKey: 'key',
  createdAt: new Date('2026-11-23T12:00:00Z'),
  expiresAt: new Date('2026-11-23T12:15:00Z'),
  location: 'pix.example.com/qr/v2/2353c790eefb11eaadc10242ac120002',
  pixCopiaECola: null,
  payments: [],
};

describe('brCodeOf (pixCopiaECola is optional in the standard)', () => {
  it('shows the PSP’s BR Code, or builds the dynamic one from the location', () => {
    expect(brCodeOf({ ...charge, pixCopiaECola: '000201X' }, 'key')).toBe('000201X');
    const built = brCodeOf(charge, 'key');
    expect(isValidBrCode(built)).toBe(true);
    expect(built).toContain(charge.location);
  });

  it('refuses a charge it cannot show: no BR Code and no location, or on another key', () => {
    expect(() => brCodeOf({ ...charge, location: null }, 'key')).toThrow(/pixCopiaECola or location/);
    expect(() => brCodeOf(charge, 'other-key')).toThrow();
  });
});
