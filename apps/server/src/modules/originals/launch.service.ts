import { formatMinor, type TLaunchResponse } from '@sorte/contract';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { touchRecentGame } from '../games/games.repo.ts';
import { resolveGame, toGameView } from '../games/games.service.ts';
import { thirdPartyLaunchTarget } from '../providers/providers.service.ts';
import { createDemoSession, findDemoPlayer } from './demo.service.ts';
import { playableBalance } from './originals.money.ts';

/**
 * POST /api/day7/day7LoginV2: where the web app sends a player to play a game. In-house games run
 * in our own web app (/originals/<code>); logged-in members play for real, guests (or members who
 * ask for it) get a fun-money demo session. Third-party games play at their aggregator, framed
 * by our /play?game=<code> screen (modules/providers/providers.service.ts).
 */
export async function launchGame(
  db: Db,
  siteId: bigint,
  memberId: bigint | null,
  body: { game_id?: string | number; name?: string; platType?: string; demo?: boolean; demo_token?: string },
): Promise<TLaunchResponse> {
  const game = await resolveGame(db, siteId, body);
  const view = toGameView(game);
  const demo = memberId === null || body.demo === true;
  // Third-party games play in the provider's page framed by /play?game=<code> (modules/providers).
  if (!game.isInhouse) return thirdPartyLaunchTarget(db, siteId, memberId, view, demo);
  if (!demo && memberId !== null) {
    const player = { kind: 'member' as const, siteId, memberId };
    await touchRecentGame(db, memberId, game.id);
    return {
      url: `/originals/${game.code}`,
      mode: 'real',
      game: view,
      balance: formatMinor(await playableBalance(db, player)),
      demo_token: null,
    };
  }
  if (!view.has_demo) throw new AppError('GAME_UNAVAILABLE');
  const existing = body.demo_token ? await findDemoPlayer(db, siteId, body.demo_token) : null;
  if (existing) {
    return {
      url: `/originals/${game.code}?mode=demo`,
      mode: 'demo',
      game: view,
      balance: formatMinor(await playableBalance(db, existing)),
      demo_token: body.demo_token ?? null,
    };
  }
  const session = await createDemoSession(db, siteId);
  return {
    url: `/originals/${game.code}?mode=demo`,
    mode: 'demo',
    game: view,
    balance: session.balance,
    demo_token: session.demo_token,
  };
}
