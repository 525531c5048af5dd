import type { TGameRecordResponse, TRecordPeriod, TRound } from '@sorte/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { useHasToken } from '../../../lib/session.ts';

export interface TRecordCursor {
  before_id?: string;
  after_id?: string;
}

const PAGE_SIZE = 20;

export function useGameRecord(period: TRecordPeriod, cursor: TRecordCursor) {
  const hasToken = useHasToken();
  return useQuery<TGameRecordResponse>({
    queryKey: ['game-record', period, cursor],
    queryFn: () =>
      api.post<TGameRecordResponse>(
        '/api/game/record',
        { period, page_size: PAGE_SIZE, ...cursor },
        { silent: true },
      ),
    enabled: hasToken,
    placeholderData: keepPreviousData,
  });
}

export const fetchRound = (id: string) =>
  api.post<TRound>('/api/game/record/details', { id }, { silent: true });

export function useRound(id: string | null) {
  return useQuery<TRound>({
    queryKey: ['game-record', 'round', id],
    queryFn: () => fetchRound(id ?? ''),
    enabled: id !== null && /^[1-9]\d{0,17}$/.test(id),
    retry: false,
  });
}
