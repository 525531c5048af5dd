import { type BaseRecord, type CrudFilter, type LogicalFilter, useTable } from '@refinedev/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadCsv } from '../api.ts';
import { filtersToQuery } from '../providers.ts';

export type TColumn<T> = {
  key: string;
  header: string;
  render?: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
};

export type TFilterField = {
  field: string;
  label: string;
  type: 'text' | 'select' | 'date';
  options?: { value: string; label: string }[];
  placeholder?: string;
  /** Initial value (a select without an empty option needs one). */
  initial?: string;
};

/**
 * A server-paged list: filters (sent as query parameters), a table, a pager and a CSV export of
 * every matching row (the same endpoint with ?format=csv). Any list endpoint answering
 * { list, total, page, page_size } works:
 *
 *   <DataTable resource="players" path="/admin/players" columns={…} filters={…} csvName="players"
 *              rowKey={(row) => row.id} onRowClick={(row) => navigate(`/players/${row.id}`)} />
 */
export function DataTable<T extends BaseRecord>(props: {
  resource: string;
  path?: string;
  columns: TColumn<T>[];
  filters?: TFilterField[];
  csvName?: string;
  rowKey: (row: T) => string;
  onRowClick?: (row: T) => void;
  selectedKey?: string | null;
  pageSize?: number;
  emptyText?: string;
  toolbar?: ReactNode;
}) {
  const { t } = useTranslation();
  const path = props.path ?? `/admin/${props.resource}`;
  const initialFilters: CrudFilter[] = (props.filters ?? [])
    .filter((filter) => filter.initial)
    .map((filter) => ({ field: filter.field, operator: 'eq', value: filter.initial }));
  const {
    result,
    tableQuery,
    currentPage,
    setCurrentPage,
    pageCount,
    pageSize,
    setPageSize,
    filters,
    setFilters,
  } = useTable<T>({
    resource: props.resource,
    meta: { path },
    pagination: { pageSize: props.pageSize ?? 20, mode: 'server' },
    filters: { initial: initialFilters, mode: 'server' },
    sorters: { mode: 'off' },
    syncWithLocation: false,
  });
  const current = Object.fromEntries(
    (filters as LogicalFilter[])
      .filter((filter) => 'field' in filter)
      .map((filter) => [filter.field, String(filter.value ?? '')]),
  );
  const [draft, setDraft] = useState<Record<string, string>>(current);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(
      Object.entries(draft)
        .filter(([, value]) => value !== '')
        .map(([field, value]) => ({ field, operator: 'eq' as const, value })),
      'replace',
    );
    setCurrentPage(1);
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadCsv(path, filtersToQuery(filters), props.csvName ?? props.resource);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };

  const rows = result.data ?? [];
  const total = result.total ?? 0;
  const loading = tableQuery.isFetching;

  return (
    <section className="card data-table" aria-busy={loading}>
      {(props.filters?.length || props.csvName || props.toolbar) && (
        <form className="filters" onSubmit={apply}>
          {props.filters?.map((filter) => (
            <label key={filter.field} className="field field--inline" htmlFor={`filter-${filter.field}`}>
              <span className="field__label">{filter.label}</span>
              {filter.type === 'select' ? (
                <select
                  id={`filter-${filter.field}`}
                  value={draft[filter.field] ?? ''}
                  onChange={(event) => setDraft({ ...draft, [filter.field]: event.target.value })}
                  data-testid={`filter-${filter.field}`}
                >
                  {filter.options?.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={`filter-${filter.field}`}
                  type={filter.type}
                  value={draft[filter.field] ?? ''}
                  placeholder={filter.placeholder}
                  onChange={(event) => setDraft({ ...draft, [filter.field]: event.target.value })}
                  data-testid={`filter-${filter.field}`}
                />
              )}
            </label>
          ))}
          <div className="filters__actions">
            {props.filters?.length ? (
              <button type="submit" className="button">
                {t('table.apply')}
              </button>
            ) : null}
            {props.toolbar}
            {props.csvName !== undefined && (
              <button
                type="button"
                className="button button--ghost"
                onClick={() => void exportCsv()}
                disabled={exporting}
                data-testid="export-csv"
              >
                ↓ {t('table.export_csv')}
              </button>
            )}
          </div>
          {exportError && (
            <p className="alert alert--error" role="alert">
              {exportError}
            </p>
          )}
        </form>
      )}
      {tableQuery.isError ? (
        <p className="alert alert--error" role="alert">
          {(tableQuery.error as { message?: string } | null)?.message ?? t('errors.network')}
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th
                  key={column.key}
                  className={column.align ? `align-${column.align}` : undefined}
                  scope="col"
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && !loading ? (
              <tr>
                <td colSpan={props.columns.length} className="table__empty">
                  {props.emptyText ?? t('table.empty')}
                </td>
              </tr>
            ) : (
              rows.map((row) => {
                const key = props.rowKey(row);
                return (
                  <tr
                    key={key}
                    className={`${props.onRowClick ? 'table__row--link' : ''}${props.selectedKey === key ? ' table__row--selected' : ''}`}
                    onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}
                    onKeyDown={
                      props.onRowClick
                        ? (event) => {
                            if (event.key === 'Enter') props.onRowClick?.(row);
                          }
                        : undefined
                    }
                    tabIndex={props.onRowClick ? 0 : undefined}
                    data-testid={`row-${key}`}
                  >
                    {props.columns.map((column) => (
                      <td
                        key={column.key}
                        className={column.align ? `align-${column.align}` : undefined}
                        data-label={column.header}
                      >
                        {column.render
                          ? column.render(row)
                          : String((row as Record<string, unknown>)[column.key] ?? '—')}
                      </td>
                    ))}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      <footer className="pager">
        <span className="pager__total">{t('table.total', { count: total })}</span>
        <label className="pager__size">
          <span className="visually-hidden">{t('table.page_size')}</span>
          <select value={pageSize} onChange={(event) => setPageSize(Number(event.target.value))}>
            {[10, 20, 50, 100].map((size) => (
              <option key={size} value={size}>
                {t('table.per_page', { count: size })}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button--ghost"
          disabled={currentPage <= 1}
          onClick={() => setCurrentPage(currentPage - 1)}
          aria-label={t('table.previous')}
        >
          ‹
        </button>
        <span className="pager__page">
          {t('table.page', { page: currentPage, pages: Math.max(1, pageCount) })}
        </span>
        <button
          type="button"
          className="button button--ghost"
          disabled={currentPage >= pageCount}
          onClick={() => setCurrentPage(currentPage + 1)}
          aria-label={t('table.next')}
        >
          ›
        </button>
      </footer>
    </section>
  );
}
