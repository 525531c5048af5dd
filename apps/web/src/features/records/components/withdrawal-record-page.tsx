import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { type TPageCursor, useWithdrawalRecords } from '../api/list-records.ts';
import { formatTime } from '../format-time.ts';
import '../records.css';
import { Pager, RecordStates } from './record-states.tsx';

/** `/withdrawalRecord`: time, order number, amount, fee, actual receipt, account, review and status. */
export function WithdrawalRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.withdrawal_record')} requiresLogin>
      <WithdrawalRecords />
    </PageFrame>
  );
}

function WithdrawalRecords() {
  const { t } = useTranslation();
  const [cursor, setCursor] = useState<TPageCursor>({});
  const records = useWithdrawalRecords(cursor);
  const list = records.data?.list ?? [];
  return (
    <div className="records">
      <RecordStates
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
                  {t(`money.withdrawal_status.${order.status}`)}
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
                <div>
                  <dt>{t('money.method')}</dt>
                  <dd>
                    PIX ·{' '}
                    {t(`money.account_types.${order.account_type}`, { defaultValue: order.account_type })}{' '}
                    {order.account}
                  </dd>
                </div>
                <div>
                  <dt>{t('money.fee')}</dt>
                  <dd>{formatMoney(order.fee)}</dd>
                </div>
                <div>
                  <dt>{t('money.actual_receipt')}</dt>
                  <dd>{formatMoney(order.actual)}</dd>
                </div>
                <div>
                  <dt>{t('money.review')}</dt>
                  <dd>{t(`money.review_status.${order.review_status}`)}</dd>
                </div>
                {order.remark && (
                  <div>
                    <dt>{t('money.remark')}</dt>
                    <dd>{order.remark}</dd>
                  </div>
                )}
              </dl>
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

export default WithdrawalRecordPage;
