import type { TRechargeResponse } from '@sorte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { Icon } from '../../../components/icon.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { useSiteData } from '../../../lib/site.ts';
import { toast } from '../../../lib/toast.ts';
import { useBalancePush } from '../api/balance-socket.ts';
import { rechargeOrderKey, useRechargeOrder } from '../api/get-recharge-order.ts';
import '../recharge.css';
import { LoadFail } from '../../../components/load-fail.tsx';

/** Order numbers are short server-made strings; anything longer in the address is not one of ours. */
const ORDER_NO_MAX = 40;

export function RechargePaymentPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const raw = params.get('order_no');
  const orderNo = raw && raw.length <= ORDER_NO_MAX ? raw : null;
  return (
    <PageFrame title={t('pages.recharge_payment')} requiresLogin>
      {orderNo ? (
        <PaymentContent orderNo={orderNo} />
      ) : (
        <EmptyState message={t('empty.payment_order')} icon="wallet" />
      )}
    </PageFrame>
  );
}

function PaymentContent({ orderNo }: { orderNo: string }) {
  const queryClient = useQueryClient();
  const order = useRechargeOrder(orderNo);
  const status = order.data?.status;

  // Any push says the balance moved (the header already shows it); the order is read again to
  // learn whether this one was paid.
  useBalancePush(() => {
    void queryClient.invalidateQueries({ queryKey: rechargeOrderKey(orderNo) });
  });

  useEffect(() => {
    // Paid: the header balance follows even when no push arrived (polling fallback).
    if (status === 'paid') void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
  }, [status, queryClient]);

  if (order.isPending) return <Spinner />;
  if (order.isError) {
    return <LoadFail onRetry={() => void order.refetch()} />;
  }
  const data = order.data;
  if (data.status === 'paid') return <PaidPanel order={data} />;
  return <PendingPanel order={data} onCheck={() => order.refetch()} />;
}

function PaidPanel({ order }: { order: TRechargeResponse }) {
  const { t } = useTranslation();
  return (
    <section className="card payment payment--done" data-testid="recharge-paid" role="status">
      <span className="payment__done-icon" aria-hidden="true">
        <Icon name="check" size={34} />
      </span>
      <h2>{t('money.paid_title')}</h2>
      <p>{t('money.paid_text', { amount: formatMoney(order.amount) })}</p>
      <p className="payment__order">
        {t('money.order_no')}: <span>{order.order_no}</span>
      </p>
      <div className="payment__actions">
        {/* Paid, the player came to play: that is the main way on, another deposit the second. */}
        <Link to="/game" className="button button--primary" data-testid="recharge-play-now">
          {t('money.play_now')}
        </Link>
        <Link to="/recharge" className="button button--ghost">
          {t('money.new_deposit')}
        </Link>
        <Link to="/rechargeRecord" className="button button--ghost">
          {t('pages.recharge_record')}
        </Link>
      </div>
    </section>
  );
}

function useSecondsLeft(expiresAt: string): number {
  const deadline = Date.parse(expiresAt);
  const compute = () => Math.max(0, Math.floor((deadline - Date.now()) / 1000));
  const [left, setLeft] = useState(compute);
  useEffect(() => {
    const timer = setInterval(() => setLeft(Math.max(0, Math.floor((deadline - Date.now()) / 1000))), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return left;
}

function clock(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

/** How a PIX charge is paid from a bank's app, and who may pay it (the site's rule, from its data). */
function PaySteps() {
  const { t } = useTranslation();
  const { data: site } = useSiteData();
  return (
    <>
      <h3 className="card__title">{t('money.pay_steps.title')}</h3>
      <ol className="pay-steps" data-testid="pay-steps">
        <li>{t('money.pay_steps.open_bank')}</li>
        <li>{t('money.pay_steps.scan')}</li>
        <li>{t('money.pay_steps.confirm')}</li>
      </ol>
      {site?.registration.requires_cpf && (
        <p className="money__note" data-testid="own-cpf-note">
          {t('money.own_cpf_note')}
        </p>
      )}
    </>
  );
}

function PendingPanel({
  order,
  onCheck,
}: {
  order: TRechargeResponse;
  /** Reads the order again; resolves with what the server says now. */
  onCheck: () => Promise<{ data?: TRechargeResponse }>;
}) {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(false);
  const checkPaid = async () => {
    setChecking(true);
    try {
      const { data } = await onCheck();
      // Paid: the page turns to the paid panel by itself; otherwise say so in place of silence.
      if (data?.status === 'pending') toast.error(t('money.not_paid_yet'));
    } finally {
      setChecking(false);
    }
  };
  const left = useSecondsLeft(order.expires_at);
  const [qr, setQr] = useState<string | null>(null);
  const closed = order.status !== 'pending' || left === 0;

  useEffect(() => {
    let cancelled = false;
    // The QR is drawn here from the copy-and-paste payload: the code never leaves the browser.
    void import('qrcode')
      .then((module) =>
        module.toDataURL(order.pix_copy_paste, { errorCorrectionLevel: 'M', margin: 1, width: 240 }),
      )
      .then((url) => {
        if (!cancelled) setQr(url);
      })
      .catch(() => {
        if (!cancelled) setQr(null);
      });
    return () => {
      cancelled = true;
    };
  }, [order.pix_copy_paste]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(order.pix_copy_paste);
      toast.success(t('money.copied'));
    } catch {
      toast.error(t('money.copy_failed'));
    }
  };

  return (
    <section className="card payment" data-testid="recharge-pending">
      <div className="payment__amount">
        <strong data-testid="payment-amount">{formatMoney(order.amount)}</strong>
      </div>
      <p className="payment__order">
        {t('money.order_no')}: <span data-testid="payment-order-no">{order.order_no}</span>
      </p>
      {closed ? (
        <p className="payment__status payment__status--closed" role="alert">
          {t(`money.deposit_status.${order.status === 'pending' ? 'expired' : order.status}`)}
        </p>
      ) : (
        <>
          <p className="payment__status" aria-live="polite">
            {t('money.waiting')} ·{' '}
            <span data-testid="payment-countdown">{t('money.expires_in', { time: clock(left) })}</span>
          </p>
          <div className="payment__qr">
            {qr ? <img src={qr} alt={t('money.qr_alt')} width={240} height={240} /> : <Spinner />}
          </div>
          <PaySteps />
          <label className="field__label" htmlFor="pix-code">
            {t('money.copy_paste')}
          </label>
          <textarea id="pix-code" className="payment__code" readOnly rows={4} value={order.pix_copy_paste} />
          <div className="payment__actions">
            <button
              type="button"
              className="button button--primary"
              data-testid="pix-copy-code"
              onClick={() => void copy()}
            >
              {t('money.copy_code')}
            </button>
            <button
              type="button"
              className="button button--ghost"
              data-testid="pix-i-paid"
              disabled={checking}
              onClick={() => void checkPaid()}
            >
              {t('money.i_paid')}
            </button>
            {order.pay_url && (
              <a
                className="button button--ghost"
                href={order.pay_url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="open-payer-page"
              >
                {t('money.open_payer')}
              </a>
            )}
          </div>
        </>
      )}
    </section>
  );
}

export default RechargePaymentPage;
