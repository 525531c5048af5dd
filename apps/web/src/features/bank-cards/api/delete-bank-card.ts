import type { TBankCardDeleteResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { BANK_CARDS_QUERY_KEY } from './get-bank-cards.ts';

/** `POST /api/member/bank/delete`: removes one of the player's cards (failures toast the server text). */
export function useDeleteBankCard() {
  return useMutation({
    mutationFn: (id: number) => api.post<TBankCardDeleteResponse>('/api/member/bank/delete', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BANK_CARDS_QUERY_KEY }),
  });
}
