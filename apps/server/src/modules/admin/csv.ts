import type { TAdminPageQuery } from '@sorte/contract';
import type { FastifyReply } from 'fastify';

/**
 * Server-side CSV for back-office lists: `?format=csv` on any paged admin list returns every
 * matching row (up to CSV_MAX_ROWS) as a download instead of one page of JSON.
 *
 *   const page = pageOf(request.query);
 *   const { rows, total } = await find(filters, page.limit, page.offset);
 *   if (page.csv) return sendCsv(reply, 'players', toCsv(PLAYER_COLUMNS, rows));
 *   return ok(request.lang, { list: rows.map(view), total, page: page.page, page_size: page.pageSize });
 */

export const CSV_MAX_ROWS = 50_000;
export const DEFAULT_PAGE_SIZE = 20;

export type TCsvValue = string | number | bigint | boolean | Date | null | undefined;
export type TCsvColumn<T> = { header: string; value: (row: T) => TCsvValue };

/** Paging of a list request; a CSV export reads from the first row, up to CSV_MAX_ROWS. */
export function pageOf(query: Pick<TAdminPageQuery, 'page' | 'page_size' | 'format'>) {
  const csv = query.format === 'csv';
  const page = csv ? 1 : (query.page ?? 1);
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  return {
    csv,
    page,
    pageSize,
    limit: csv ? CSV_MAX_ROWS : pageSize,
    offset: csv ? 0 : (page - 1) * pageSize,
  };
}

function cell(value: TCsvValue): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  // A spreadsheet would run a cell that starts like a formula (CSV injection): make it text.
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 text: a header line, then one line per row (CRLF). */
export function toCsv<T>(columns: readonly TCsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((column) => cell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => cell(column.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Sends CSV as a download named `<name>-<date>.csv` (with a BOM so spreadsheets read UTF-8). */
export function sendCsv(reply: FastifyReply, name: string, csv: string): FastifyReply {
  const file = `${name.replace(/[^a-z0-9-]/gi, '_')}-${new Date().toISOString().slice(0, 10)}.csv`;
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${file}"`)
    .type('text/csv; charset=utf-8')
    .send(`\uFEFF${csv}`);
}
