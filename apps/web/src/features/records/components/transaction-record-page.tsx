import { RECORD_PERIODS, type TRecordPeriod } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney, formatSignedMoney } from '../../../lib/format.ts';
import { useTransactionRecords } from '../api/list-records.ts';
import { formatTime } from '../format-time.ts';
import '../records.css';
import { Pager } from './record-states.tsx';

/** The filters of spec §2: today / last 3 days / last 7 days; "reset" returns to everything. */
const FILTERS = RECORD_PERIODS.filter((period) => period !== 'all');

/** References read "<kind>:<order number>"; the row already names the kind. */
function referenceOf(reference: string): string {
  return reference.replace(/^[a-z_]+:/, '');
}

/** The transaction record: every wallet movement, with period filters and previous/next pages. */
export function TransactionRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('money.transactions')} requiresLogin>
      <TransactionRecords />
    </PageFrame>
  );
}

function TransactionRecords() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TRecordPeriod>('all');
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const records = useTransactionRecords(period, cursor);
  const list = records.data?.list ?? [];
  const choose = (next: TRecordPeriod) => {
    setPeriod(next);
    setCursor(undefined);
  };
  return (
    <div className="records">
      <div className="records__filters">
        {FILTERS.map((item) => (
          <button
            key={item}
            type="button"
            className={`records__filter${period === item ? ' is-active' : ''}`}
            aria-pressed={period === item}
            onClick={() => choose(item)}
            data-testid={`period-${item}`}
          >
            {t(`money.period.${item}`)}
          </button>
        ))}
        <button
          type="button"
          className="records__filter"
          onClick={() => choose('all')}
          data-testid="period-reset"
        >
          {t('money.reset')}
        </button>
      </div>
      <QueryStates
        testId="records-load-fail"
        isPending={records.isPending}
        isError={records.isError}
        isEmpty={list.length === 0}
        onRetry={() => void records.refetch()}
      />
      {!records.isError && list.length > 0 && (
        <ul className="record-list">
          {list.map((row) => (
            <li key={row.id} className="record" data-testid="record-row">
              <div className="record__head">
                <span className="record__kind">{t(`money.kinds.${row.kind}`)}</span>
                <span className={`record__change record__change--${row.direction}`}>
                  {formatSignedMoney(row.change.replace(/^\+/, ''))}
                </span>
              </div>
              <dl className="record__meta">
                <div>
                  <dt>{t('money.time')}</dt>
                  <dd>{formatTime(row.created_at)}</dd>
                </div>
                <div>
                  <dt>{t('money.account')}</dt>
                  <dd>{t(`money.accounts.${row.account}`)}</dd>
                </div>
                <div>
                  <dt>{t('money.balance_after')}</dt>
                  <dd>{formatMoney(row.balance_after)}</dd>
                </div>
                {row.reference && (
                  <div>
                    <dt>{t('money.order_no')}</dt>
                    <dd>{referenceOf(row.reference)}</dd>
                  </div>
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
      <Pager
        hasPrevious={records.data?.prev_cursor != null}
        hasNext={records.data?.next_cursor != null}
        busy={records.isFetching}
        onPrevious={() => setCursor(records.data?.prev_cursor ?? undefined)}
        onNext={() => setCursor(records.data?.next_cursor ?? undefined)}
      />
    </div>
  );
}

export default TransactionRecordPage;
