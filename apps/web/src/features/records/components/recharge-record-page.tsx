import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useRechargeRecords } from '../api/list-records.ts';
import { OrderRecordList } from './order-record-list.tsx';

/**
 * What a player calls the way they paid: the channel's name in their language ("PIX instantâneo"),
 * or the method alone ("PIX") for a channel an operator added since; never the internal code.
 */
function useChannelLabel() {
  const { t } = useTranslation();
  return (method: string, channel: string) =>
    t(`money.channels.${channel}`, { defaultValue: method.toUpperCase() });
}

/** `/rechargeRecord`: time, order number, amount, method, status (spec §3). */
export function RechargeRecordPage() {
  const { t } = useTranslation();
  const channelLabel = useChannelLabel();
  return (
    <PageFrame title={t('pages.recharge_record')} requiresLogin>
      <OrderRecordList
        useRecords={useRechargeRecords}
        statusKey="money.deposit_status"
        details={(order) => (
          <div>
            <dt>{t('money.method')}</dt>
            <dd>{channelLabel(order.payment_type, order.channel)}</dd>
          </div>
        )}
      />
    </PageFrame>
  );
}

export default RechargeRecordPage;
