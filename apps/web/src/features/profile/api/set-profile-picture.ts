import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { PROFILE_PHOTO_QUERY_KEY, queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';

export function useSetProfilePicture() {
  return useMutation({
    mutationFn: (pictureId: number) =>
      api.post<unknown>('/api/profilepictures/set', { picture_id: pictureId }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: PROFILE_PHOTO_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}
