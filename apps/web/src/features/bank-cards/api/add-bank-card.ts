import type { TBankCard, TBankCardAddRequest } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { BANK_CARDS_QUERY_KEY } from './get-bank-cards.ts';

/** `POST /api/member/bank/add`; the withdraw page reads the same list, so both refresh. */
export function useAddBankCard() {
  return useMutation({
    mutationFn: (body: TBankCardAddRequest) =>
      api.post<TBankCard>('/api/member/bank/add', body, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BANK_CARDS_QUERY_KEY }),
  });
}
