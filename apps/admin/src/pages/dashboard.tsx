import type { TDashboardPreset, TDashboardResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, downloadCsv } from '../api.ts';
import { DailyChart, type TChartSeries } from '../components/daily-chart.tsx';
import { formatMoney, intlLocale } from '../i18n.ts';
import './reports.css';

type TPeriod = { preset: TDashboardPreset } | { from: string; to: string };

const PRESETS: TDashboardPreset[] = ['today', '7d', '30d'];
const MONEY_KPIS = [
  'deposits',
  'withdrawals',
  'bets',
  'wins',
  'ggr',
  'bonus_cost',
  'ngr',
  'corrections',
] as const;
const COUNT_KPIS = ['active_players', 'new_players', 'depositors'] as const;

/** A YYYY-MM-DD day of the site's calendar, written the operator's way (25/11/2026 in pt). */
function formatDay(day: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

function formatCount(value: number): string {
  return new Intl.NumberFormat(intlLocale()).format(value);
}

function Kpi(props: { label: string; value: string; hint?: string; negative?: boolean; testId: string }) {
  return (
    <div className="card kpi" data-testid={props.testId}>
      <span className="kpi__label">{props.label}</span>
      <span className={`kpi__value${props.negative ? ' kpi__value--negative' : ''}`}>{props.value}</span>
      {props.hint && <span className="kpi__hint">{props.hint}</span>}
    </div>
  );
}

/** Money and players of the site over a period, from the ledger, with daily charts. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const [period, setPeriod] = useState<TPeriod>({ preset: '7d' });
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [exportError, setExportError] = useState<string | null>(null);
  const query = 'preset' in period ? { preset: period.preset } : { from: period.from, to: period.to };
  const dashboard = useQuery({
    queryKey: ['dashboard', query, i18n.language],
    queryFn: async () => (await api<TDashboardResponse>('/admin/dashboard', { query })).data,
  });
  const data = dashboard.data;

  const applyRange = (event: FormEvent) => {
    event.preventDefault();
    if (from && to) setPeriod({ from, to });
  };
  const exportCsv = async () => {
    setExportError(null);
    try {
      await downloadCsv('/admin/dashboard', query, 'dashboard');
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    }
  };

  const days = useMemo(() => data?.daily.map((day) => day.date) ?? [], [data]);
  const money = useMemo(() => (value: number) => formatMoney(value), []);
  const count = useMemo(() => (value: number) => formatCount(value), []);
  const charts = useMemo(() => {
    if (!data) return null;
    const line = (key: keyof TDashboardResponse['daily'][number], color: string): TChartSeries => ({
      label: t(`dashboard.kpi.${key}`),
      values: data.daily.map((day) => Number(day[key])),
      color,
    });
    return {
      cash: [line('deposits', '#0f766e'), line('withdrawals', '#b42318')],
      play: [
        line('bets', '#1d4ed8'),
        line('wins', '#93510a'),
        line('ggr', '#137333'),
        line('bonus_cost', '#7c3aed'),
      ],
      players: [
        line('active_players', '#0f766e'),
        line('new_players', '#1d4ed8'),
        line('depositors', '#93510a'),
      ],
    };
  }, [data, t]);

  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('dashboard.title')}</h1>
        <p className="muted">
          {data
            ? t('dashboard.subtitle', {
                site: data.site,
                zone: data.time_zone,
                from: formatDay(data.from),
                to: formatDay(data.to),
              })
            : t('common.loading')}
        </p>
      </header>
      <form className="card period" onSubmit={applyRange} aria-label={t('dashboard.period')}>
        <div className="period__presets">
          {PRESETS.map((preset) => (
            <button
              key={preset}
              type="button"
              className="button"
              aria-pressed={'preset' in period && period.preset === preset}
              onClick={() => setPeriod({ preset })}
              data-testid={`preset-${preset}`}
            >
              {t(`dashboard.preset.${preset}`)}
            </button>
          ))}
        </div>
        <label className="field field--inline">
          <span className="field__label">{t('dashboard.from')}</span>
          <input
            type="date"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
            data-testid="period-from"
          />
        </label>
        <label className="field field--inline">
          <span className="field__label">{t('dashboard.to')}</span>
          <input
            type="date"
            value={to}
            onChange={(event) => setTo(event.target.value)}
            data-testid="period-to"
          />
        </label>
        <button type="submit" className="button" disabled={!from || !to}>
          {t('table.apply')}
        </button>
        <span className="period__spacer" />
        <button
          type="button"
          className="button button--ghost"
          onClick={() => void exportCsv()}
          data-testid="export-csv"
        >
          ↓ {t('table.export_csv')}
        </button>
      </form>
      {exportError && <p className="alert alert--error">{exportError}</p>}
      {dashboard.isError && (
        <p className="alert alert--error" role="alert">
          {(dashboard.error as Error).message}
        </p>
      )}
      {data && (
        <>
          <section className="kpis" aria-label={t('dashboard.totals')}>
            {MONEY_KPIS.map((key) => {
              const hint =
                key === 'deposits'
                  ? t('dashboard.count', { count: data.totals.deposits_count })
                  : key === 'withdrawals'
                    ? t('dashboard.count', { count: data.totals.withdrawals_count })
                    : key === 'bets'
                      ? t('dashboard.bets_hint', {
                          count: data.totals.bets_count,
                          bonus: formatMoney(data.totals.bets_bonus),
                        })
                      : undefined;
              return (
                <Kpi
                  key={key}
                  testId={`kpi-${key}`}
                  label={t(`dashboard.kpi.${key}`)}
                  value={formatMoney(data.totals[key])}
                  negative={data.totals[key].startsWith('-')}
                  {...(hint ? { hint } : {})}
                />
              );
            })}
            {COUNT_KPIS.map((key) => (
              <Kpi
                key={key}
                testId={`kpi-${key}`}
                label={t(`dashboard.kpi.${key}`)}
                value={formatCount(data.totals[key])}
              />
            ))}
          </section>
          {charts && (
            <section className="charts">
              <DailyChart
                title={t('dashboard.chart.cash')}
                days={days}
                series={charts.cash}
                format={money}
                dayLabel={t('dashboard.day')}
                testId="chart-cash"
              />
              <DailyChart
                title={t('dashboard.chart.play')}
                days={days}
                series={charts.play}
                format={money}
                dayLabel={t('dashboard.day')}
                testId="chart-play"
              />
              <DailyChart
                title={t('dashboard.chart.players')}
                days={days}
                series={charts.players}
                format={count}
                dayLabel={t('dashboard.day')}
                integer
                testId="chart-players"
              />
            </section>
          )}
          <p className="muted">{t('dashboard.definitions')}</p>
        </>
      )}
    </div>
  );
}
