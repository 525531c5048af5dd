import { useTranslation } from 'react-i18next';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useOrderAssociation } from '../api/get-order-center.ts';
import '../order-center.css';
import { formatTime, OrderCenterTabs } from './order-center-parts.tsx';

/** `/order-center/association`: the players the member invited and what they recharged. */
export function OrderAssociationPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.order_center')} requiresLogin>
      <OrderCenterTabs />
      <Association />
    </PageFrame>
  );
}

function Association() {
  const { t } = useTranslation();
  const association = useOrderAssociation();
  const data = association.data;
  return (
    <div className="order-center">
      <section className="order-center__totals">
        <div className="stat">
          <span className="stat__label">{t('money.invitees')}</span>
          <span className="stat__value">{data?.total ?? 0}</span>
        </div>
        <div className="stat">
          <span className="stat__label">{t('money.total_recharge')}</span>
          <span className="stat__value">{formatMoney(data?.total_recharge_amount)}</span>
        </div>
      </section>
      <QueryStates
        isPending={association.isPending}
        isError={association.isError}
        isEmpty={(data?.association.length ?? 0) === 0}
        onRetry={() => void association.refetch()}
      />
      {data && data.association.length > 0 && (
        <ul className="order-list">
          {data.association.map((invitee) => (
            <li key={invitee.id} className="order-row" data-testid="record-row">
              <div className="order-row__head">
                <span>{invitee.name}</span>
                <strong>{formatMoney(invitee.total_recharge_amount)}</strong>
              </div>
              <div className="order-row__meta">
                <span>
                  {t('money.registered')} {formatTime(invitee.created_at)}
                </span>
                <span>{t(`money.relation.${invitee.relation}`)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
      {data?.has_more && (
        <p className="order-center__note">{t('money.latest_only', { count: data.association.length })}</p>
      )}
    </div>
  );
}

export default OrderAssociationPage;
