import type { TRecordPeriod } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RecordPeriodFilter } from '../../../components/period-filter.tsx';
import { formatMoney, formatSignedMoney } from '../../../lib/format.ts';
import { useTransactionRecords } from '../api/list-records.ts';
import { formatTime } from '../format-time.ts';
import '../records.css';
import { Pager } from './record-states.tsx';

/** The kinds of wallet references ("<kind>:<id>") the record names for people. */
const REFERENCE_KINDS = [
  'deposit',
  'withdrawal',
  'round',
  'crash-round',
  'provider-round',
  'grant',
  'rain',
  'agency',
  'order',
  'sports-bet',
];

/**
 * A wallet reference as a player reads it: "crash-round:16" is "Crash round #16", "deposit:D2026…"
 * is the order number; an unknown kind shows its id alone, never the internal prefix.
 */
export function referenceText(
  reference: string,
  t: (key: string, options?: Record<string, unknown>) => string,
) {
  const at = reference.indexOf(':');
  const kind = at > 0 ? reference.slice(0, at) : '';
  const id = at > 0 ? reference.slice(at + 1) : reference;
  return REFERENCE_KINDS.includes(kind) ? t(`money.reference.${kind.replace('-', '_')}`, { id }) : id;
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
                    <dt>{t('money.reference_label')}</dt>
                    <dd>{referenceText(row.reference, t)}</dd>
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
