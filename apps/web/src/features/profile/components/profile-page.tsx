import { LANGUAGE_TAGS } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type TIconName } from '../../../components/icon.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatMoney, levelLabel } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { endSession, useProfilePhoto, useUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';
import { PhotoPicker } from './photo-picker.tsx';

const SHORTCUTS: readonly { to: string; labelKey: string; icon: TIconName }[] = [
  { to: '/recharge', labelKey: 'nav.deposit', icon: 'wallet' },
  { to: '/withdraw', labelKey: 'pages.withdraw', icon: 'bank' },
  { to: '/rechargeRecord', labelKey: 'pages.recharge_record', icon: 'list' },
  { to: '/withdrawalRecord', labelKey: 'pages.withdrawal_record', icon: 'list' },
  { to: '/bank-card/add', labelKey: 'money.bank_cards', icon: 'bank' },
  { to: '/transactions', labelKey: 'money.transactions', icon: 'list' },
  { to: '/game-record', labelKey: 'lobby.record.title', icon: 'game' },
  { to: '/fairness', labelKey: 'lobby.fair.title', icon: 'shield' },
  { to: '/promotion/vip', labelKey: 'pages.promotion_vip', icon: 'crown' },
  { to: '/agency-center/invite', labelKey: 'pages.agency_invite', icon: 'share' },
  { to: '/order-center', labelKey: 'pages.order_center', icon: 'list' },
  { to: '/security-center', labelKey: 'pages.security_center', icon: 'shield' },
  // Limits, breaks and self-exclusion one tap from the player's own page, as the law expects.
  { to: '/responsible-gaming', labelKey: 'footer.responsible_gaming', icon: 'lock' },
  { to: '/notification', labelKey: 'pages.notification', icon: 'bell' },
  { to: '/information-center/support', labelKey: 'pages.support', icon: 'headset' },
];

export function ProfilePage() {
  const { t } = useTranslation();
  const { user, isPending } = useUser();
  const { data: photo } = useProfilePhoto(user);
  const [picking, setPicking] = useState(false);

  const copyInviteCode = async (code: string) => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t('profile.copied'));
    } catch {
      toast.error(t('profile.copy_failed'));
    }
  };

  return (
    <PageFrame title={t('pages.profile')} requiresLogin>
      {!user ? (
        isPending ? (
          <Spinner />
        ) : null
      ) : (
        <div className="profile">
          <section className="profile__card card">
            <button
              type="button"
              className="profile__avatar"
              onClick={() => setPicking(true)}
              aria-label={t('profile.change_photo')}
            >
              {photo ? (
                <img src={photo} alt="" width={76} height={76} />
              ) : (
                <span aria-hidden="true">{user.name.slice(0, 1).toUpperCase()}</span>
              )}
              <span className="profile__avatar-edit" aria-hidden="true">
                <Icon name="plus" size={14} />
              </span>
            </button>
            <div className="profile__identity">
              <h2 className="profile__name" data-testid="profile-username">
                {user.name}
              </h2>
              <p className="profile__vip">
                <Icon name="crown" size={16} />
                {t('profile.vip_level', { level: user.level })}
                {user.level_name ? ` · ${levelLabel(t, user.level_name)}` : ''}
              </p>
              <p className="profile__invite">
                {t('profile.invite_code')}: <strong>{user.invite_code}</strong>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => void copyInviteCode(user.invite_code)}
                  aria-label={t('profile.copy_invite_code')}
                >
                  {t('profile.copy')}
                </button>
              </p>
            </div>
          </section>

          <section className="profile__balances" aria-label={t('profile.balances')}>
            <div className="stat stat--main">
              <span className="stat__label">{t('profile.balance')}</span>
              <span className="stat__value">{formatMoney(user.money)}</span>
            </div>
            <div className="stat">
              <span className="stat__label">{t('profile.bonus_balance')}</span>
              <span className="stat__value">{formatMoney(user.fs_money)}</span>
            </div>
            <div className="stat">
              <span className="stat__label">{t('profile.wagering_required')}</span>
              <span className="stat__value">{formatMoney(user.ml_money)}</span>
            </div>
            <div className="stat">
              <span className="stat__label">{t('profile.total_balance')}</span>
              <span className="stat__value">{formatMoney(user.total_money)}</span>
            </div>
          </section>

          <div className="profile__actions">
            <Link to="/recharge" className="button button--primary">
              {t('nav.deposit')}
            </Link>
            <Link to="/withdraw" className="button button--ghost">
              {t('pages.withdraw')}
            </Link>
          </div>

          <section className="card">
            <h3 className="card__title">{t('profile.details')}</h3>
            <dl className="details">
              <div>
                <dt>{t('auth.realname')}</dt>
                <dd>{user.realname}</dd>
              </div>
              <div>
                <dt>{t('auth.phone')}</dt>
                <dd>{user.phone}</dd>
              </div>
              <div>
                <dt>{t('profile.email')}</dt>
                <dd>{user.email ?? t('profile.not_set')}</dd>
              </div>
              <div>
                <dt>{t('auth.qk_pwd')}</dt>
                <dd>{user.has_qk_pwd ? t('profile.set') : t('profile.not_set')}</dd>
              </div>
              <div>
                <dt>{t('profile.member_since')}</dt>
                <dd>
                  {new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], { dateStyle: 'medium' }).format(
                    new Date(user.created_at),
                  )}
                </dd>
              </div>
            </dl>
          </section>

          <nav className="card shortcut-list" aria-label={t('profile.shortcuts')}>
            {SHORTCUTS.map((item) => (
              <Link key={item.to} to={item.to} className="shortcut-list__item">
                <Icon name={item.icon} size={20} />
                <span>{t(item.labelKey)}</span>
                <Icon name="chevron" size={18} className="shortcut-list__chevron" />
              </Link>
            ))}
          </nav>

          <button
            type="button"
            className="button button--ghost button--block"
            onClick={() => void endSession()}
          >
            <Icon name="logout" size={18} />
            {t('auth.log_out')}
          </button>

          {picking && <PhotoPicker current={photo ?? null} onClose={() => setPicking(false)} />}
        </div>
      )}
    </PageFrame>
  );
}
