import type { TRechargeRequest, TRechargeResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { rechargeOrderKey } from './get-recharge-order.ts';

/**
 * `POST /api/recharge/online`: creates the PIX charge; the payment page reads it from the cache.
 * Refusals come back to the page (shown under the amount, or as a toast), not toasted here.
 */
export function useCreateRechargeOrder() {
  return useMutation({
    mutationFn: (body: TRechargeRequest) =>
      api.post<TRechargeResponse>('/api/recharge/online', body, { silent: true }),
    onSuccess: (order) => {
      queryClient.setQueryData(rechargeOrderKey(order.order_no), order);
      void queryClient.invalidateQueries({ queryKey: ['records'] });
    },
  });
}
