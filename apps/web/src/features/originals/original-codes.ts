/** In-house game codes: each has its own page at /originals/<code> (the launch answer's url). */
export const ORIGINAL_CODES = [
  'crash',
  'dice',
  'limbo',
  'mines',
  'plinko',
  'keno',
  'roulette',
  'slot',
  'hilo',
  'bingo',
] as const;
export type TOriginalCode = (typeof ORIGINAL_CODES)[number];
