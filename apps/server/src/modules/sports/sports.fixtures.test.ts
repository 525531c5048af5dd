import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFootballTxt } from './sports.fixtures.ts';

const shipped = readFileSync(new URL('./data/brasileirao-serie-a-2025.txt', import.meta.url), 'utf8');
const BRASILIA = { utcOffsetMinutes: -180 };

describe('openfootball Football.TXT parser', () => {
  it('reads the shipped Brasileirão Série A 2025: 20 teams, real results, postponed matches left out', () => {
    const schedule = parseFootballTxt(shipped, BRASILIA);
    expect(schedule.title).toBe('Brasileiro Série A 2025');
    expect(schedule.season).toBe('2025');
    // 380 matches less the 4 postponed on matchday 12.
    expect(schedule.matches).toHaveLength(376);
    const teams = new Set(schedule.matches.flatMap((m) => [m.home, m.away]));
    expect(teams.size).toBe(20);
    expect(teams).toContain('CR Flamengo');
    expect(teams).toContain('SE Palmeiras');
    // Every pairing appears once (a double round robin).
    const pairings = new Set(schedule.matches.map((m) => `${m.home}|${m.away}`));
    expect(pairings.size).toBe(schedule.matches.length);

    const first = schedule.matches[0]!;
    expect(first).toMatchObject({
      round: 1,
      home: 'São Paulo FC',
      away: 'SC Recife',
      score: { home: 0, away: 0 },
    });
    // 18.30 Brasília time = 21:30 UTC.
    expect(first.kickoffAt.toISOString()).toBe('2025-03-29T21:30:00.000Z');
    // A line without a time takes the previous line's time on the same day.
    expect(schedule.matches[1]).toMatchObject({
      home: 'Cruzeiro EC',
      away: 'Mirassol FC',
      score: { home: 2, away: 1 },
    });
    expect(schedule.matches[1]!.kickoffAt.toISOString()).toBe('2025-03-29T21:30:00.000Z');

    const played = schedule.matches.filter((m) => m.score !== null);
    expect(played).toHaveLength(90);
    expect(
      schedule.matches.find((m) => m.home === 'CR Flamengo' && m.away === 'EC Juventude')?.score,
    ).toEqual({
      home: 6,
      away: 0,
    });
    // Matchday 10's late match (listed after matchday 11) keeps its round; no time → 16.00 local.
    const late = schedule.matches.find((m) => m.home === 'Botafogo FR' && m.away === 'Ceará SC');
    expect(late).toMatchObject({ round: 10, score: null });
    expect(late!.kickoffAt.toISOString()).toBe('2025-06-04T23:00:00.000Z');
    const untimed = schedule.matches.find((m) => m.home === 'Ceará SC' && m.away === 'SE Palmeiras');
    expect(untimed).toMatchObject({ round: 38, score: null });
    expect(untimed!.kickoffAt.toISOString()).toBe('2025-12-21T19:00:00.000Z');
  });

  it('reads the shipped Série B 2025 too', () => {
    const text = readFileSync(new URL('./data/brasileirao-serie-b-2025.txt', import.meta.url), 'utf8');
    const schedule = parseFootballTxt(text, BRASILIA);
    expect(schedule.title).toBe('Brasileiro Série B 2025');
    expect(schedule.matches).toHaveLength(380);
    expect(new Set(schedule.matches.flatMap((m) => [m.home, m.away])).size).toBe(20);
    expect(schedule.matches.filter((m) => m.score !== null)).toHaveLength(57);
    // 21.35 Brasília = 00:35 UTC the next day.
    const late = schedule.matches.find((m) => m.home === 'América MG' && m.away === 'Amazonas FC AM');
    expect(late).toMatchObject({ round: 3, score: { home: 3, away: 1 } });
    expect(late!.kickoffAt.toISOString()).toBe('2025-04-18T00:35:00.000Z');
  });

  it('reads the older layout with the score between the teams and [Day] lines', () => {
    const text = [
      '= Brasileiro Série A 2024',
      'Matchday 1',
      '[Sat Apr/13]',
      '  18.30  SC Internacional         2-1 (0-0)  EC Bahia',
      '         Criciúma EC              1-1 (1-0)  EC Juventude',
      '[Sun Dec/8]',
      '  CA Mineiro               -  CA Paranaense',
    ].join('\r\n');
    const schedule = parseFootballTxt(text, { ...BRASILIA, defaultTime: '16.00' });
    expect(schedule.matches).toEqual([
      {
        round: 1,
        home: 'SC Internacional',
        away: 'EC Bahia',
        kickoffAt: new Date('2024-04-13T21:30:00Z'),
        score: { home: 2, away: 1 },
      },
      {
        round: 1,
        home: 'Criciúma EC',
        away: 'EC Juventude',
        kickoffAt: new Date('2024-04-13T21:30:00Z'),
        score: { home: 1, away: 1 },
      },
      {
        round: 1,
        home: 'CA Mineiro',
        away: 'CA Paranaense',
        kickoffAt: new Date('2024-12-08T19:00:00Z'),
        score: null,
      },
    ]);
  });

  it('names the line it cannot read', () => {
    expect(() => parseFootballTxt('= Cup 2025\n  Sat Mar/29 2025\n  nonsense', BRASILIA)).toThrow(/line 3/);
  });
});
