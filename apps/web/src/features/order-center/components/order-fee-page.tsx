import type { TRecordPeriod } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useOrderFees } from '../api/get-order-center.ts';
import '../order-center.css';
import { formatTime, OrderCenterTabs, PeriodFilter } from './order-center-parts.tsx';

/** `/order-center/fee`: the fees kept from the player's withdrawals. */
export function OrderFeePage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.order_center')} requiresLogin>
      <OrderCenterTabs />
      <OrderFees />
    </PageFrame>
  );
}

function OrderFees() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TRecordPeriod>('all');
  const fees = useOrderFees(period);
  const data = fees.data;
  return (
    <div className="order-center">
      <PeriodFilter value={period} onChange={setPeriod} />
      <div className="stat stat--main">
        <span className="stat__label">{t('money.total_fee')}</span>
        <span className="stat__value">{formatMoney(data?.total_fee_amount)}</span>
      </div>
      <QueryStates
        isPending={fees.isPending}
        isError={fees.isError}
        isEmpty={(data?.fee.length ?? 0) === 0}
        onRetry={() => void fees.refetch()}
      />
      {data && data.fee.length > 0 && (
        <ul className="order-list">
          {data.fee.map((fee) => (
            <li key={fee.id} className="order-row" data-testid="record-row">
              <div className="order-row__head">
                <span>{fee.order_no}</span>
                <strong>{formatMoney(fee.fee)}</strong>
              </div>
              <div className="order-row__meta">
                <span>{formatTime(fee.created_at)}</span>
                <span>
                  {t('money.withdraw_amount')} {formatMoney(fee.withdraw_amount)}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {data?.has_more && (
        <p className="order-center__note">{t('money.latest_only', { count: data.fee.length })}</p>
      )}
    </div>
  );
}

export default OrderFeePage;
