import type { TRecordPeriod } from '@sorte/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStates } from '../../../components/load-fail.tsx';
import { RecordPeriodFilter } from '../../../components/period-filter.tsx';
import { formatMoney } from '../../../lib/format.ts';
import type { TPageCursor } from '../api/list-records.ts';
import { formatTime } from '../format-time.ts';
import '../records.css';
import { Pager } from './record-states.tsx';

/** What every deposit or withdrawal order row shows, whatever else it adds. */
type TOrderRow = {
  id: number | string;
  order_no: string;
  amount: string;
  status: string;
  created_at: string;
};
type TOrderPage<T> = { list: T[]; next?: string | null; prev?: string | null };

/**
 * The deposit and withdrawal records share one list: amount and translated status, time, order
 * number, then the rows that differ (`details`), with the period chips, loading / 'Load Fail' /
 * 'No records found' states and previous/next keyset paging.
 */
export function OrderRecordList<T extends TOrderRow>({
  useRecords,
  statusKey,
  details,
  actions,
}: {
  useRecords: (period: TRecordPeriod, cursor: TPageCursor) => UseQueryResult<TOrderPage<T>>;
  /** The i18n group of the status names, e.g. `money.deposit_status`. */
  statusKey: string;
  details: (order: T) => ReactNode;
  /** What the player can still do with an order (e.g. cancel a withdrawal under review). */
  actions?: (order: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TRecordPeriod>('all');
  const [cursor, setCursor] = useState<TPageCursor>({});
  const records = useRecords(period, cursor);
  const list = records.data?.list ?? [];
  // Another period starts again from its newest page.
  const choose = (next: TRecordPeriod) => {
    setPeriod(next);
    setCursor({});
  };
  return (
    <div className="records">
      <RecordPeriodFilter value={period} onChange={choose} />
      <QueryStates
        testId="records-load-fail"
        isPending={records.isPending}
        isError={records.isError}
        isEmpty={list.length === 0}
        onRetry={() => void records.refetch()}
      />
      {!records.isError && list.length > 0 && (
        <ul className="record-list">
          {list.map((order) => (
            <li key={order.id} className="record" data-testid="record-row" data-order-no={order.order_no}>
              <div className="record__head">
                <span className="record__amount">{formatMoney(order.amount)}</span>
                <span className={`record__status record__status--${order.status}`}>
                  {t(`${statusKey}.${order.status}`)}
                </span>
              </div>
              <dl className="record__meta">
                <div>
                  <dt>{t('money.time')}</dt>
                  <dd>{formatTime(order.created_at)}</dd>
                </div>
                <div>
                  <dt>{t('money.order_no')}</dt>
                  <dd>{order.order_no}</dd>
                </div>
                {details(order)}
              </dl>
              {actions?.(order)}
            </li>
          ))}
        </ul>
      )}
      <Pager
        hasPrevious={records.data?.prev != null}
        hasNext={records.data?.next != null}
        busy={records.isFetching}
        onPrevious={() => records.data?.prev && setCursor({ after: records.data.prev })}
        onNext={() => records.data?.next && setCursor({ before: records.data.next })}
      />
    </div>
  );
}
