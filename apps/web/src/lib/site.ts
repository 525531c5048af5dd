import type { TLanguageEntry, TSiteData, TSocialLink } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/**
 * Site data drives the whole shell (theme, logo, banners, categories), so it lives in lib and
 * every feature reads it from the same cache entry.
 */
export const SITE_DATA_QUERY_KEY = ['site', 'data'] as const;
export const LANGUAGE_LIST_QUERY_KEY = ['site', 'languages'] as const;

export function useSiteData() {
  return useQuery<TSiteData>({
    queryKey: SITE_DATA_QUERY_KEY,
    queryFn: () => api.get<TSiteData>('/api/dynamicwebs/getdata', { silent: true }),
    staleTime: 10 * 60_000,
  });
}

/** Supported languages of this site; failures are ignored silently (spec §8). */
export function useLanguageList() {
  return useQuery<TLanguageEntry[]>({
    queryKey: LANGUAGE_LIST_QUERY_KEY,
    queryFn: () =>
      api.get<TLanguageEntry[]>('/api/language/getList', {
        query: { domain: window.location.hostname },
        silent: true,
      }),
    staleTime: 10 * 60_000,
  });
}

export function useSocialLinks(site: string | undefined) {
  return useQuery<TSocialLink[]>({
    queryKey: ['site', 'social', site],
    queryFn: () => api.get<TSocialLink[]>('/api/socialmedialinks/get', { query: { site }, silent: true }),
    enabled: site !== undefined,
    staleTime: 10 * 60_000,
  });
}
