import { LANGUAGE_TAGS } from '@sorte/contract';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n.ts';
import { useHasToken } from '../../lib/session.ts';
import { useSiteData } from '../../lib/site.ts';
import { BareFrame } from './bare-frame.tsx';

const subscribeOnline = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/** /test and /test12: a support page showing what this browser sees, to help when a player reports trouble. */
export default function DiagnosticsPage() {
  const { t } = useTranslation();
  const { data: site } = useSiteData();
  const hasToken = useHasToken();
  const online = useSyncExternalStore(subscribeOnline, () => navigator.onLine);
  const language = currentLanguage();
  const rows: [string, string][] = [
    [t('diagnostics.site'), site ? `${site.name} (${site.site})` : '—'],
    [t('diagnostics.language'), `${language} · ${LANGUAGE_TAGS[language]}`],
    [t('diagnostics.connection'), online ? t('diagnostics.online') : t('diagnostics.offline')],
    [t('diagnostics.session'), hasToken ? t('diagnostics.logged_in') : t('diagnostics.guest')],
    [
      t('diagnostics.service_worker'),
      'serviceWorker' in navigator && navigator.serviceWorker.controller
        ? t('diagnostics.active')
        : t('diagnostics.inactive'),
    ],
    [t('diagnostics.screen'), `${window.innerWidth} × ${window.innerHeight}`],
  ];
  return (
    <BareFrame title={t('diagnostics.title')}>
      <dl className="card details">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </BareFrame>
  );
}
