import type { ComponentType } from 'react';
import { BingoPlay } from './bingo-play.tsx';
import { CrashPlay } from './crash-play.tsx';
import { DicePlay } from './dice-play.tsx';
import { HiloPlay } from './hilo-play.tsx';
import { KenoPlay } from './keno-play.tsx';
import { LimboPlay } from './limbo-play.tsx';
import { MinesPlay } from './mines-play.tsx';
import type { TPlayProps } from './play-shared.tsx';
import { PlinkoPlay } from './plinko-play.tsx';
import { RoulettePlay } from './roulette-play.tsx';
import { SlotPlay } from './slot-play.tsx';
import './play.css';

/** The playable screen of each in-house game code. */
export const PLAY_COMPONENTS: Partial<Record<string, ComponentType<TPlayProps>>> = {
  dice: DicePlay,
  limbo: LimboPlay,
  mines: MinesPlay,
  plinko: PlinkoPlay,
  keno: KenoPlay,
  roulette: RoulettePlay,
  slot: SlotPlay,
  bingo: BingoPlay,
  hilo: HiloPlay,
  crash: CrashPlay,
};
