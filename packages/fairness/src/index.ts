/**
 * @sorte/fairness — the provably-fair core of Sorte's in-house games. Pure TypeScript, synchronous,
 * no I/O: the server settles bets with it and the browser verifier recomputes them with it.
 */
export * from './chi-square.ts';
export * from './games/bingo.ts';
export * from './games/crash.ts';
export * from './games/dice.ts';
export * from './games/hilo.ts';
export * from './games/keno.ts';
export * from './games/limbo.ts';
export * from './games/mines.ts';
export * from './games/plinko.ts';
export * from './games/roulette.ts';
export * from './games/slot.ts';
export * from './multiplier.ts';
export * from './replay.ts';
export * from './seeds.ts';
export * from './sha256.ts';
export * from './stake-rules.ts';
