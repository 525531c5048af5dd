import type { TRecordPeriod } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useOrderDetails } from '../api/get-order-center.ts';
import '../order-center.css';
import { formatTime, OrderCenterTabs, PeriodFilter } from './order-center-parts.tsx';

/** `/order-center`: totals of recharges, withdrawals, bonuses and fees, and the latest orders. */
export function OrderCenterPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.order_center')} requiresLogin>
      <OrderCenterTabs />
      <OrderDetails />
    </PageFrame>
  );
}

function OrderDetails() {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<TRecordPeriod>('all');
  const details = useOrderDetails(period);
  const data = details.data;
  const totals = [
    { key: 'total_recharge', value: data?.total_recharge_amount },
    { key: 'total_withdraw', value: data?.total_withdraw_amount },
    { key: 'total_bonus', value: data?.total_bonus_amount },
    { key: 'total_fee', value: data?.total_fee_amount },
  ];
  return (
    <div className="order-center">
      <PeriodFilter value={period} onChange={setPeriod} />
      <section className="order-center__totals">
        {totals.map((total) => (
          <div key={total.key} className="stat" data-testid={`order-${total.key}`}>
            <span className="stat__label">{t(`money.${total.key}`)}</span>
            <span className="stat__value">{formatMoney(total.value)}</span>
          </div>
        ))}
      </section>
      <QueryStates
        isPending={details.isPending}
        isError={details.isError}
        isEmpty={(data?.details.length ?? 0) === 0}
        onRetry={() => void details.refetch()}
      />
      {data && data.details.length > 0 && (
        <ul className="order-list">
          {data.details.map((order) => (
            <li key={`${order.type}-${order.order_no}`} className="order-row" data-testid="record-row">
              <div className="order-row__head">
                <span className={`order-row__type order-row__type--${order.type}`}>
                  {t(`money.order_type.${order.type}`)}
                </span>
                <strong>{formatMoney(order.amount)}</strong>
              </div>
              <div className="order-row__meta">
                <span>{formatTime(order.created_at)}</span>
                <span>
                  {t(
                    order.type === 'recharge'
                      ? `money.deposit_status.${order.status}`
                      : `money.withdrawal_status.${order.status}`,
                    {
                      defaultValue: order.status,
                    },
                  )}
                </span>
              </div>
              <div className="order-row__meta">
                <span>{order.order_no}</span>
                {order.type === 'withdraw' && (
                  <span>
                    {t('money.fee')} {formatMoney(order.fee)} · {t('money.actual_receipt')}{' '}
                    {formatMoney(order.actual_amount)}
                  </span>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {data?.has_more && (
        <p className="order-center__note">{t('money.latest_only', { count: data.details.length })}</p>
      )}
      <Link to="/transactions" className="button button--ghost button--block">
        {t('money.transactions')}
      </Link>
    </div>
  );
}

export default OrderCenterPage;
