import type { TCrashChainsResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useHasToken } from '../../../lib/session.ts';

export interface TSeedPair {
  server_seed_hash: string;
  /** The next pair's server seed hash, committed before the client seed is chosen. */
  next_server_seed_hash: string;
  client_seed: string;
  nonce: number;
}
export interface TRevealedPair {
  server_seed: string;
  server_seed_hash: string;
  next_server_seed_hash: string | null;
  client_seed: string;
  bets: number;
  created_at: string;
  revealed_at: string;
}

export const SEEDS_KEY = ['fairness', 'seeds'] as const;
export const HISTORY_KEY = ['fairness', 'history'] as const;
export const CRASH_CHAINS_KEY = ['fairness', 'crash-chains'] as const;

export function useSeeds() {
  const hasToken = useHasToken();
  return useQuery<TSeedPair>({
    queryKey: SEEDS_KEY,
    queryFn: () => api.get<TSeedPair>('/api/fairness/seeds', { silent: true }),
    enabled: hasToken,
  });
}

export function useSeedHistory() {
  const hasToken = useHasToken();
  return useQuery<{ list: TRevealedPair[]; total: number }>({
    queryKey: HISTORY_KEY,
    queryFn: () => api.get('/api/fairness/history', { query: { page: 1, page_size: 20 }, silent: true }),
    enabled: hasToken,
  });
}

/** A new client seed starts a new pair: the old server seed is revealed, like a rotation. */
export const setClientSeed = (clientSeed: string) =>
  api.post<{ revealed: TRevealedPair; current: TSeedPair }>('/api/fairness/client-seed', {
    client_seed: clientSeed,
  });

export const rotateSeeds = () =>
  api.post<{ revealed: TRevealedPair; current: TSeedPair }>('/api/fairness/rotate', {});

/** The crash chains' public commitments and salts (no login: the same for everyone, every site). */
export function useCrashChains() {
  return useQuery<TCrashChainsResponse>({
    queryKey: CRASH_CHAINS_KEY,
    queryFn: () => api.get('/api/crash/chains', { query: { limit: 5 }, silent: true }),
  });
}
