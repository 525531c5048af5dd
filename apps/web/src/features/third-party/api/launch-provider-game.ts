import type { TProviderLaunchResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useHasToken } from '../../../lib/session.ts';

/**
 * The provider's game page for this visit: a member gets a fresh real-money session at the
 * provider, a guest (or a member asking for fun money) the provider's demo mode. Not cached
 * beyond the page: every visit opens its own session.
 */
export function useProviderLaunch(game: string, demo: boolean) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['third-party', 'launch', game, demo, hasToken],
    queryFn: () =>
      api.post<TProviderLaunchResponse>(
        '/api/providers/launch',
        { game, ...(demo ? { demo: true } : {}) },
        {
          silent: true,
        },
      ),
    enabled: game !== '',
    retry: false,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
