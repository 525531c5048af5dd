import type {
  TKycStatus,
  TRgStatus,
  TSecurityEventsResponse,
  TSecurityOverview,
  TSessionsResponse,
  TSetRgLimitRequest,
} from '@sorte/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

export const SECURITY_QUERY_KEY = ['security'] as const;
const RG_QUERY_KEY = ['responsible-gaming'] as const;

const refreshSecurity = () => queryClient.invalidateQueries({ queryKey: SECURITY_QUERY_KEY });

/** `GET /api/security/overview`: passwords set, email, two-factor, last login. */
export function useSecurityOverview() {
  return useQuery({
    queryKey: [...SECURITY_QUERY_KEY, 'overview'],
    queryFn: () => api.get<TSecurityOverview>('/api/security/overview', { silent: true }),
  });
}

/** `GET /api/security/sessions`: every active session (device). */
export function useSessions() {
  return useQuery({
    queryKey: [...SECURITY_QUERY_KEY, 'sessions'],
    queryFn: () => api.get<TSessionsResponse>('/api/security/sessions', { silent: true }),
  });
}

/** `GET /api/security/events`: the latest security events. */
export function useSecurityEvents() {
  return useQuery({
    queryKey: [...SECURITY_QUERY_KEY, 'events'],
    queryFn: () => api.get<TSecurityEventsResponse>('/api/security/events', { silent: true }),
  });
}

/** `POST /api/security/sessions/end`: ends one of my sessions. */
export function useEndSession() {
  return useMutation({
    mutationFn: (sessionId: number) =>
      api.post<null>('/api/security/sessions/end', { session_id: sessionId }),
    onSuccess: refreshSecurity,
  });
}

/** A security-centre form call; failures come back to the form (field errors) without a toast. */
export function useSecurityCall<TBody>(path: string) {
  return useMutation({
    mutationFn: (body: TBody) => api.post<unknown>(path, body, { silent: true }),
    onSuccess: refreshSecurity,
  });
}

/** `GET /api/responsible-gaming`: my limits, pause or exclusion and the site's rules. */
export function useRgStatus() {
  return useQuery({
    queryKey: RG_QUERY_KEY,
    queryFn: () => api.get<TRgStatus>('/api/responsible-gaming', { silent: true }),
  });
}

/** `POST /api/responsible-gaming/limits`: tighter applies at once, looser after 24 h. */
export function useSetRgLimit() {
  return useMutation({
    mutationFn: (body: TSetRgLimitRequest) =>
      api.post<TRgStatus>('/api/responsible-gaming/limits', body, { silent: true }),
    onSuccess: (status) => queryClient.setQueryData(RG_QUERY_KEY, status),
  });
}

const KYC_QUERY_KEY = ['kyc'] as const;

/** `GET /api/kyc/status`: the checks I passed, what the site requires before what, and why. */
export function useKycStatus() {
  return useQuery({
    queryKey: KYC_QUERY_KEY,
    queryFn: () => api.get<TKycStatus>('/api/kyc/status', { silent: true }),
  });
}

/** `POST /api/kyc/verifications`: the CPF check at once, then the document and selfie capture link. */
export function useStartVerification() {
  return useMutation({
    mutationFn: () => api.post<TKycStatus>('/api/kyc/verifications', {}, { silent: true }),
    onSuccess: (status) => queryClient.setQueryData(KYC_QUERY_KEY, status),
  });
}
