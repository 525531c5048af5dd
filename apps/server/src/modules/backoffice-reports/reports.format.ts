import { formatMinor } from '@sorte/contract';
import { CSV_MAX_ROWS } from '../admin/csv.ts';

/**
 * How the back-office reports read what their repos answer (values cast to text in SQL, so PGlite
 * and PostgreSQL give the same strings) and how they page.
 */

/** A bigint text from the database (NULL → 0) as money text "1234.56". */
export function moneyText(value: unknown): string {
  return formatMinor(BigInt(value === null || value === undefined ? 0 : String(value)));
}

export function intOf(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

export function textOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** Paging of an admin list: 1-based page, page_size 1..200 (default 25); CSV takes every row. */
export type TPaging = { page: number; pageSize: number; all: boolean };

export const PAGE_SIZE_DEFAULT = 25;

export function pagingOf(query: {
  page?: number | undefined;
  page_size?: number | undefined;
  format?: string | undefined;
}): TPaging {
  const all = query.format === 'csv';
  return {
    page: all ? 1 : (query.page ?? 1),
    pageSize: all ? CSV_MAX_ROWS : (query.page_size ?? PAGE_SIZE_DEFAULT),
    all,
  };
}

export type TPage<T> = { list: T[]; total: number; page: number; page_size: number };

export function pageOf<T>(list: T[], total: number, paging: TPaging): TPage<T> {
  return { list, total, page: paging.page, page_size: paging.all ? list.length : paging.pageSize };
}
