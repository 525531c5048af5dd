import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayBounds, localDay } from './days.ts';

/** An independent reading of the local date: en-CA formats it as YYYY-MM-DD. */
function oracleDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

const ZONES = [
  'America/Sao_Paulo',
  'UTC',
  'Europe/London',
  'America/New_York',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
];

describe('localDay', () => {
  it('answers the local date of any instant, asked in any order, across zones and their DST changes', () => {
    const instant = fc.date({
      min: new Date('2016-01-01T00:00:00Z'),
      max: new Date('2036-12-31T23:59:59Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(instant, fc.constantFrom(...ZONES), fc.integer({ min: -120_000, max: 120_000 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (asks) => {
          for (const [at, zone, nudgeMs] of asks) {
            // The same minute again, and an instant near it: the cached day must still be right.
            for (const when of [at, new Date(at.getTime() + nudgeMs), at]) {
              expect(localDay(when, zone)).toBe(oracleDay(when, zone));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('turns at local midnight, also where the offset is not a whole hour', () => {
    for (const zone of ['Asia/Kathmandu', 'Pacific/Chatham', 'America/Sao_Paulo']) {
      const { start, end } = dayBounds('2026-03-15', zone);
      expect(localDay(new Date(start.getTime() - 1), zone)).toBe('2026-03-14');
      expect(localDay(start, zone)).toBe('2026-03-15');
      expect(localDay(new Date(end.getTime() - 1), zone)).toBe('2026-03-15');
      expect(localDay(end, zone)).toBe(addDays('2026-03-15', 1));
    }
  });
});
