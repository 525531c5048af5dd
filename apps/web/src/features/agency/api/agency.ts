import type {
  TAgencyClaimResponse,
  TAgencyRewardResponse,
  TInviteRecordResponse,
  TInviteResponse,
  TMechanismBetting,
  TMechanismRecharge,
  TMechanismSettlement,
  TTeamResponse,
} from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';

export function useInvite() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['agency', 'invite'],
    queryFn: () => api.get<TInviteResponse>('/api/agency/invite'),
    enabled: hasToken,
  });
}

export function useTeam() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['agency', 'team'],
    queryFn: () => api.get<TTeamResponse>('/api/agency/team'),
    enabled: hasToken,
    staleTime: 0,
  });
}

export function useInviteRecord(level: 'all' | 'direct' | 'indirect') {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['agency', 'record', level],
    queryFn: () => api.post<TInviteRecordResponse>('/api/agency/inviterecord', { level }),
    enabled: hasToken,
    staleTime: 0,
  });
}

export function useRewards() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: ['agency', 'reward'],
    queryFn: () => api.post<TAgencyRewardResponse>('/api/agency/reward'),
    enabled: hasToken,
    staleTime: 0,
  });
}

export function useClaimCommissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TAgencyClaimResponse>('/api/agency/reward/claim'),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['agency'] });
      void client.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
  });
}

/** The three mechanism tables, fetched together; a failing one is left out silently (spec §7). */
export function useMechanism() {
  return useQuery({
    queryKey: ['agency', 'mechanism'],
    queryFn: async () => {
      const [recharge, betting, settlement] = await Promise.allSettled([
        api.get<TMechanismRecharge>('/api/agency/mechanism/recharge', { silent: true }),
        api.get<TMechanismBetting>('/api/agency/mechanism/betting', { silent: true }),
        api.get<TMechanismSettlement>('/api/agency/mechanism/settlement', { silent: true }),
      ]);
      const value = <T>(result: PromiseSettledResult<T>) =>
        result.status === 'fulfilled' ? result.value : null;
      return { recharge: value(recharge), betting: value(betting), settlement: value(settlement) };
    },
    staleTime: 5 * 60_000,
  });
}
