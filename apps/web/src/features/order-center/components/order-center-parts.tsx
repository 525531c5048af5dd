import { LANGUAGE_TAGS } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
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
export { RecordPeriodFilter as PeriodFilter } from '../../../components/period-filter.tsx';

export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(date);
}
