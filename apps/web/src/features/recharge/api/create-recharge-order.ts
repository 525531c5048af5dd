import type { TRechargeRequest, TRechargeResponse } from '@sorte/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { rechargeOrderKey } from './get-recharge-order.ts';

/** `POST /api/recharge/online`: creates the PIX charge; the payment page reads it from the cache. */
export function useCreateRechargeOrder() {
  return useMutation({
    mutationFn: (body: TRechargeRequest) => api.post<TRechargeResponse>('/api/recharge/online', body),
    onSuccess: (order) => {
      queryClient.setQueryData(rechargeOrderKey(order.order_no), order);
      void queryClient.invalidateQueries({ queryKey: ['records'] });
    },
  });
}
