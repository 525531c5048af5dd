import {
  formatMinor,
  INSTANT_ORIGINALS,
  STEPPED_ORIGINALS,
  type TFollowRequest,
  type TGame,
  type TGameCategory,
  type TGamesListQuery,
  type TGamesPage,
  type TProvider,
} from '@sorte/contract';
import type { Executor } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import {
  countFavorites,
  countGames,
  deleteFavorite,
  findFavoriteGames,
  findGame,
  findGames,
  findProviders,
  findRecentGames,
  insertFavorite,
  type TCatalogueGame,
} from './games.repo.ts';

/** A member keeps at most this many favourites (the list is shown in one page). */
export const MAX_FAVORITES = 200;
export const RECENT_GAMES_SHOWN = 20;

// Crash takes fun-money bets from demo sessions on the shared rounds, like the others.
const PLAYABLE_ORIGINALS: ReadonlySet<string> = new Set([
  ...INSTANT_ORIGINALS,
  ...STEPPED_ORIGINALS,
  'crash',
]);

/** Basis points of a percent as "99.00". */
export function formatRtp(basisPoints: number): string {
  return `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`;
}

export function toGameView(game: TCatalogueGame): TGame {
  return {
    id: game.id.toString(),
    code: game.code,
    name: game.name,
    provider: game.providerCode,
    provider_name: game.providerName,
    category: game.category,
    tags: game.tags,
    rtp: formatRtp(game.rtpMinBp),
    rtp_max: formatRtp(game.rtpMaxBp),
    min_bet: formatMinor(game.minBetMinor),
    max_bet: formatMinor(game.maxBetMinor),
    max_win: formatMinor(game.maxWinMinor),
    thumbnail: game.thumbnail ?? `/media/games/${game.code}.svg`,
    is_inhouse: game.isInhouse,
    // Third-party games all have the aggregator's fun-money mode (modules/providers).
    has_demo: game.isInhouse ? PLAYABLE_ORIGINALS.has(game.code) : true,
  };
}

export async function listProviders(
  executor: Executor,
  siteId: bigint,
  category: TGameCategory | undefined,
): Promise<TProvider[]> {
  const rows = await findProviders(executor, siteId, category);
  return rows.map((p) => ({
    code: p.code,
    name: p.name,
    logo: `/media/games/providers/${p.code}.svg`,
    is_inhouse: p.isInhouse,
    game_count: p.gameCount,
  }));
}

export async function listGames(
  executor: Executor,
  siteId: bigint,
  query: TGamesListQuery,
): Promise<TGamesPage> {
  const filter = {
    category: query.category,
    providerCode: query.provider ?? query.platType,
    search: query.name || undefined,
    tag: query.tag,
  };
  const [list, total] = await Promise.all([
    findGames(executor, siteId, filter, {
      offset: (query.page - 1) * query.page_size,
      limit: query.page_size,
    }),
    countGames(executor, siteId, filter),
  ]);
  return {
    list: list.map(toGameView),
    total,
    page: query.page,
    page_size: query.page_size,
    last_page: Math.max(1, Math.ceil(total / query.page_size)),
  };
}

function categoryOf(name: string | undefined): TGameCategory | undefined {
  return name && name !== 'all' ? (name as TGameCategory) : undefined;
}

/** New and hot games, newest first (the lobby's promotion strip). */
export async function listPromotedGames(
  executor: Executor,
  siteId: bigint,
  name: string | undefined,
  limit: number,
): Promise<TGame[]> {
  const rows = await findGames(
    executor,
    siteId,
    { category: categoryOf(name), anyTags: ['new', 'hot'] },
    { offset: 0, limit, order: 'newest' },
  );
  return rows.map(toGameView);
}

export async function listPopularGames(
  executor: Executor,
  siteId: bigint,
  name: string | undefined,
  limit: number,
): Promise<TGame[]> {
  const rows = await findGames(
    executor,
    siteId,
    { category: categoryOf(name) },
    { offset: 0, limit, order: 'popular' },
  );
  return rows.map(toGameView);
}

/** The acting player is the session's: a member_id naming anyone else is refused. */
export function assertOwnMemberId(sessionMemberId: bigint, claimed: string | number | undefined): void {
  if (claimed === undefined || claimed === '') return;
  if (String(claimed) !== sessionMemberId.toString()) throw new AppError('FORBIDDEN');
}

export async function listFavorites(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  name: string | undefined,
): Promise<TGame[]> {
  const rows = await findFavoriteGames(executor, siteId, memberId, categoryOf(name), MAX_FAVORITES);
  return rows.map(toGameView);
}

/** Resolves the game a favourite/launch call names (by id, else code or exact name). */
export async function resolveGame(
  executor: Executor,
  siteId: bigint,
  body: { game_id?: string | number | undefined; name?: string | undefined; platType?: string | undefined },
): Promise<TCatalogueGame> {
  const game = await findGame(executor, siteId, {
    ...(body.game_id !== undefined ? { id: BigInt(body.game_id) } : {}),
    ...(body.game_id === undefined && body.name ? { name: body.name } : {}),
    ...(body.platType ? { providerCode: body.platType } : {}),
  });
  if (!game) throw new AppError('NOT_FOUND');
  return game;
}

export async function setFavorite(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
  body: TFollowRequest,
  favorite: boolean,
): Promise<{ game_id: string; is_favorite: boolean }> {
  assertOwnMemberId(memberId, body.member_id);
  const game = await resolveGame(executor, siteId, body);
  if (favorite) {
    // The list, not the game, is what cannot be set: the spec's 'Error in setting favorite list'.
    if ((await countFavorites(executor, memberId)) >= MAX_FAVORITES) {
      throw new AppError('VALIDATION_FAILED', { messageKey: 'messages.favorite_list_error' });
    }
    await insertFavorite(executor, memberId, game.id);
  } else {
    await deleteFavorite(executor, memberId, game.id);
  }
  return { game_id: game.id.toString(), is_favorite: favorite };
}

export async function listRecentGames(
  executor: Executor,
  siteId: bigint,
  memberId: bigint,
): Promise<TGame[]> {
  const rows = await findRecentGames(executor, siteId, memberId, RECENT_GAMES_SHOWN);
  return rows.map(toGameView);
}
