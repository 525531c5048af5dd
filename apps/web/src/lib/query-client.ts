import { QueryClient } from '@tanstack/react-query';

/** The one TanStack Query client of the app (the API client resets user info through it on 401). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 5 * 60_000,
      retry: (failureCount, error) => {
        // Answers from the server are final; only network failures are worth one more try.
        const code = (error as { code?: string }).code;
        return code === 'NETWORK' && failureCount < 1;
      },
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

export const USER_QUERY_KEY = ['auth', 'me'] as const;
export const PROFILE_PHOTO_QUERY_KEY = ['auth', 'profile-photo'] as const;
