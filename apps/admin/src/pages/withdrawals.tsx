import { useInvalidate } from '@refinedev/core';
import type { TAdminWithdrawalReview, TAdminWithdrawalRow, TWithdrawalRisk } from '@sorte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../api.ts';
import { DataTable } from '../components/data-table.tsx';
import { DecisionActions } from '../components/decision-actions.tsx';
import { formatDateTime, formatMoney } from '../i18n.ts';
import { can } from '../providers.ts';

const STATUSES = ['pending_review', 'paying', 'paid', 'rejected', 'failed', 'cancelled'] as const;

function RiskBadges({ risks }: { risks: TWithdrawalRisk[] }) {
  const { t } = useTranslation();
  if (risks.length === 0) return <span className="badge badge--ok">{t('withdrawals.risk.none')}</span>;
  return (
    <span className="badges">
      {risks.map((risk) => (
        <span key={risk} className="badge badge--warn" title={t(`withdrawals.risk_hint.${risk}`)}>
          {t(`withdrawals.risk.${risk}`)}
        </span>
      ))}
    </span>
  );
}

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = status === 'paid' ? 'ok' : status === 'rejected' || status === 'failed' ? 'bad' : 'info';
  return <span className={`badge badge--${tone}`}>{t(`withdrawals.status.${status}`)}</span>;
}

