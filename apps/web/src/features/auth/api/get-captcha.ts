import type { TCaptchaResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const CAPTCHA_QUERY_KEY = ['auth', 'captcha'] as const;

/**
 * A fresh single-use captcha for each open form; `refetch` gets a new one (on click, after a failed
 * submit, and before it expires).
 */
export function useCaptcha(scope: 'login' | 'register' | 'forgot') {
  return useQuery<TCaptchaResponse>({
    queryKey: [...CAPTCHA_QUERY_KEY, scope],
    queryFn: () => api.post<TCaptchaResponse>('/api/auth/captcha', {}),
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
    refetchInterval: (query) => {
      const seconds = query.state.data?.expires_in;
      // Renew a little before the server forgets it, so the code typed is always for a live captcha.
      return seconds && seconds > 10 ? (seconds - 5) * 1000 : false;
    },
  });
}
