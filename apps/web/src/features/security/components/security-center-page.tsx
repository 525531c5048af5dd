import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import '../../../lib/validation-messages.ts';
import { useEndSession, useSecurityEvents, useSecurityOverview, useSessions } from '../api/security-api.ts';
import '../security.css';
import { KycCard } from './kyc-card.tsx';
import { TwoFactorCard } from './two-factor-card.tsx';

/** /security-center: passwords, email, identity verification, two-factor, last login, sessions and the security log. */
export default function SecurityCenterPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('pages.security_center')} requiresLogin>
      <Overview />
      <KycCard />
      <TwoFactorCard />
      <Sessions />
      <Events />
    </PageFrame>
  );
}

function Overview() {
  const { t } = useTranslation();
  const overview = useSecurityOverview();
  if (overview.isPending) return <Spinner />;
  if (overview.isError) return <LoadFail onRetry={() => void overview.refetch()} />;
  const o = overview.data;
  const rows: { label: string; value: string; to?: string; action?: string; testId: string }[] = [
    {
      label: t('security.login_password'),
      value: o.password_changed_at
        ? t('security.changed_on', { at: formatDateTime(o.password_changed_at) })
        : t('security.is_set'),
      to: '/change-password',
      action: t('security.change'),
      testId: 'security-change-password',
    },
    {
      label: t('security.withdraw_password'),
      value: o.has_qk_pwd ? t('security.is_set') : t('security.not_set'),
      to: '/verify-password',
      action: o.has_qk_pwd ? t('security.change') : t('security.set'),
      testId: 'security-withdraw-password',
    },
    {
      label: t('security.email'),
      value: o.email && o.email_verified ? o.email : t('security.not_set'),
      to: '/bind-email',
      action: o.email_verified ? t('security.change') : t('security.bind'),
      testId: 'security-bind-email',
    },
    {
      label: t('security.two_factor'),
      value: o.totp_enabled ? t('security.on') : t('security.off'),
      testId: 'security-two-factor',
    },
    {
      label: t('security.responsible_gaming'),
      value: t('security.responsible_gaming_hint'),
      to: '/responsible-gaming',
      action: t('security.open'),
      testId: 'security-responsible-gaming',
    },
  ];
  return (
    <section className="security-card" aria-label={t('pages.security_center')}>
      <p className="security-login" data-testid="security-last-login">
        {o.last_login
          ? t('security.last_login', { at: formatDateTime(o.last_login.at), ip: o.last_login.ip ?? '—' })
          : t('security.first_login')}
      </p>
      <ul className="security-list">
        {rows.map((row) => (
          <li key={row.testId} className="security-row">
            <div>
              <strong>{row.label}</strong>
              <span className="security-row__value">{row.value}</span>
            </div>
            {row.to && (
              <Link className="button button--secondary" to={row.to} data-testid={row.testId}>
                {row.action}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Sessions() {
  const { t } = useTranslation();
  const sessions = useSessions();
  const end = useEndSession();
  if (!sessions.data) return null;
  return (
    <section className="security-card" aria-labelledby="security-sessions">
      <h2 id="security-sessions">{t('security.sessions')}</h2>
      <ul className="security-list">
        {sessions.data.list.map((session) => (
          <li key={session.id} className="security-row" data-testid="security-session">
            <div>
              <strong>{deviceName(session.user_agent)}</strong>
              <span className="security-row__value">
                {session.ip ?? '—'} · {formatDateTime(session.last_seen_at)}
              </span>
            </div>
            {session.current ? (
              <span className="security-badge">{t('security.this_device')}</span>
            ) : (
              <button
                type="button"
                className="button button--secondary"
                disabled={end.isPending}
                onClick={() =>
                  end.mutate(session.id, { onSuccess: () => toast.success(t('messages.session_ended')) })
                }
              >
                {t('security.end_session')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Events() {
  const { t } = useTranslation();
  const events = useSecurityEvents();
  if (!events.data) return null;
  return (
    <section className="security-card" aria-labelledby="security-events">
      <h2 id="security-events">{t('security.events')}</h2>
      <ul className="security-list security-list--compact">
        {events.data.list.map((event) => (
          <li key={event.id} className="security-row">
            <div>
              <strong>{t(`event.${event.kind}`)}</strong>
              <span className="security-row__value">
                {formatDateTime(event.created_at)} · {event.ip ?? '—'}
              </span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A short device name from the browser's user agent ("Chrome · Android"). */
function deviceName(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Chrome\//.test(userAgent)
      ? 'Chrome'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : userAgent.slice(0, 24);
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} · ${system}` : browser;
}
