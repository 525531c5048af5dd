import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useWithdrawalRecords } from '../api/list-records.ts';
import { OrderRecordList } from './order-record-list.tsx';

/** `/withdrawalRecord`: time, order number, amount, fee, actual receipt, account, review and status. */
export function WithdrawalRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.withdrawal_record')} requiresLogin>
      <OrderRecordList
        useRecords={useWithdrawalRecords}
        statusKey="money.withdrawal_status"
        details={(order) => (
          <>
            <div>
              <dt>{t('money.method')}</dt>
              <dd>
                PIX · {t(`money.account_types.${order.account_type}`, { defaultValue: order.account_type })}{' '}
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
          </>
        )}
      />
    </PageFrame>
  );
}

export default WithdrawalRecordPage;
