import { GAME_MODES, type GameMode } from './modes.ts';
import type { PartResult, Parts } from './parts.ts';
import { chunksOf, mergeAll, runChunks } from './pool.ts';
import { type ChiSquare, chiSquare, rtpInterval, runsTest, serialCorrelation, type Tally } from './stats.ts';

export interface ModeFigures {
  id: string;
  game: string;
  mode: string;
  rounds: number;
  chiSquare: ChiSquare;
  runs: ReturnType<typeof runsTest>;
  serial: ReturnType<typeof serialCorrelation>;
  rtp: ReturnType<typeof rtpInterval>;
  declaredRtp: number;
  /** The declared RTP lies inside the empirical 99.9 % interval. */
  rtpWithinCi: boolean;
}

export function figuresOf(mode: GameMode, tally: Tally): ModeFigures {
  const rtp = rtpInterval(tally);
  return {
    id: mode.id,
    game: mode.game,
    mode: mode.mode,
    rounds: tally.n,
    chiSquare: chiSquare(tally.counts, mode.probabilities),
    runs: runsTest(tally),
    serial: serialCorrelation(tally),
    rtp,
    declaredRtp: mode.declaredRtp,
    rtpWithinCi: rtp.low <= mode.declaredRtp && mode.declaredRtp <= rtp.high,
  };
}

/**
 * Plays every mode that has no stored result yet: all their chunks go through one thread pool (so
 * the threads stay busy across modes) and each mode is stored as soon as its last chunk is in.
 */
export async function runOutcomes(
  parts: Parts,
  rounds: number,
  threads: number,
): Promise<PartResult<ModeFigures>[]> {
  const pending = GAME_MODES.filter((m) => !parts.has(`modes/${m.id}`));
  const perMode = Math.max(1, threads) * 2;
  const chunks = pending.flatMap((m) => chunksOf(m.id, rounds, rounds >= 10_000 ? perMode : 1));
  const byMode = new Map<string, (Tally | undefined)[]>(
    pending.map((m) => [m.id, new Array(chunks.filter((c) => c.modeId === m.id).length)]),
  );
  // A chunk's place among its mode's chunks, so tallies merge in round order.
  const seen = new Map<string, number>();
  const ordinal = chunks.map((c) => {
    const n = seen.get(c.modeId) ?? 0;
    seen.set(c.modeId, n + 1);
    return n;
  });
  let finished = 0;
  let shown = 0;
  const begun = performance.now();
  console.log(
    `certify: outcomes: ${pending.length} modes to play, ${GAME_MODES.length - pending.length} reused`,
  );
  await runChunks(chunks, threads, (index, tally) => {
    const chunk = chunks[index]!;
    const slots = byMode.get(chunk.modeId)!;
    slots[ordinal[index]!] = tally;
    finished++;
    if (slots.every((t) => t !== undefined)) {
      const mode = GAME_MODES.find((m) => m.id === chunk.modeId)!;
      const figures = figuresOf(mode, mergeAll(slots as Tally[], mode.probabilities.length));
      parts.save(`modes/${mode.id}`, (performance.now() - begun) / 1000, figures);
    }
    const tenth = Math.floor((finished * 10) / chunks.length);
    if (tenth > shown) {
      shown = tenth;
      const elapsed = (performance.now() - begun) / 1000;
      const left = (elapsed * (chunks.length - finished)) / finished;
      console.log(
        `certify: outcomes: ${tenth * 10} % in ${elapsed.toFixed(0)} s, about ${left.toFixed(0)} s left`,
      );
    }
  });
  return GAME_MODES.map((m) => parts.read<ModeFigures>(`modes/${m.id}`));
}
