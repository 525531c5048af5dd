import type { TProfilePictures } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export function useProfilePictures(enabled: boolean) {
  return useQuery<TProfilePictures>({
    queryKey: ['profile', 'pictures'],
    queryFn: () => api.get<TProfilePictures>('/api/profilepictures'),
    enabled,
    staleTime: 30 * 60_000,
  });
}