/** Review of one order: the player's history, risk signals, approvals, and approve / reject with a reason. */
function ReviewPanel({ orderNo, onClose }: { orderNo: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const invalidate = useInvalidate();
  const [remark, setRemark] = useState('');
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const panel = useRef<HTMLElement>(null);
  // On a phone the panel opens below the list: bring it into view.
  useEffect(() => {
    if (window.matchMedia('(max-width: 900px)').matches) panel.current?.scrollIntoView({ block: 'start' });
  }, []);
  const review = useQuery({
    queryKey: ['withdrawal-review', orderNo],
    queryFn: async () => (await api<TAdminWithdrawalReview>(`/admin/withdrawals/${orderNo}/review`)).data,
  });
  const decide = useMutation({
    mutationFn: async (action: 'approve' | 'reject') =>
      api(`/admin/withdrawals/${orderNo}/${action}`, { body: { remark } }),
    onSuccess: async ({ message }) => {
      setNotice({ tone: 'ok', text: message });
      setRemark('');
      await queryClient.invalidateQueries({ queryKey: ['withdrawal-review', orderNo] });
      await invalidate({ resource: 'withdrawals', invalidates: ['list'] });
    },
    onError: (error) =>
      setNotice({ tone: 'error', text: error instanceof ApiError ? error.message : String(error) }),
  });

  const data = review.data;
  const order = data?.order;
  const submit = (action: 'approve' | 'reject') => (event?: FormEvent) => {
    event?.preventDefault();
    setNotice(null);
    if (!remark.trim()) {
      setNotice({ tone: 'error', text: t('withdrawals.reason_required') });
      return;
    }
    decide.mutate(action);
  };

  return (
    <aside
      ref={panel}
      className="card panel"
      aria-label={t('withdrawals.review_title')}
      data-testid="review-panel"
    >
      <header className="panel__header">
        <div>
          <h2>{t('withdrawals.review_title')}</h2>
          <code className="muted">{orderNo}</code>
        </div>
        <button
          type="button"
          className="button button--ghost"
          onClick={onClose}
          aria-label={t('common.close')}
        >
          ✕
        </button>
      </header>
      {review.isError && <p className="alert alert--error">{(review.error as Error).message}</p>}
      {!data && review.isLoading && <p className="muted">{t('common.loading')}</p>}
      {data && order && (
        <>
          <div className="panel__amount">
            <strong data-testid="review-amount">{formatMoney(order.amount)}</strong>
            <StatusBadge status={order.status} />
          </div>
          <dl className="facts">
            <dt>{t('withdrawals.player')}</dt>
            <dd>{data.player.username}</dd>
            <dt>{t('withdrawals.joined')}</dt>
            <dd>{formatDateTime(data.player.created_at)}</dd>
            <dt>{t('withdrawals.payee')}</dt>
            <dd>
              {order.payee_name} · {order.pix_key_type} {order.pix_key}
            </dd>
            <dt>{t('withdrawals.fee')}</dt>
            <dd>
              {formatMoney(order.fee)} → {formatMoney(order.actual)}
            </dd>
            <dt>{t('withdrawals.balance')}</dt>
            <dd>{formatMoney(data.player.balance)}</dd>
            <dt>{t('withdrawals.deposits')}</dt>
            <dd>
              {data.player.deposits.count} · {formatMoney(data.player.deposits.total)}
            </dd>
            <dt>{t('withdrawals.paid_out')}</dt>
            <dd>
              {data.player.withdrawals_paid.count} · {formatMoney(data.player.withdrawals_paid.total)}
            </dd>
            <dt>{t('withdrawals.bonuses')}</dt>
            <dd>
              {data.player.bonuses.count} · {formatMoney(data.player.bonuses.total)}
            </dd>
            <dt>{t('withdrawals.wagering')}</dt>
            <dd>{formatMoney(data.player.wagering_required)}</dd>
            <dt>{t('withdrawals.cards')}</dt>
            <dd>{data.player.cards}</dd>
          </dl>
          <h3>{t('withdrawals.risks')}</h3>
          <RiskBadges risks={order.risks} />
          {data.player.other_accounts_same_cpf.length > 0 && (
            <p className="muted">
              {t('withdrawals.same_cpf_accounts', {
                accounts: data.player.other_accounts_same_cpf.join(', '),
              })}
            </p>
          )}
          <h3>{t('withdrawals.history')}</h3>
          {data.history.length === 0 ? (
            <p className="muted">{t('withdrawals.no_history')}</p>
          ) : (
            <ul className="history">
              {data.history.map((item) => (
                <li key={item.order_no}>
                  <span>{formatDateTime(item.created_at)}</span>
                  <span>{formatMoney(item.amount)}</span>
                  <StatusBadge status={item.status} />
                </li>
              ))}
            </ul>
          )}
          <h3>{t('withdrawals.approvals')}</h3>
          <p className="muted">
            {order.approvals_needed > 1
              ? t('withdrawals.two_person', { amount: formatMoney(data.second_approval_from) })
              : t('withdrawals.one_person')}
          </p>
          {data.approvals_log.length > 0 && (
            <ul className="history">
              {data.approvals_log.map((approval) => (
                <li key={`${approval.operator}-${approval.at}`}>
                  <span>{approval.operator}</span>
                  <span>{formatDateTime(approval.at)}</span>
                  <span className="muted">{approval.remark}</span>
                </li>
              ))}
            </ul>
          )}
          {order.status === 'pending_review' && can('withdrawals.review') && (
            <form className="decision" onSubmit={submit('approve')}>
              <label className="field">
                <span className="field__label">{t('withdrawals.reason')}</span>
                <textarea
                  value={remark}
                  onChange={(event) => {
                    setRemark(event.target.value);
                    if (notice?.tone === 'error') setNotice(null);
                  }}
                  maxLength={200}
                  rows={2}
                  aria-required="true"
                  placeholder={t('withdrawals.reason_placeholder')}
                  data-testid="review-reason"
                />
              </label>
              <DecisionActions
                approve={t('withdrawals.approve')}
                reject={t('withdrawals.reject')}
                pending={decide.isPending}
                onReject={() => submit('reject')()}
                testIdPrefix="review"
              />
            </form>
          )}
          {order.remark && (
            <p className="muted">
              {t('withdrawals.remark')}: {order.remark}
            </p>
          )}
        </>
      )}
      {notice && (
        <p
          className={`alert alert--${notice.tone === 'ok' ? 'ok' : 'error'}`}
          role="status"
          data-testid="review-notice"
        >
          {notice.text}
        </p>
      )}
    </aside>
  );
}

/** The withdrawal queue: pending requests first, with risk signals; click one to review it. */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('withdrawals.title')}</h1>
        <p className="muted">{t('withdrawals.subtitle')}</p>
      </header>
      <div className={`split${selected ? ' split--open' : ''}`}>
        <DataTable<TAdminWithdrawalRow>
          resource="withdrawals"
          path="/admin/withdrawals/queue"
          csvName="withdrawals"
          rowKey={(row) => row.order_no}
          selectedKey={selected}
          onRowClick={(row) => setSelected(row.order_no)}
          filters={[
            {
              field: 'status',
              label: t('withdrawals.filter.status'),
              type: 'select',
              initial: 'pending_review',
              options: STATUSES.map((status) => ({
                value: status,
                label: t(`withdrawals.status.${status}`),
              })),
            },
            { field: 'username', label: t('withdrawals.filter.player'), type: 'text' },
            { field: 'order_no', label: t('withdrawals.filter.order'), type: 'text' },
          ]}
          columns={[
            {
              key: 'created_at',
              header: t('withdrawals.col.requested'),
              render: (row) => formatDateTime(row.created_at),
            },
            { key: 'username', header: t('withdrawals.col.player') },
            {
              key: 'amount',
              header: t('withdrawals.col.amount'),
              align: 'right',
              render: (row) => <strong>{formatMoney(row.amount)}</strong>,
            },
            {
              key: 'risks',
              header: t('withdrawals.col.risks'),
              render: (row) => <RiskBadges risks={row.risks} />,
            },
            {
              key: 'approvals',
              header: t('withdrawals.col.approvals'),
              align: 'center',
              render: (row) => `${row.approvals}/${row.approvals_needed}`,
            },
            {
              key: 'status',
              header: t('withdrawals.col.status'),
              render: (row) => <StatusBadge status={row.status} />,
            },
          ]}
        />
        {selected && <ReviewPanel key={selected} orderNo={selected} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
