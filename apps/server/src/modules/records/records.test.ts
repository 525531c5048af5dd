import { TRANSACTION_KINDS } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import { periodStart, siteTimeZone } from '../../core/periods.ts';
import { isAppError } from '../../errors.ts';
import { TRANSFER_KINDS } from '../wallet/wallet.schema.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { maskUsername, toTransactionRow } from './records.service.ts';

describe('record periods', () => {
  it('counts calendar days in UTC on intl sites', () => {
    const now = new Date('2026-11-23T02:30:00Z');
    expect(siteTimeZone({ jurisdiction: 'intl' })).toBe('UTC');
    expect(periodStart('today', now, 'UTC')?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(periodStart('last_3_days', now, 'UTC')?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(periodStart('last_7_days', now, 'UTC')?.toISOString()).toBe('2026-11-17T00:00:00.000Z');
    expect(periodStart('all', now, 'UTC')).toBeNull();
  });

  it('counts calendar days in São Paulo on br sites, where it is still yesterday at 02:30 UTC', () => {
    const zone = siteTimeZone({ jurisdiction: 'br' });
    expect(zone).toBe('America/Sao_Paulo');
    const now = new Date('2026-11-23T02:30:00Z'); // 23:30 on the 22nd in São Paulo (UTC-3)
    expect(periodStart('today', now, zone)?.toISOString()).toBe('2026-11-22T03:00:00.000Z');
    expect(periodStart('last_3_days', now, zone)?.toISOString()).toBe('2026-11-20T03:00:00.000Z');
    expect(periodStart('last_7_days', now, zone)?.toISOString()).toBe('2026-11-16T03:00:00.000Z');
  });

  it('rolls over month and year starts', () => {
    const now = new Date('2027-01-02T12:00:00Z');
    expect(periodStart('last_7_days', now, 'UTC')?.toISOString()).toBe('2026-12-27T00:00:00.000Z');
    expect(periodStart('last_3_days', now, 'America/Sao_Paulo')?.toISOString()).toBe(
      '2026-12-31T03:00:00.000Z',
    );
  });

  it('finds local midnight across a daylight-saving change', () => {
    // New York springs forward on 2026-03-08: midnight of the 7th is UTC-5, of the 9th UTC-4.
    const now = new Date('2026-03-09T15:00:00Z');
    expect(periodStart('today', now, 'America/New_York')?.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(periodStart('last_3_days', now, 'America/New_York')?.toISOString()).toBe(
      '2026-03-07T05:00:00.000Z',
    );
  });
});

describe('record cursors', () => {
  it('round-trips the keyset position with microseconds', () => {
    const cursor = {
      createdAt: '2026-11-23T02:03:31.123456Z',
      id: 9_007_199_254_740_993n,
      direction: 'prev' as const,
    };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it('refuses anything we did not issue with a cursor field error', () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      '',
      'not base64!',
      'x'.repeat(201),
      Buffer.from('{not json').toString('base64url'),
      b64(null),
      b64([1, 2]),
      b64({ t: '2026-11-23T02:03:31Z', i: '1', d: 'n' }),
      b64({ t: '2026-11-23T02:03:31.123456Z', i: 1, d: 'n' }),
      b64({ t: '2026-11-23T02:03:31.123456Z', i: '0', d: 'n' }),
      b64({ t: '2026-11-23T02:03:31.123456Z', i: '99999999999999999999', d: 'n' }),
      b64({ t: '2026-11-23T02:03:31.123456Z', i: '1', d: 'x' }),
      b64({ t: "2026-11-23T02:03:31.123456Z'; --", i: '1', d: 'n' }),
    ];
    for (const text of bad) {
      let caught: unknown;
      try {
        decodeCursor(text);
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught) && caught.fieldErrors, text).toEqual({ cursor: 'validation.cursor_invalid' });
    }
  });
});

describe('transaction rows', () => {
  const row = (overrides: Partial<Parameters<typeof toTransactionRow>[0]>) =>
    toTransactionRow({
      id: '7',
      kind: 'deposit',
      amount_minor: '12345',
      debit_kind: null,
      credit_kind: 'cash',
      debit_balance_after_minor: null,
      credit_balance_after_minor: '20000',
      reference: 'R1',
      created_at: '2026-11-23T02:03:31.123456Z',
      ...overrides,
    });

  it('shows credits, debits and held money from the player side', () => {
    expect(row({})).toMatchObject({
      amount: '123.45',
      change: '+123.45',
      direction: 'in',
      account: 'cash',
      balance_after: '200.00',
    });
    expect(
      row({
        kind: 'bet',
        debit_kind: 'bonus',
        credit_kind: null,
        debit_balance_after_minor: '5',
        credit_balance_after_minor: null,
      }),
    ).toMatchObject({ change: '-123.45', direction: 'out', account: 'bonus', balance_after: '0.05' });
    // A withdrawal request takes the money from cash into the hold at once.
    expect(
      row({
        kind: 'withdrawal_hold',
        debit_kind: 'cash',
        credit_kind: 'withdrawal_hold',
        debit_balance_after_minor: '100',
        credit_balance_after_minor: '12345',
      }),
    ).toMatchObject({ change: '-123.45', direction: 'out', account: 'cash', balance_after: '1.00' });
    // The payout only moves held money.
    expect(
      row({
        kind: 'withdrawal_payout',
        debit_kind: 'withdrawal_hold',
        credit_kind: null,
        debit_balance_after_minor: '0',
        credit_balance_after_minor: null,
      }),
    ).toMatchObject({ change: '0.00', direction: 'none', account: 'withdrawal_hold', balance_after: '0.00' });
    // Bonus converted to cash: playable total unchanged, shown on the cash side.
    expect(
      row({
        kind: 'bonus_convert',
        debit_kind: 'bonus',
        credit_kind: 'cash',
        debit_balance_after_minor: '0',
        credit_balance_after_minor: '500',
      }),
    ).toMatchObject({ change: '0.00', direction: 'none', account: 'cash', balance_after: '5.00' });
  });

  it('knows every kind the wallet can post', () => {
    expect([...TRANSACTION_KINDS].sort()).toEqual([...TRANSFER_KINDS].sort());
  });

  it('hides the middle of invitee usernames', () => {
    expect(maskUsername('maria2026')).toBe('ma***26');
    expect(maskUsername('abcd')).toBe('a***');
  });
});
