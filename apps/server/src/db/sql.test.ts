import { describe, expect, it } from 'vitest';
import { containsPattern, isoText } from './sql.ts';

describe('isoText', () => {
  it('writes PostgreSQL timestamptz text and Dates as ISO 8601 UTC, milliseconds kept', () => {
    expect(isoText('2026-11-25 14:03:07.123+00')).toBe('2026-11-25T14:03:07.123Z');
    expect(isoText('2026-11-25 11:03:07.5-03')).toBe('2026-11-25T14:03:07.500Z');
    // A Date keeps its milliseconds (String(date) would drop them).
    expect(isoText(new Date(Date.UTC(2026, 10, 25, 14, 3, 7, 123)))).toBe('2026-11-25T14:03:07.123Z');
  });
});

describe('containsPattern', () => {
  it('matches the text as itself inside anything', () => {
    expect(containsPattern('ana')).toBe('%ana%');
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
