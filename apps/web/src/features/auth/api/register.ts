import type { TRegisterRequest, TSessionResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { startSession } from '../../../lib/session.ts';

export function useRegister() {
  return useMutation({
    mutationFn: async (body: TRegisterRequest) => {
      const session = await api.post<TSessionResponse>('/api/auth/register2', body);
      return startSession(session, body.remember === true);
    },
  });
}
