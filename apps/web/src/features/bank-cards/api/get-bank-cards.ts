import type { TBankCardListResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const BANK_CARDS_QUERY_KEY = ['bank-cards'] as const;

/** `GET /api/member/bank`: the player's PIX keys, default first. */
export function useBankCards() {
  return useQuery({
    queryKey: BANK_CARDS_QUERY_KEY,
    queryFn: () => api.get<TBankCardListResponse>('/api/member/bank', { silent: true }),
  });
}
