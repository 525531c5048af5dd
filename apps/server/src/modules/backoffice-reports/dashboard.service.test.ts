import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { localDay } from '../promotions/days.ts';
import { resolvePeriod } from './dashboard.service.ts';
import { maskCodes } from './reports.service.ts';

describe('dashboard period', () => {
  // 02:00 UTC on the 25th is still the evening of the 24th in São Paulo (UTC−3).
  const now = new Date('2026-11-25T02:00:00Z');

  it('counts days on the site calendar', () => {
    expect(localDay(now, 'UTC')).toBe('2026-11-25');
    expect(localDay(now, 'America/Sao_Paulo')).toBe('2026-11-24');
  });

  it('turns presets into days ending today (today counts as one)', () => {
    expect(resolvePeriod({ preset: 'today' }, now, 'America/Sao_Paulo')).toEqual({
      from: '2026-11-24',
      to: '2026-11-24',
    });
    expect(resolvePeriod({ preset: '7d' }, now, 'America/Sao_Paulo')).toEqual({
      from: '2026-11-18',
      to: '2026-11-24',
    });
    expect(resolvePeriod({ preset: '30d' }, now, 'UTC')).toEqual({ from: '2026-10-27', to: '2026-11-25' });
    // Neither preset nor days: the last 7 days.
    expect(resolvePeriod({}, now, 'UTC')).toEqual({ from: '2026-11-19', to: '2026-11-25' });
  });

  it('takes explicit days, a missing end being today, and refuses a reversed or over-long period', () => {
    expect(resolvePeriod({ from: '2026-01-01', to: '2026-01-31' }, now, 'UTC')).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(resolvePeriod({ from: '2026-11-20' }, now, 'UTC')).toEqual({
      from: '2026-11-20',
      to: '2026-11-25',
    });
    expect(() => resolvePeriod({ from: '2026-02-01', to: '2026-01-01' }, now, 'UTC')).toThrow(AppError);
    expect(() => resolvePeriod({ from: '2024-01-01', to: '2026-01-01' }, now, 'UTC')).toThrow(AppError);
  });
});

describe('mail outbox', () => {
  it('masks one-time codes in a body and leaves other text', () => {
    expect(maskCodes('Your code is 482913. Valid 10 minutes.')).toBe(
      'Your code is ••••••. Valid 10 minutes.',
    );
    expect(maskCodes('Código: 1234')).toBe('Código: ••••');
  });
});
