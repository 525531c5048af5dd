import type { TRechargeResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const rechargeOrderKey = (orderNo: string) => ['recharge', 'order', orderNo] as const;

/**
 * While an order waits for payment it is asked for again every few seconds: the fallback for a
 * browser whose realtime socket is down. Once paid, expired or failed it no longer changes.
 */
const PENDING_POLL_MS = 4_000;

export function useRechargeOrder(orderNo: string | null) {
  return useQuery({
    queryKey: rechargeOrderKey(orderNo ?? ''),
    queryFn: () =>
      api.get<TRechargeResponse>('/api/recharge/detail', {
        query: { order_no: orderNo ?? '' },
        silent: true,
      }),
    enabled: orderNo !== null,
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}
