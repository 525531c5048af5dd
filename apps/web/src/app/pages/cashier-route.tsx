import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { GuestNotice } from '../../components/guest-notice.tsx';
import { Icon } from '../../components/icon.tsx';
import { useHasToken } from '../../lib/session.ts';
import { BareFrame } from './bare-frame.tsx';

/** /cztx: the cashier hub — deposit or withdraw, and their records. */
export default function CashierPage() {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  const links = [
    { to: '/recharge', key: 'nav.deposit' },
    { to: '/withdraw', key: 'pages.withdraw' },
    { to: '/rechargeRecord', key: 'pages.recharge_record' },
    { to: '/withdrawalRecord', key: 'pages.withdrawal_record' },
  ];
  return (
    <BareFrame title={t('pages.cashier')}>
      {hasToken ? (
        <nav className="card shortcut-list" aria-label={t('pages.cashier')}>
          {links.map((link) => (
            <Link key={link.to} to={link.to} className="shortcut-list__item">
              <Icon name={link.to.includes('Record') ? 'list' : 'wallet'} size={20} />
              <span>{t(link.key)}</span>
              <Icon name="chevron" size={18} className="shortcut-list__chevron" />
            </Link>
          ))}
        </nav>
      ) : (
        <GuestNotice />
      )}
    </BareFrame>
  );
}
