import { type ComponentType, lazy } from 'react';
import type { TPlayProps } from './play-shared.tsx';
import './play.css';

type TPlayModule = { default: ComponentType<TPlayProps> };

/**
 * Where each in-house game's screen is: each one is its own chunk, so a game's page downloads and
 * runs only its own game (dice does not pay for roulette's table or crash's chart).
 */
const PLAY_MODULES: Partial<Record<string, () => Promise<TPlayModule>>> = {
  dice: () => import('./dice-play.tsx').then((module) => ({ default: module.DicePlay })),
  limbo: () => import('./limbo-play.tsx').then((module) => ({ default: module.LimboPlay })),
  mines: () => import('./mines-play.tsx').then((module) => ({ default: module.MinesPlay })),
  plinko: () => import('./plinko-play.tsx').then((module) => ({ default: module.PlinkoPlay })),
  keno: () => import('./keno-play.tsx').then((module) => ({ default: module.KenoPlay })),
  roulette: () => import('./roulette-play.tsx').then((module) => ({ default: module.RoulettePlay })),
  slot: () => import('./slot-play.tsx').then((module) => ({ default: module.SlotPlay })),
  bingo: () => import('./bingo-play.tsx').then((module) => ({ default: module.BingoPlay })),
  hilo: () => import('./hilo-play.tsx').then((module) => ({ default: module.HiloPlay })),
  crash: () => import('./crash-play.tsx').then((module) => ({ default: module.CrashPlay })),
};

/**
 * Starts downloading a game's screen (the page calls it as it opens, so the chunk arrives while the
 * launch call is answered, not after). The browser fetches a module once, so calling it again is free.
 */
export function preloadPlay(code: string): void {
  void PLAY_MODULES[code]?.().catch(() => undefined);
}

/** The playable screen of each in-house game code (render inside a Suspense boundary). */
export const PLAY_COMPONENTS: Partial<Record<string, ComponentType<TPlayProps>>> = Object.fromEntries(
  Object.entries(PLAY_MODULES).map(([code, load]) => [code, lazy(load as () => Promise<TPlayModule>)]),
);
