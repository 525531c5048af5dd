import type { TReconciliationResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { formatDateTime, formatMoney } from '../i18n.ts';
import './reports.css';

/** A drift's value: an amount in the operator's format, or a site id for CROSS_SITE. */
function driftValue(check: string, value: string | null): string {
  if (value === null) return '—';
  return check === 'CROSS_SITE' ? value : formatMoney(value);
}

/** The wallet's reconcile of this site: every invariant of the ledger, checked now. */
export default function ReconciliationPage() {
  const { t } = useTranslation();
  const report = useQuery({
    queryKey: ['reconciliation'],
    queryFn: async () => (await api<TReconciliationResponse>('/admin/reconciliation')).data,
  });
  const data = report.data;
  return (
    <div className="page">
      <header className="page__header player-head">
        <div>
          <h1>{t('reconciliation.title')}</h1>
          <p className="muted">{t('reconciliation.subtitle')}</p>
        </div>
        <button
          type="button"
          className="button"
          onClick={() => void report.refetch()}
          disabled={report.isFetching}
          data-testid="reconcile-run"
        >
          ↻ {t('reconciliation.run')}
        </button>
      </header>
      {report.isError && <p className="alert alert--error">{(report.error as Error).message}</p>}
      {data && (
        <>
          <p
            className={`alert alert--${data.ok ? 'ok' : 'error'}`}
            role="status"
            data-testid="reconcile-verdict"
          >
            {data.ok ? t('reconciliation.ok') : t('reconciliation.drift', { count: data.drift.length })} ·{' '}
            {t('reconciliation.checked', {
              at: formatDateTime(data.checked_at),
              accounts: data.accounts,
              transfers: data.transfers,
            })}
          </p>
          <div className="grid-2">
            <section className="card section">
              <h2>{t('reconciliation.players')}</h2>
              <dl className="facts">
                <dt>{t('players.cash')}</dt>
                <dd>{formatMoney(data.player_balances.cash)}</dd>
                <dt>{t('players.bonus')}</dt>
                <dd>{formatMoney(data.player_balances.bonus)}</dd>
                <dt>{t('players.hold')}</dt>
                <dd>{formatMoney(data.player_balances.withdrawal_hold)}</dd>
                <dt>{t('reconciliation.sum')}</dt>
                <dd>
                  <strong data-testid="reconcile-sum">{formatMoney(data.balance_sum)}</strong>
                </dd>
              </dl>
            </section>
            <section className="card section">
              <h2>{t('reconciliation.system')}</h2>
              <dl className="facts">
                {Object.entries(data.system_balances).map(([kind, amount]) => (
                  <div key={kind} style={{ display: 'contents' }}>
                    <dt>{t(`reconciliation.account.${kind}`)}</dt>
                    <dd>{formatMoney(amount)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          </div>
          {data.drift.length > 0 && (
            <section className="card data-table" style={{ marginTop: 16 }}>
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">{t('reconciliation.col.check')}</th>
                      <th scope="col">{t('reconciliation.col.account')}</th>
                      <th scope="col">{t('reconciliation.col.transfer')}</th>
                      <th scope="col">{t('reconciliation.col.expected')}</th>
                      <th scope="col">{t('reconciliation.col.actual')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.drift.map((drift) => (
                      <tr key={`${drift.check}-${drift.account_id}-${drift.transfer_id}`}>
                        <td data-label={t('reconciliation.col.check')}>
                          <code>{drift.check}</code>{' '}
                          <span className="muted">
                            {t(`reconciliation.checks.${drift.check}`, { defaultValue: drift.description })}
                          </span>
                        </td>
                        <td data-label={t('reconciliation.col.account')}>{drift.account_id ?? '—'}</td>
                        <td data-label={t('reconciliation.col.transfer')}>{drift.transfer_id ?? '—'}</td>
                        <td data-label={t('reconciliation.col.expected')}>
                          {driftValue(drift.check, drift.expected)}
                        </td>
                        <td data-label={t('reconciliation.col.actual')}>
                          {driftValue(drift.check, drift.actual)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          )}
        </>
      )}
    </div>
  );
}
