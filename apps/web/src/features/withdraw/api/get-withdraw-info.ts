import type { TBankCardListResponse, TWithdrawInfoResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const WITHDRAW_INFO_QUERY_KEY = ['withdraw', 'info'] as const;

/** `GET /api/drawing/info`: balance, withdrawable, bounds, fee rule and the trading rules. */
export function useWithdrawInfo() {
  return useQuery({
    queryKey: WITHDRAW_INFO_QUERY_KEY,
    queryFn: () => api.get<TWithdrawInfoResponse>('/api/drawing/info', { silent: true }),
    staleTime: 0,
  });
}

/** The player's bank cards to pick from (`GET /api/member/bank`, the same cache as the card page). */
export function useWithdrawCards() {
  return useQuery({
    queryKey: ['bank-cards'],
    queryFn: () => api.get<TBankCardListResponse>('/api/member/bank', { silent: true }),
  });
}
