import { JURISDICTIONS, RTP_FLOORS } from '@sorte/contract';
import { describe, expect, it } from 'vitest';
import { KENO_PAYTABLES } from './games/keno.ts';
import { PLINKO_PAYTABLES } from './games/plinko.ts';
import { GAME_RULES } from './replay.ts';

/** Every RTP a game declares: each game's range and each paytable of the games with several. */
function declaredRtps(): { name: string; rtp: number }[] {
  const rows: { name: string; rtp: number }[] = Object.values(GAME_RULES).map((rules) => ({
    name: rules.id,
    rtp: rules.rtpMin,
  }));
  for (const [risk, byRows] of Object.entries(PLINKO_PAYTABLES)) {
    for (const [count, table] of Object.entries(byRows)) {
      rows.push({ name: `plinko ${count} rows ${risk}`, rtp: table.rtp });
    }
  }
  for (const [picks, table] of Object.entries(KENO_PAYTABLES)) {
    rows.push({ name: `keno ${picks} picks`, rtp: table.rtp });
  }
  return rows;
}

describe('RTP floors of the jurisdiction profiles', () => {
  it('gives every profile a floor', () => {
    for (const jurisdiction of JURISDICTIONS) expect(RTP_FLOORS[jurisdiction]).toBeGreaterThan(0);
    expect(RTP_FLOORS.br).toBe(0.85);
  });

  it.each(JURISDICTIONS)('keeps every declared RTP on %s at or above the floor', (jurisdiction) => {
    const below = declaredRtps().filter((row) => !(row.rtp >= RTP_FLOORS[jurisdiction]));
    expect(below).toEqual([]);
    expect(declaredRtps().length).toBeGreaterThan(Object.keys(GAME_RULES).length);
  });
});
