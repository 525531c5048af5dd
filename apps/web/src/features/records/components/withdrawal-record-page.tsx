import type { TWithdrawalOrder } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { confirmDialog } from '../../../lib/dialog.ts';
import { formatMoney } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { useCancelWithdrawal, useWithdrawalRecords } from '../api/list-records.ts';
import { OrderRecordList } from './order-record-list.tsx';

/** While an order waits for review the player may take it back; the amount returns at once. */
function CancelWithdrawal({ order }: { order: TWithdrawalOrder }) {
  const { t } = useTranslation();
  const cancel = useCancelWithdrawal();
  if (order.status !== 'pending_review') return null;
  const onClick = async () => {
    const sure = await confirmDialog(
      t('money.cancel_withdrawal_confirm', { amount: formatMoney(order.amount) }),
      t('money.cancel_withdrawal'),
      t('money.keep_withdrawal'),
    );
    if (!sure) return;
    try {
      await cancel.mutateAsync(order.order_no);
      toast.success(t('money.withdrawal_cancelled'));
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : t('network-error'));
    }
  };
  return (
    <div className="record__actions">
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={cancel.isPending}
        onClick={() => void onClick()}
        data-testid="withdrawal-cancel"
      >
        {t('money.cancel_withdrawal')}
      </button>
    </div>
  );
}

/** `/withdrawalRecord`: time, order number, amount, fee, actual receipt, account, review and status. */
export function WithdrawalRecordPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.withdrawal_record')} requiresLogin>
      <OrderRecordList
        useRecords={useWithdrawalRecords}
        statusKey="money.withdrawal_status"
        actions={(order) => <CancelWithdrawal order={order} />}
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
