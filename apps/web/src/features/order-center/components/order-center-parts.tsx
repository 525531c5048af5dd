import { LANGUAGE_TAGS, RECORD_PERIODS, type TRecordPeriod } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { PeriodFilter as SharedPeriodFilter } from '../../../components/period-filter.tsx';
import { currentLanguage } from '../../../lib/i18n.ts';

const SECTIONS = [
  { to: '/order-center', labelKey: 'money.order_details' },
  { to: '/order-center/fee', labelKey: 'pages.order_fee' },
  { to: '/order-center/association', labelKey: 'pages.order_association' },
] as const;

/** The three order-center pages, one tab each. */
export function OrderCenterTabs() {
  const { t } = useTranslation();
  return (
    <nav className="tabs order-center__tabs" aria-label={t('pages.order_center')}>
      {SECTIONS.map((section) => (
        <NavLink
          key={section.to}
          to={section.to}
          end
          replace
          className={({ isActive }) => `tabs__tab order-center__tab${isActive ? ' is-active' : ''}`}
        >
          {t(section.labelKey)}
        </NavLink>
      ))}
    </nav>
  );
}

/** All / today / last 3 days / last 7 days: the one period control of the record screens. */
export function PeriodFilter({
  value,
  onChange,
}: {
  value: TRecordPeriod;
  onChange: (period: TRecordPeriod) => void;
}) {
  const { t } = useTranslation();
  return (
    <SharedPeriodFilter
      value={value}
      options={RECORD_PERIODS.map((period) => ({ value: period, label: t(`money.period.${period}`) }))}
      onChange={onChange}
      label={t('money.period_label')}
      testIdPrefix="period"
    />
  );
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(date);
}
