import type { TWithdrawalOrder, TWithdrawRequest } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { WITHDRAW_INFO_QUERY_KEY } from './get-withdraw-info.ts';

/**
 * `POST /api/drawing`. The money is held at once, so the balance in the header and on the page is
 * read again as soon as the request succeeds. Failures are shown by the form (spec §8: an alert
 * with the server message), hence silent here. The form sends one Idempotency-Key per intended
 * request (`useSubmitKey`), so a double tap or a retry after a lost answer makes one order.
 */
export function useCreateWithdrawal() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: TWithdrawRequest; idempotencyKey: string }) =>
      api.post<TWithdrawalOrder>('/api/drawing', body, {
        silent: true,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: WITHDRAW_INFO_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['records'] });
    },
  });
}
