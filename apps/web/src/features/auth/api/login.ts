import type { TLoginRequest, TSessionResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

/**
 * Refusals come back to the form (field errors, the two-factor step, a withdrawals-only session).
 * Answers the member and the login before this one, which the form shows.
 */
export function useLogin() {
  return useMutation({
    mutationFn: async (body: TLoginRequest) => {
      const session = await api.post<TSessionResponse>('/api/auth/login2', body, { silent: true });
      const user = await startSession(session, body.remember === true);
      return { user, previousLogin: session.previous_login };
    },
  });
}
