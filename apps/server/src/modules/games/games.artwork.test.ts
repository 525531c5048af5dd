import { readFileSync } from 'node:fs';
import type { TGameCategory } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import { gameBanner, gameThumbnail } from './games.artwork.ts';
import { motifOf } from './games.motifs.ts';

/** The seeded catalogue (migration 0005): code, name, provider, category. */
const CATALOGUE = [
  ...readFileSync(new URL('../../../migrations/0005_games.sql', import.meta.url), 'utf8').matchAll(
    /\('([a-z0-9-]+)', '([^']+)', '([a-z-]+)', '([a-z_]+)'/g,
  ),
]
  .filter((match) => match[1] !== 'slots')
  .map((match) => ({
    code: match[1]!,
    name: match[2]!,
    providerName: match[3]!,
    category: match[4] as TGameCategory,
  }));

const INHOUSE = ['crash', 'dice', 'limbo', 'mines', 'plinko', 'keno', 'roulette', 'slot', 'hilo', 'bingo'];

describe('game artwork', () => {
  it('gives each in-house game a motif of its own', () => {
    const motifs = CATALOGUE.filter((game) => INHOUSE.includes(game.code)).map((game) => motifOf(game, 0));
    expect(motifs).toHaveLength(INHOUSE.length);
    expect(new Set(motifs).size).toBe(INHOUSE.length);
  });

  it('draws every title differently, without printing its name a second time on the tile', () => {
    const drawn = CATALOGUE.map((game) => gameThumbnail(game));
    expect(new Set(drawn).size).toBe(CATALOGUE.length);
    for (const [index, svg] of drawn.entries()) {
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="300" height="300"/);
      expect(svg).toContain('filter="url(#shadow)"');
      expect(svg).toContain('fill="url(#light)"');
      expect(svg).not.toContain(`>${CATALOGUE[index]!.name}<`);
    }
  });

  it('names the themes of third-party titles in their artwork', () => {
    const motif = (name: string, category: TGameCategory) => motifOf({ code: 'x', name, category }, 0);
    expect(motif('Golden Macaw', 'slots')).toBe('macaw');
    expect(motif('Lucky Lanterns', 'slots')).toBe('lantern');
    expect(motif('Moonlit Koi', 'slots')).toBe('koi');
    expect(motif('Kart Racer', 'video_game')).toBe('kart');
    expect(motif('Speed Baccarat', 'live_casino')).toBe('cards');
  });

  it('has a wide banner size with the name and studio', () => {
    const game = CATALOGUE.find((item) => item.code === 'crash')!;
    const svg = gameBanner(game);
    expect(svg).toMatch(/width="640" height="280"/);
    expect(svg).toContain('>Crash<');
    expect(svg).toContain(`>${game.providerName}<`);
    expect(gameBanner({ ...game, name: '<script>' })).not.toContain('<script>');
  });
});
