import type { TPaymentChannelsResponse, TPaymentsListResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** The site's payment methods (PIX), spec §7 `GET /api/payments/list?lang&domain`. */
export function usePaymentMethods() {
  return useQuery({
    queryKey: ['recharge', 'methods'],
    queryFn: () =>
      api.get<TPaymentsListResponse>('/api/payments/list', {
        query: { domain: window.location.hostname },
        silent: true,
      }),
    staleTime: 5 * 60_000,
  });
}

/** The channels of one method, with their bounds, fee, reward and quick amounts. */
export function usePaymentChannels(paymentType: string | null) {
  return useQuery({
    queryKey: ['recharge', 'channels', paymentType],
    queryFn: () =>
      api.get<TPaymentChannelsResponse>('/api/payment/online/list', {
        query: { payment_type: paymentType ?? undefined },
        silent: true,
      }),
    enabled: paymentType !== null,
    staleTime: 5 * 60_000,
  });
}
