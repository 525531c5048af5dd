import type {
  TOrderCenterAssociationResponse,
  TOrderCenterDetailsResponse,
  TOrderCenterFeeResponse,
  TRecordPeriod,
} from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/ordercenter/details`: totals and the latest recharge and withdrawal orders. */
export function useOrderDetails(period: TRecordPeriod) {
  return useQuery({
    queryKey: ['records', 'order-center', 'details', period],
    queryFn: () =>
      api.get<TOrderCenterDetailsResponse>('/api/ordercenter/details', { query: { period }, silent: true }),
    staleTime: 0,
  });
}

/** `GET /api/ordercenter/fee`: withdrawal fees kept. */
export function useOrderFees(period: TRecordPeriod) {
  return useQuery({
    queryKey: ['records', 'order-center', 'fee', period],
    queryFn: () =>
      api.get<TOrderCenterFeeResponse>('/api/ordercenter/fee', { query: { period }, silent: true }),
    staleTime: 0,
  });
}

/** `GET /api/ordercenter/association`: the player's invitees and their recharges. */
export function useOrderAssociation() {
  return useQuery({
    queryKey: ['records', 'order-center', 'association'],
    queryFn: () => api.get<TOrderCenterAssociationResponse>('/api/ordercenter/association', { silent: true }),
    staleTime: 0,
  });
}
