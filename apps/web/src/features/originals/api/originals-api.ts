import type { TLaunchResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useHasToken } from '../../../lib/session.ts';

export { ORIGINAL_CODES, type TOriginalCode } from '../original-codes.ts';

export interface TOriginalRules {
  game: string;
  rtp: string;
  rtp_max: string;
  min_bet: string;
  max_bet: string;
  max_win: string;
  paytable: unknown;
}

const DEMO_TOKEN_KEY = 'sorte.demo_token';

/** A guest's fun-money session lives as long as the tab, so its balance carries across games. */
export function getDemoToken(): string | null {
  try {
    return window.sessionStorage.getItem(DEMO_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setDemoToken(token: string | null): void {
  try {
    if (token) window.sessionStorage.setItem(DEMO_TOKEN_KEY, token);
    else window.sessionStorage.removeItem(DEMO_TOKEN_KEY);
  } catch {
    // Private mode without storage: the next launch simply starts a new demo session.
  }
}

/** `?game=` is a game id (digits) or a game code/name. */
export function launchBody(game: string, demo: boolean) {
  const demoToken = getDemoToken() ?? undefined;
  const target = /^[1-9]\d{0,17}$/.test(game) ? { game_id: game } : { name: game };
  return { ...target, ...(demo ? { demo: true } : {}), ...(demoToken ? { demo_token: demoToken } : {}) };
}

export async function launchGame(game: string, demo: boolean): Promise<TLaunchResponse> {
  const launch = await api.post<TLaunchResponse>('/api/day7/day7LoginV2', launchBody(game, demo), {
    silent: true,
  });
  if (launch.demo_token) setDemoToken(launch.demo_token);
  return launch;
}

export const launchKey = (game: string, demo: boolean) => ['originals', 'launch', game, demo] as const;

/** The game's launch for this page: its catalogue entry, the mode and the balance to play with. */
export function useLaunch(game: string, demo: boolean) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: [...launchKey(game, demo), hasToken],
    queryFn: () => launchGame(game, demo),
    staleTime: 30_000,
    retry: false,
  });
}

export function useOriginalRules() {
  return useQuery<{ list: TOriginalRules[] }>({
    queryKey: ['originals', 'rules'],
    queryFn: ({ signal }) => api.get('/api/originals/rules', { signal, silent: true }),
    staleTime: 10 * 60_000,
  });
}
