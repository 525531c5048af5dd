import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { type TPageCursor, useRechargeRecords } from '../api/list-records.ts';
import { formatTime } from '../format-time.ts';
import '../records.css';
import { Pager, RecordStates } from './record-states.tsx';

/** `/rechargeRecord`: time, order number, amount, method, status (spec §3). */
export function RechargeRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.recharge_record')} requiresLogin>
      <RechargeRecords />
    </PageFrame>
  );
}

function RechargeRecords() {
  const { t } = useTranslation();
  const [cursor, setCursor] = useState<TPageCursor>({});
  const records = useRechargeRecords(cursor);
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
                  {t(`money.deposit_status.${order.status}`)}
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
                    {order.payment_type.toUpperCase()} · {order.channel}
                  </dd>
                </div>
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

export default RechargeRecordPage;
