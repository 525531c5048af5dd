import { z } from 'zod';
import { ZLangQuery } from './site.ts';

/**
 * What other players do right now, as the leading casinos show it beside every in-house game: the
 * current crash round's bets and cash-outs, a player's own last crash bets, and the latest real
 * wins. Only real rounds are listed (real money, settled by the server); fun-money demo bets and
 * invented rows never are. Player names are shown masked ("de***1").
 */

export const LIVE_FEED_LIMIT = 30;

/** One bet of the current crash round: stake, and its cash-out once taken. */
export const ZLiveCrashBet = z.object({
  player: z.string().describe('masked username'),
  amount: z.string(),
  status: z.enum(['placed', 'cashed', 'lost']),
  cashout_multiplier: z.string().nullable(),
  payout: z.string(),
  /** True for the caller's own bet. */
  mine: z.boolean(),
});
export type TLiveCrashBet = z.infer<typeof ZLiveCrashBet>;

/** GET /api/crash/round-bets: the current round's real-money bets, biggest first. */
export const ZCrashRoundBetsResponse = z.object({
  round_id: z.string(),
  count: z.number().int(),
  total: z.string(),
  list: z.array(ZLiveCrashBet),
});
export type TCrashRoundBetsResponse = z.infer<typeof ZCrashRoundBetsResponse>;

/** GET /api/crash/my-bets: the caller's last crash bets (a member's, or a guest's fun-money ones). */
export const ZMyCrashBet = z.object({
  round_id: z.string(),
  amount: z.string(),
  status: z.enum(['placed', 'cashed', 'lost']),
  cashout_multiplier: z.string().nullable(),
  crash_point: z.string().nullable(),
  payout: z.string(),
  created_at: z.string(),
});
export type TMyCrashBet = z.infer<typeof ZMyCrashBet>;
export const ZMyCrashBetsResponse = z.object({ list: z.array(ZMyCrashBet) });
export type TMyCrashBetsResponse = z.infer<typeof ZMyCrashBetsResponse>;

/** GET /api/games/recent-wins?game=: the latest real wins on this site's in-house games. */
export const ZRecentWinsQuery = ZLangQuery.extend({
  /** An in-house game code (e.g. "dice", "crash"); every in-house game when absent. */
  game: z
    .string()
    .trim()
    .max(40)
    .regex(/^[a-z0-9_-]*$/, { error: 'validation.invalid' })
    .optional(),
});
export const ZRecentWin = z.object({
  id: z.string().describe('"crash:<bet id>" or "round:<round id>"'),
  game: z.string(),
  game_name: z.string(),
  player: z.string().describe('masked username'),
  amount: z.string(),
  multiplier: z.string(),
  payout: z.string(),
  at: z.string(),
});
export type TRecentWin = z.infer<typeof ZRecentWin>;
export const ZRecentWinsResponse = z.object({ list: z.array(ZRecentWin) });
export type TRecentWinsResponse = z.infer<typeof ZRecentWinsResponse>;

/** A username as other players see it: the first two characters and the last, "de***1". */
export function maskPlayerName(username: string): string {
  const chars = [...username];
  if (chars.length <= 3) return `${chars[0] ?? ''}***`;
  return `${chars.slice(0, 2).join('')}***${chars.at(-1)}`;
}
