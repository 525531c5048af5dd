import type {
  TActivityDetails,
  TCoverHistory,
  TPromotionCall,
  TPromotionCheck,
  TPromotionClaim,
  TRebatesDetails,
  TRebatesList,
  TVipInfo,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';

/** `GET /api/activitydetails/get`: every campaign of the site, on or off (with why). */
export function useActivityDetails() {
  return useQuery({
    queryKey: ['promotions', 'activity'],
    queryFn: () => api.get<TActivityDetails>('/api/activitydetails/get', { silent: true }),
  });
}

/** `POST /api/<call>/check`: whether the player can claim now, and why not. */
export function useCampaignCheck(call: TPromotionCall) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['promotions', 'check', call],
    queryFn: () => api.post<TPromotionCheck>(`/api/${call}/check`, {}, { silent: true }),
    enabled: hasToken,
    staleTime: 0,
  });
}

/** `POST /api/<call>/claim`; on success the lists reload and 'Reward claimed successfully!' shows. */
export function useClaim(call: TPromotionCall) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; id?: number }) =>
      api.post<TPromotionClaim>(`/api/${call}/claim`, body),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: ['promotions'] });
      void client.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}

export function useCoverHistory(status?: string) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['promotions', 'history', status ?? 'all'],
    queryFn: () => api.post<TCoverHistory>('/api/cover/history', status ? { status } : {}, { silent: true }),
    enabled: hasToken,
    staleTime: 0,
  });
}

export function useVipInfo() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['promotions', 'vip'],
    queryFn: () => api.post<TVipInfo>('/api/member/vip/info', {}, { silent: true }),
    enabled: hasToken,
  });
}

export function useRebates() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['promotions', 'rebates'],
    queryFn: () => api.post<TRebatesList>('/api/games/rebates/list', {}, { silent: true }),
    enabled: hasToken,
    staleTime: 0,
  });
}

export function useRebateDetails(category?: string) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['promotions', 'rebates', 'details', category ?? 'all'],
    queryFn: () =>
      api.post<TRebatesDetails>('/api/games/rebates/details', category ? { category } : {}, { silent: true }),
    enabled: hasToken,
  });
}

export { toast };
