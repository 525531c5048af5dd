import { formatMinor, MAX_MINOR, ZMoneyInput } from '@sorte/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { feeOf } from '../withdrawals/withdrawals.service.ts';
import { newOrderNo, sinceOf } from './deposits.service.ts';

const money = ZMoneyInput('amount');

describe('money typed by a player', () => {
  it('reads every amount the server writes back as the same centavos', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_MINOR }), (minor) => {
        expect(money.parse(formatMinor(minor))).toBe(minor);
      }),
    );
  });

  it('accepts whole and one-decimal amounts and JSON numbers through their decimal text', () => {
    expect(money.parse('12')).toBe(1200n);
    expect(money.parse('12.3')).toBe(1230n);
    expect(money.parse(' 12.30 ')).toBe(1230n);
    expect(money.parse(12.3)).toBe(1230n);
  });

  it('refuses negative, zero, sub-centavo, huge, exponent and non-numeric amounts', () => {
    for (const bad of [
      '-1',
      '0',
      '0.00',
      '0.001',
      '1.005',
      '99999999999999',
      '1e3',
      'abc',
      '',
      '1,50',
      0.1 + 0.2,
      -3,
      NaN,
    ]) {
      expect(money.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe('withdrawal fee rule', () => {
  const settings = {
    id: 1n,
    siteId: null,
    minMinor: 2000n,
    maxMinor: 5_000_000n,
    feeBps: 100,
    feeMinMinor: 200n,
    dailyCountMax: 5,
  };

  it('charges the minimum fee on small amounts and the percentage above it, rounded down', () => {
    expect(feeOf(settings, 2000n)).toBe(200n);
    expect(feeOf(settings, 20_000n)).toBe(200n);
    expect(feeOf(settings, 20_099n)).toBe(200n);
    expect(feeOf(settings, 123_456n)).toBe(1234n);
  });

  it('never charges more than the percentage rule or less than the minimum', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2000n, max: 5_000_000n }), (amount) => {
        const fee = feeOf(settings, amount);
        expect(fee >= 200n).toBe(true);
        expect(fee === 200n || fee === (amount * 100n) / 10_000n).toBe(true);
        expect(fee < amount).toBe(true);
      }),
    );
  });
});

describe('order numbers and record windows', () => {
  it('makes order numbers of the day with 12 unambiguous random characters', () => {
    const no = newOrderNo('R', new Date('2026-11-23T10:00:00Z'));
    expect(no).toMatch(/^R20261123[A-HJ-NP-Z2-9]{12}$/);
    expect(new Set(Array.from({ length: 1000 }, () => newOrderNo('W'))).size).toBe(1000);
  });

  it('starts today, the last 3 and the last 7 days at midnight in the site time zone', () => {
    const now = new Date('2026-11-23T02:30:00Z');
    const intl = { jurisdiction: 'intl' } as const;
    expect(sinceOf(intl, 'today', now)?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(sinceOf(intl, 'last_3_days', now)?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(sinceOf(intl, 'last_7_days', now)?.toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(sinceOf(intl, 'all', now)).toBeNull();
    expect(sinceOf(intl, undefined, now)).toBeNull();
    // 02:30 UTC is still 23:30 of the day before in São Paulo.
    expect(sinceOf({ jurisdiction: 'br' }, 'today', now)?.toISOString()).toBe('2026-11-22T03:00:00.000Z');
  });
});
