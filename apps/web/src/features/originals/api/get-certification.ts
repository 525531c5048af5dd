import type { TCertificationResponse, TCertifiedGame } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * One game's latest certification figures (GET /api/originals/certification?game=). They change
 * only with a new build, so they are kept for the visit; only asked for when the panel opens.
 */
export function useCertification(game: TCertifiedGame, enabled: boolean) {
  return useQuery<TCertificationResponse>({
    queryKey: ['originals', 'certification', game],
    queryFn: ({ signal }) =>
      api.get(`/api/originals/certification?game=${encodeURIComponent(game)}`, { signal, silent: true }),
    enabled,
    staleTime: 60 * 60_000,
    retry: false,
  });
}
