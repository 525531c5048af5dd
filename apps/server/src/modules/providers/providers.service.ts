import { randomBytes } from 'node:crypto';
import {
  formatMinor,
  type TGame,
  type TLanguage,
  type TLaunchResponse,
  type TProviderLaunchRequest,
  type TProviderLaunchResponse,
} from '@sorte/contract';
import { sha256Hex } from '../../core/hash.ts';
import type { Db, Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { touchRecentGame } from '../games/games.repo.ts';
import { resolveGame, toGameView } from '../games/games.service.ts';
import { memberPlayable } from '../wallet/balances.ts';
import type { AggregatorGateway } from './aggregator.gateway.ts';
import { deleteStaleSessions, insertSession } from './providers.repo.ts';

/**
 * Launching a third-party game. `/api/day7/day7LoginV2` answers the web route of the game screen
 * (/play?game=<code>, in real or demo mode); that screen asks `POST /api/providers/launch` for the
 * provider's game page, which opens a provider session for a member (a short-lived opaque token,
 * only its hash stored, bound to site, member, game and BRL) and asks the aggregator for the page.
 * Guests, and members asking for fun money, get the aggregator's demo mode: its own fun money and
 * no call to our wallet at all. See docs/decisions/007-third-party-games-aggregator.md.
 */

/** A provider session lasts one sitting: a relaunch gets a new token. */
export const SESSION_TTL_MS = 2 * 60 * 60 * 1000;
/** Stale sessions swept per launch: more than launches add, so the table cannot grow without bound. */
const STALE_SESSIONS_PER_LAUNCH = 20;

/** The member's cash (0.00 for a member without wallet accounts yet). */
const cashBalance = (executor: Executor, siteId: bigint, memberId: bigint) =>
  memberPlayable(executor, siteId, memberId);

/** The day7LoginV2 answer for a third-party game (the session opens when the screen frames it). */
export async function thirdPartyLaunchTarget(
  db: Db,
  siteId: bigint,
  memberId: bigint | null,
  view: TGame,
  demo: boolean,
): Promise<TLaunchResponse> {
  if (memberId !== null && !demo) {
    return {
      url: `/play?game=${view.code}`,
      mode: 'real',
      game: view,
      balance: formatMinor(await cashBalance(db, siteId, memberId)),
      demo_token: null,
    };
  }
  // Every third-party game has the aggregator's fun-money mode.
  return {
    url: `/play?game=${view.code}&mode=demo`,
    mode: 'demo',
    game: view,
    balance: '0.00',
    demo_token: null,
  };
}

/** Opens a provider session; the token goes to the aggregator, only its hash stays with us. */
export async function openProviderSession(
  executor: Executor,
  input: { aggregator: string; siteId: bigint; memberId: bigint; gameId: bigint; now?: Date },
): Promise<{ token: string; sessionId: bigint; expiresAt: Date }> {
  await deleteStaleSessions(executor, STALE_SESSIONS_PER_LAUNCH);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date((input.now ?? new Date()).getTime() + SESSION_TTL_MS);
  const session = await insertSession(executor, {
    aggregator: input.aggregator,
    tokenHash: sha256Hex(token),
    siteId: input.siteId,
    memberId: input.memberId,
    gameId: input.gameId,
    expiresAt,
  });
  return { token, sessionId: session.id, expiresAt };
}

export async function openProviderGame(
  db: Db,
  gateway: AggregatorGateway,
  input: { siteId: bigint; memberId: bigint | null; lang: TLanguage; body: TProviderLaunchRequest },
): Promise<TProviderLaunchResponse> {
  const game = await resolveGame(db, input.siteId, { name: input.body.game });
  if (game.isInhouse || game.code !== input.body.game) throw new AppError('GAME_UNAVAILABLE');
  const view = toGameView(game);
  const connection = gateway.connection();
  const demo = input.memberId === null || input.body.demo === true;
  const common = {
    game_code: game.code,
    game_name: game.name,
    brand: game.providerName,
    category: game.category,
    currency: 'BRL' as const,
    lang: input.lang,
    min_bet: view.min_bet,
    max_bet: view.max_bet,
  };
  const answer = {
    game: { code: game.code, name: game.name, provider_name: game.providerName, category: game.category },
  };
  if (demo) {
    const gameUrl = await launchOrUnavailable(() => connection.client.launch({ ...common, mode: 'demo' }));
    return { ...answer, game_url: gameUrl, mode: 'demo', balance: null };
  }
  const memberId = input.memberId as bigint;
  const balanceMinor = await cashBalance(db, input.siteId, memberId);
  const session = await openProviderSession(db, {
    aggregator: connection.id,
    siteId: input.siteId,
    memberId,
    gameId: game.id,
  });
  const gameUrl = await launchOrUnavailable(() =>
    connection.client.launch({
      ...common,
      mode: 'real',
      token: session.token,
      user: memberId.toString(),
      balance: formatMinor(balanceMinor),
    }),
  );
  await touchRecentGame(db, memberId, game.id);
  return { ...answer, game_url: gameUrl, mode: 'real', balance: formatMinor(balanceMinor) };
}

async function launchOrUnavailable(launch: () => Promise<string>): Promise<string> {
  try {
    return await launch();
  } catch (error) {
    throw new AppError('PROVIDER_UNAVAILABLE', { cause: error });
  }
}
