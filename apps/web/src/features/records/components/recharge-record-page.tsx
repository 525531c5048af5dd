import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useRechargeRecords } from '../api/list-records.ts';
import { OrderRecordList } from './order-record-list.tsx';

/** `/rechargeRecord`: time, order number, amount, method, status (spec §3). */
export function RechargeRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.recharge_record')} requiresLogin>
      <OrderRecordList
        useRecords={useRechargeRecords}
        statusKey="money.deposit_status"
        details={(order) => (
          <div>
            <dt>{t('money.method')}</dt>
            <dd>
              {order.payment_type.toUpperCase()} · {order.channel}
            </dd>
          </div>
        )}
      />
    </PageFrame>
  );
}

export default RechargeRecordPage;
