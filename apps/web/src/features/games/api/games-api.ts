import type { TGame, TGameList, TGamesPage, TProvider } from '@sorte/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { ApiError, api, buildUrl } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';
import { getToken } from '../../../lib/storage.ts';
import { toast } from '../../../lib/toast.ts';

/** The contract's category codes; the site settings may still use the short legacy names. */
export const CATEGORY_CODES = [
  'slots',
  'live_casino',
  'arcade',
  'crash',
  'fish',
  'bingo',
  'card',
  'lottery',
  'sports',
  'video_game',
] as const;
export type TCategoryCode = (typeof CATEGORY_CODES)[number];

/** "Table games" (spec §2) are the card category: roulette, blackjack, baccarat, poker. */
const ALIASES: Readonly<Record<string, TCategoryCode>> = {
  live: 'live_casino',
  video: 'video_game',
  table: 'card',
};

/** A site category ("live", "slots", "video_game"…) as a catalogue category code, or null if unknown. */
export function toCategoryCode(code: string): TCategoryCode | null {
  const lower = code.toLowerCase();
  const alias = ALIASES[lower];
  if (alias) return alias;
  return (CATEGORY_CODES as readonly string[]).includes(lower) ? (lower as TCategoryCode) : null;
}

export interface TListQuery {
  category?: TCategoryCode;
  provider?: string;
  name?: string;
  tag?: 'new' | 'popular' | 'hot';
  page?: number;
  page_size?: number;
}

export const GAMES_KEY = ['games'] as const;
export const FAVORITES_KEY = ['games', 'favorites'] as const;

export function useGamesList(query: TListQuery, enabled = true) {
  return useQuery<TGamesPage>({
    queryKey: [...GAMES_KEY, 'list', query],
    queryFn: ({ signal }) =>
      api.get<TGamesPage>('/api/games/listsv2', { query: { ...query }, signal, silent: true }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    enabled,
  });
}

export function useProviders() {
  return useQuery<{ list: TProvider[] }>({
    queryKey: [...GAMES_KEY, 'providers'],
    queryFn: ({ signal }) => api.get('/api/games/apisv2', { signal, silent: true }),
    staleTime: 5 * 60_000,
  });
}

/** Home rows: the most played ("popular") and the new releases ("promotion"). */
export function useGameSection(section: 'popular' | 'promotion', limit = 12) {
  return useQuery<TGameList>({
    queryKey: [...GAMES_KEY, section, limit],
    queryFn: ({ signal }) =>
      api.get<TGameList>(`/api/games/${section}`, { query: { limit }, signal, silent: true }),
    staleTime: 60_000,
  });
}

/**
 * A member's background list (recently played, favourites). It does not go through the shared
 * client's session handling: a request that crosses a logout must not ask "log in again?" — the
 * session's own calls say so when it really expired. A failure just leaves the list empty.
 */
async function memberList(method: 'GET' | 'POST', path: string, signal?: AbortSignal): Promise<TGameList> {
  const token = getToken();
  if (!token) return { list: [] };
  const response = await fetch(buildUrl(path), {
    method,
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
    },
    body: method === 'POST' ? '{}' : undefined,
    signal: signal ?? null,
    credentials: 'same-origin',
  });
  const payload = (await response.json().catch(() => null)) as {
    status?: string;
    code?: unknown;
    message?: unknown;
    data?: TGameList;
  } | null;
  if (payload?.status === 'success' && payload.data) return payload.data;
  throw new ApiError({
    code: String(payload?.code ?? 'BAD_RESPONSE'),
    status: response.status,
    message: typeof payload?.message === 'string' ? payload.message : '',
  });
}

export function useRecentGames() {
  const hasToken = useHasToken();
  return useQuery<TGameList>({
    queryKey: [...GAMES_KEY, 'recent'],
    queryFn: ({ signal }) => memberList('GET', '/api/games/recent', signal),
    enabled: hasToken,
    staleTime: 30_000,
  });
}

/** The player's favourites (spec: POST /api/games/follow; the session names the player). */
export function useFavorites() {
  const hasToken = useHasToken();
  return useQuery<TGameList>({
    queryKey: FAVORITES_KEY,
    queryFn: ({ signal }) => memberList('POST', '/api/games/follow', signal),
    retry: false,
    enabled: hasToken,
    staleTime: 30_000,
  });
}

/**
 * Marks or unmarks a favourite. The heart changes at once (the cached list is edited before the
 * call); the list is reloaded when the server answers, and put back with a toast when it refuses.
 */
export function useToggleFavorite() {
  return useMutation({
    mutationFn: ({ game, favorite }: { game: TGame; favorite: boolean }) =>
      api.post(`/api/games/follow/${favorite ? 'set' : 'delete'}`, { game_id: game.id }, { silent: true }),
    onMutate: async ({ game, favorite }) => {
      await queryClient.cancelQueries({ queryKey: FAVORITES_KEY });
      const before = queryClient.getQueryData<TGameList>(FAVORITES_KEY);
      const others = (before?.list ?? []).filter((item) => item.id !== game.id);
      queryClient.setQueryData<TGameList>(FAVORITES_KEY, { list: favorite ? [game, ...others] : others });
      return { before };
    },
    onError: (error, _variables, context) => {
      queryClient.setQueryData(FAVORITES_KEY, context?.before);
      // A refused change says why in the player's language (a full list: 'Error in setting
      // favorite list'); anything else is 'Error in setting favorite'.
      const refused = error instanceof ApiError && error.code === 'VALIDATION_FAILED' && error.message;
      toast.error(refused || i18next.t('lobby.favorite_error'));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FAVORITES_KEY }),
  });
}
