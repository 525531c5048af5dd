import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { recordLabels } from './record-labels.ts';

const t = i18next.t.bind(i18next) as (key: string, options?: Record<string, unknown>) => string;

describe('game record labels', () => {
  it('names a sports bet in the reader’s words and leaves other games as the server named them', () => {
    expect(recordLabels({ game: 'sportsbook', brand: 'sportsbook', name: '3' }, t)).toEqual({
      brand: 'Sports betting',
      name: 'Accumulator · 3 selections',
    });
    expect(recordLabels({ game: 'sportsbook', brand: 'sportsbook', name: 'Flamengo x Bahia' }, t)).toEqual({
      brand: 'Sports betting',
      name: 'Flamengo x Bahia',
    });
    expect(recordLabels({ game: 'dice', brand: 'Sorte Originals', name: 'Dice' }, t)).toEqual({
      brand: 'Sorte Originals',
      name: 'Dice',
    });
  });
});
