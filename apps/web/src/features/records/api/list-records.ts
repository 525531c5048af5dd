import type {
  TRechargeListResponse,
  TRecordPeriod,
  TTransactionRecordResponse,
  TWithdrawalOrder,
  TWithdrawListResponse,
} from '@sorte/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient, USER_QUERY_KEY } from '../../../lib/query-client.ts';

/** Rows per page of the recharge and withdrawal records. */
export const RECORDS_PAGE_SIZE = 10;

/** Where a page starts: the newest rows, or older / newer than a cursor of the page before. */
export type TPageCursor = { before?: string; after?: string };

/** `POST /api/recharge/list`: the player's deposit orders of a period, newest first. */
export function useRechargeRecords(period: TRecordPeriod, cursor: TPageCursor) {
  return useQuery({
    queryKey: ['records', 'recharge', period, cursor],
    queryFn: () =>
      api.post<TRechargeListResponse>(
        '/api/recharge/list',
        { ...cursor, period, limit: RECORDS_PAGE_SIZE },
        { silent: true },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** `POST /api/drawing/list`: the player's withdrawals of a period, newest first. */
export function useWithdrawalRecords(period: TRecordPeriod, cursor: TPageCursor) {
  return useQuery({
    queryKey: ['records', 'withdrawal', period, cursor],
    queryFn: () =>
      api.post<TWithdrawListResponse>(
        '/api/drawing/list',
        { ...cursor, period, limit: RECORDS_PAGE_SIZE },
        { silent: true },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** `POST /api/transaction/record`: wallet movements of a period, keyset pages. */
export function useTransactionRecords(period: TRecordPeriod, cursor: string | undefined) {
  return useQuery({
    queryKey: ['records', 'transactions', period, cursor ?? null],
    queryFn: () =>
      api.post<TTransactionRecordResponse>(
        '/api/transaction/record',
        { period, cursor, page_size: RECORDS_PAGE_SIZE },
        { silent: true },
      ),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * `POST /api/drawing/cancel`: the player withdraws an order still under review; the held amount is
 * back in cash at once, so the header balance and the records are read again.
 */
export function useCancelWithdrawal() {
  return useMutation({
    mutationFn: (orderNo: string) =>
      api.post<TWithdrawalOrder>('/api/drawing/cancel', { order_no: orderNo }, { silent: true }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
      void queryClient.invalidateQueries({ queryKey: ['records'] });
      void queryClient.invalidateQueries({ queryKey: ['withdraw'] });
    },
  });
}
