import type { TGrant, TPromotionCall, TPromotionCheck } from '@sorte/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon, type TIconName } from '../../../components/icon.tsx';
import { QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime, formatMoney, formatPercent } from '../../../lib/format.ts';
import { useHasToken } from '../../../lib/session.ts';
import {
  toast,
  useActivityDetails,
  useCampaignCheck,
  useClaim,
  useCoverHistory,
  useRebateDetails,
  useRebates,
  useVipInfo,
} from '../api/promotions.ts';
import '../promotions.css';
import { VipBadge } from './vip-badge.tsx';

/** Where each campaign's page is (spec §2 routes), its title and icon. */
export const CAMPAIGN_PAGES: Record<string, { path: string; titleKey: string; icon: TIconName } | undefined> =
  {
    ftd: { path: '/promotion/activity/recharge', titleKey: 'pages.activity_recharge', icon: 'gift' },
    recharge_gift: { path: '/promotion/activity/recharge', titleKey: 'promo.recharge_gift', icon: 'gift' },
    invitationactivity: {
      path: '/promotion/activity/invitation-activity',
      titleKey: 'pages.activity_invitation',
      icon: 'users',
    },
    lotterywheel: {
      path: '/promotion/activity/lottery-wheel',
      titleKey: 'pages.activity_lottery_wheel',
      icon: 'trophy',
    },
    dailyrescue: {
      path: '/promotion/activity/daily-loss-relief-fund',
      titleKey: 'pages.activity_relief_fund',
      icon: 'shield',
    },
    rechargerebate: {
      path: '/promotion/activity/recharge-rebate',
      titleKey: 'pages.activity_recharge_rebate',
      icon: 'refresh',
    },
    dailywheel: {
      path: '/promotion/activity/daily-cashback',
      titleKey: 'promo.daily_cashback',
      icon: 'wallet',
    },
    rebates: { path: '/promotion/rebates', titleKey: 'pages.promotion_rebates', icon: 'refresh' },
  };

/** A bar from 0 to 100 %, with its label. */
export function ProgressBar({ done, total, label }: { done: string; total: string; label: string }) {
  const d = Number(done);
  const t = Number(total);
  const pct = t > 0 ? Math.min(100, Math.max(0, (d / t) * 100)) : 100;
  return (
    <div className="promo-progress" data-testid="wagering-bar">
      <div
        className="promo-progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
      >
        <div className="promo-progress__fill" style={{ width: `${pct}%` }} />
      </div>
      <span className="promo-progress__label">{label}</span>
    </div>
  );
}

/** Time left to `iso`, ticking every second. */
function Countdown({ to }: { to: string }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, new Date(to).getTime() - now);
  const h = Math.floor(left / 3_600_000);
  const m = Math.floor((left % 3_600_000) / 60_000);
  const s = Math.floor((left % 60_000) / 1000);
  const text = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return (
    <p className="promo-countdown" data-testid="countdown">
      {t('promo.next_in')} <strong>{text}</strong>
    </p>
  );
}

/** Bonus money apart from cash, with what is left to wager (every page of the section shows it). */
export function BonusPanel() {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  const history = useCoverHistory('active');
  if (!hasToken || !history.data) return null;
  const active = history.data.active;
  return (
    <section className="promo-bonus" data-testid="bonus-panel">
      <div className="promo-bonus__row">
        <span>{t('promo.bonus_balance')}</span>
        <strong data-testid="bonus-balance">{formatMoney(active.balance)}</strong>
      </div>
      {Number(active.wagering_required) > 0 ? (
        <>
          <ProgressBar
            done={active.wagering_done}
            total={active.wagering_required}
            label={t('promo.wagered_of', {
              done: formatMoney(active.wagering_done),
              total: formatMoney(active.wagering_required),
            })}
          />
          <p className="promo-note" data-testid="wagering-left">
            {t('promo.left_to_wager', { amount: formatMoney(active.wagering_left) })}
          </p>
        </>
      ) : (
        <p className="promo-note">{t('promo.no_active_bonus')}</p>
      )}
    </section>
  );
}

/** `/promotion/activity`: every campaign of the site, with why the off ones are off. */
export function ActivityPage() {
  const { t } = useTranslation();
  const details = useActivityDetails();
  const all = (details.data?.list ?? []).filter((c) => CAMPAIGN_PAGES[c.code] && c.code !== 'recharge_gift');
  // Only what the site offers is a card; what its rules forbid is one short line at the bottom.
  const list = all.filter((c) => c.enabled);
  const off = all.filter((c) => !c.enabled);
  const offReasons = [
    ...new Set(off.map((c) => c.off_reason).filter((reason): reason is string => !!reason)),
  ];
  return (
    <PageFrame title={t('pages.promotion_activity')}>
      <BonusPanel />
      <nav className="promo-tabs">
        <Link to="/promotion/vip">{t('pages.promotion_vip')}</Link>
        <Link to="/promotion/rebates">{t('pages.promotion_rebates')}</Link>
        <Link to="/promotion/history">{t('pages.promotion_history')}</Link>
      </nav>
      <QueryStates
        isPending={details.isPending}
        isError={details.isError}
        isEmpty={list.length === 0}
        onRetry={() => void details.refetch()}
      />
      <ul className="promo-cards">
        {list.map((campaign) => {
          const page = CAMPAIGN_PAGES[campaign.code]!;
          return (
            <li key={campaign.code} className="promo-card" data-testid={`campaign-${campaign.code}`}>
              <Link to={page.path} className="promo-card__link">
                <Icon name={page.icon} size={28} />
                <div>
                  <strong>{t(page.titleKey)}</strong>
                  <p>
                    {t(`promo.summary.${campaign.code}`, {
                      ratio: formatPercent(campaign.rules.ratio ?? '0'),
                    })}
                  </p>
                </div>
              </Link>
            </li>
          );
        })}
      </ul>
      {off.length > 0 && (
        // One short line; the rules behind it (the law each one cites) open on a tap.
        <details className="promo-not-offered" data-testid="campaigns-not-offered">
          <summary>
            {t('promo.not_offered', {
              names: off.map((c) => t(CAMPAIGN_PAGES[c.code]!.titleKey)).join(', '),
            })}
          </summary>
          <ul>
            {offReasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </details>
      )}
    </PageFrame>
  );
}

/**
 * The campaigns whose list failure the spec words itself (§8: 'Error in ftd list: {message}',
 * 'Error in invitationactivity list: {message}'); every other campaign shows the server's message
 * alone, as other failures do — never another campaign's wording.
 */
const LIST_ERROR_KEYS: Partial<Record<TPromotionCall, string>> = {
  ftd: 'promo.list_error.ftd',
  invitationactivity: 'promo.list_error.invitation',
};

function listError(
  error: unknown,
  call: TPromotionCall,
  t: (key: string, options?: { message: string }) => string,
) {
  const message = error instanceof Error ? error.message : t('promo.load_fail');
  const key = LIST_ERROR_KEYS[call];
  return key ? t(key, { message }) : message;
}

function claimError(error: unknown, call: TPromotionCall, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    if (call === 'invitationactivity' && error.status === 409 && error.code === 'USER_DOES_NOT_EXIST') {
      return t('promo.user_does_not_exist');
    }
    return error.message;
  }
  return t('promo.load_fail');
}

function Rules({ check }: { check: TPromotionCheck }) {
  const { t } = useTranslation();
  const r = check.rules;
  return (
    <ul className="promo-rules">
      {r.min_amount && <li>{t('promo.rule_min', { amount: formatMoney(r.min_amount) })}</li>}
      {r.cap && <li>{t('promo.rule_cap', { amount: formatMoney(r.cap) })}</li>}
      <li>
        {t(r.wagering_base === 'deposit' ? 'promo.rule_wagering_deposit' : 'promo.rule_wagering_reward', {
          count: r.wagering_multiple,
        })}
      </li>
      {r.max_bet && <li>{t('promo.rule_max_bet', { amount: formatMoney(r.max_bet) })}</li>}
      <li>{t('promo.rule_expiry', { count: r.expiry_days })}</li>
    </ul>
  );
}

/** A prize as short as a slice needs: whole reais without the cents (R$ 500, R$ 2,50). */
export function wheelLabel(reward: string): string {
  const text = formatMoney(reward);
  return /\.00$/.test(reward) ? text.replace(/[.,]00(?=\D*$)/, '') : text;
}

/** A lottery wheel of the prizes; spins to `target` when it changes. */
function Wheel({
  prizes,
  target,
  spinning,
}: {
  prizes: { reward: string; index: number }[];
  target: number | null;
  spinning: boolean;
}) {
  const n = Math.max(prizes.length, 1);
  const slice = 360 / n;
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    if (target === null) return;
    setTurn((previous) => previous - (previous % 360) + 360 * 5 + (360 - (target * slice + slice / 2)));
  }, [target, slice]);
  const colors = [
    'var(--color-accent)',
    'var(--color-surface-2)',
    'var(--color-gold)',
    'var(--color-surface)',
  ];
  return (
    <div className="promo-wheel" data-testid="lottery-wheel">
      <div className="promo-wheel__pointer" />
      <svg
        viewBox="-100 -100 200 200"
        className={`promo-wheel__disc${spinning ? ' promo-wheel__disc--spinning' : ''}`}
        style={{ transform: `rotate(${turn}deg)` }}
        aria-hidden="true"
      >
        {prizes.map((prize, index) => {
          const a0 = ((index * slice - 90) * Math.PI) / 180;
          const a1 = (((index + 1) * slice - 90) * Math.PI) / 180;
          const midDeg = (index + 0.5) * slice - 90;
          const mid = (midDeg * Math.PI) / 180;
          // Read along the radius (room for 'R$ 500' in a slice of 8); the left half turned upright.
          const turnText = midDeg > 90 && midDeg < 270 ? midDeg + 180 : midDeg;
          const path = `M0 0 L${95 * Math.cos(a0)} ${95 * Math.sin(a0)} A95 95 0 0 1 ${95 * Math.cos(a1)} ${95 * Math.sin(a1)} Z`;
          return (
            <g key={`prize-${prize.index}`}>
              <path d={path} fill={colors[index % colors.length]} stroke="var(--color-border)" />
              <text
                x={58 * Math.cos(mid)}
                y={58 * Math.sin(mid)}
                fontSize="12"
                fontWeight="700"
                textAnchor="middle"
                dominantBaseline="middle"
                fill="var(--color-text)"
                transform={`rotate(${turnText} ${58 * Math.cos(mid)} ${58 * Math.sin(mid)})`}
              >
                {wheelLabel(prize.reward)}
              </text>
            </g>
          );
        })}
        <circle r="14" fill="var(--color-bg)" stroke="var(--color-gold)" strokeWidth="3" />
      </svg>
    </div>
  );
}

/** One campaign page: its rules, what the player can claim now (or why not), and the claim. */
export function CampaignPage({ call, titleKey }: { call: TPromotionCall; titleKey: string }) {
  const { t } = useTranslation();
  const check = useCampaignCheck(call);
  const claim = useClaim(call);
  const [target, setTarget] = useState<number | null>(null);
  const [name, setName] = useState('');
  const data = check.data;
  const isWheel = call === 'lotterywheel';

  const onClaim = (body: { name?: string; id?: number } = {}) => {
    claim.mutate(body, {
      onSuccess: (result) => {
        if (result.prize) setTarget(result.prize.index);
        const message = t('promo.claimed');
        if (isWheel) setTimeout(() => toast.success(message), 4200);
        else toast.success(message);
      },
      onError: (error) => toast.error(claimError(error, call, (key) => t(key))),
    });
  };

  return (
    <PageFrame title={t(titleKey)} requiresLogin>
      <BonusPanel />
      <QueryStates
        isPending={check.isPending}
        isError={check.isError}
        isEmpty={false}
        onRetry={() => void check.refetch()}
      />
      {check.isError && (
        <p className="promo-off">{listError(check.error, call, (key, options) => t(key, options))}</p>
      )}
      {data && !data.enabled && (
        <section className="promo-panel promo-panel--off" data-testid="campaign-off">
          <Icon name="lock" size={28} />
          <p>{data.off_reason}</p>
        </section>
      )}
      {data?.enabled && (
        <section className="promo-panel" data-testid="campaign-panel">
          <p className="promo-lead">
            {t(`promo.summary.${call}`, { ratio: formatPercent(data.rules.ratio ?? '0') })}
          </p>
          {isWheel && (
            <>
              <Wheel
                prizes={data.list as { reward: string; index: number }[]}
                target={target}
                spinning={claim.isPending}
              />
              <p className="promo-spins" data-testid="spins-left">
                {t('promo.spins_left', { count: Number(data.extra.remainingspins ?? 0) })}
              </p>
            </>
          )}
          {!isWheel && Number(data.amount) > 0 && (
            <p className="promo-amount" data-testid="claim-amount">
              {formatMoney(data.amount)}
            </p>
          )}
          {(call === 'dailyrescue' || call === 'dailywheel') && (
            <p className="promo-note">
              {t('promo.yesterday_loss', { amount: formatMoney(String(data.extra.net_loss ?? '0.00')) })}
            </p>
          )}
          {!data.eligible && data.reason && (
            <p className="promo-reason" data-testid="claim-reason">
              {data.reason}
            </p>
          )}
          {call === 'invitationactivity' && (
            <div className="promo-invite">
              <input
                className="input"
                value={name}
                onChange={(e) => setName(e.target.value)}
                placeholder={t('promo.invitee_name')}
                aria-label={t('promo.invitee_name')}
              />
            </div>
          )}
          <button
            type="button"
            className="button button--primary button--block"
            data-testid="claim-button"
            disabled={claim.isPending || (!data.eligible && call !== 'invitationactivity')}
            onClick={() => onClaim(call === 'invitationactivity' && name.trim() ? { name: name.trim() } : {})}
          >
            {isWheel
              ? t('promo.spin')
              : data.claimed && !data.eligible
                ? t('promo.claimed_tag')
                : t('promo.claim')}
          </button>
          {data.next_at && <Countdown to={data.next_at} />}
          <Rules check={data} />
          {call === 'rechargerebate' && <RebateTopups rows={data.list} onClaim={(id) => onClaim({ id })} />}
          {call === 'ftd' && <GiftTiers rows={data.list} />}
          {call === 'invitationactivity' && <Invitees rows={data.list} />}
        </section>
      )}
    </PageFrame>
  );
}

function RebateTopups({ rows, onClaim }: { rows: Record<string, unknown>[]; onClaim: (id: number) => void }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="promo-note">{t('promo.no_topups')}</p>;
  return (
    <ul className="promo-list">
      {rows.map((row) => (
        <li key={String(row.id)} className="promo-list__row">
          <span>{formatMoney(String(row.recharge_amount))}</span>
          <strong>+{formatMoney(String(row.reward_amount))}</strong>
          {row.is_claimed ? (
            <span className="promo-tag">{t('promo.claimed_tag')}</span>
          ) : (
            <button type="button" className="button button--ghost" onClick={() => onClaim(Number(row.id))}>
              {t('promo.claim')}
            </button>
          )}
          <small>{t('promo.ends', { at: formatDateTime(String(row.event_ended_at)) })}</small>
        </li>
      ))}
    </ul>
  );
}

function GiftTiers({ rows }: { rows: Record<string, unknown>[] }) {
  const { t } = useTranslation();
  return (
    <table className="promo-table">
      <caption>{t('promo.recharge_gift')}</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={String(row.level)} className={row.current ? 'promo-table__current' : ''}>
            <td>{t(`vip_levels.${String(row.name).toLowerCase()}`)}</td>
            <td>
              {row.gift_min === row.gift_max
                ? formatPercent(String(row.gift_min))
                : `${formatPercent(String(row.gift_min))} – ${formatPercent(String(row.gift_max))}`}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Invitees({ rows }: { rows: Record<string, unknown>[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="promo-note">{t('promo.no_invitees')}</p>;
  return (
    <ul className="promo-list">
      {rows.map((row) => (
        <li key={String(row.name)} className="promo-list__row">
          <span>{String(row.name)}</span>
          <span>{formatMoney(String(row.deposited))}</span>
          <span className="promo-tag">
            {row.is_claimed ? t('promo.claimed_tag') : row.qualified ? t('promo.ready') : t('promo.waiting')}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** `/promotion/vip`: the level, the bar to the next level, every level's benefits. */
/** A tier's place from the lowest (0; -1 below the first tier), which picks its badge's metal. */
const rankOf = (levels: readonly { level: number }[], level: number) =>
  levels.findIndex((item) => item.level === level);

export function VipPage() {
  const { t } = useTranslation();
  const vip = useVipInfo();
  const u = vip.data?.uservip;
  return (
    <PageFrame title={t('pages.promotion_vip')} requiresLogin>
      <QueryStates
        isPending={vip.isPending}
        isError={vip.isError}
        isEmpty={false}
        onRetry={() => void vip.refetch()}
      />
      {u && vip.data && (
        <>
          <section className="promo-panel" data-testid="vip-panel">
            <p className="promo-lead vip-lead">
              <VipBadge rank={rankOf(vip.data.data, u.userviplvl)} size={56} />{' '}
              {t(`vip_levels.${u.level_name.toLowerCase()}`)}
            </p>
            <p className="promo-note">
              {t(u.basis === 'recharge' ? 'promo.vip_basis_recharge' : 'promo.vip_basis_wagering', {
                amount: formatMoney(u.basis === 'recharge' ? u.totalrecharge : u.totalbetting),
              })}
            </p>
            {u.next_level_name ? (
              <ProgressBar
                done={String(u.progress)}
                total="100"
                label={t('promo.vip_next', {
                  amount: formatMoney(u.needed),
                  level: t(`vip_levels.${u.next_level_name.toLowerCase()}`),
                })}
              />
            ) : (
              <p className="promo-note">{t('promo.vip_top')}</p>
            )}
          </section>
          <table className="promo-table">
            <thead>
              <tr>
                <th>{t('promo.level')}</th>
                <th>{t(u.basis === 'recharge' ? 'promo.total_recharge' : 'promo.total_betting')}</th>
                {vip.data.data[0]?.gift_min !== null && <th>{t('promo.gift_ratio')}</th>}
                <th>{t('promo.rebate_boost')}</th>
              </tr>
            </thead>
            <tbody>
              {vip.data.data.map((level) => (
                <tr key={level.level} className={level.level === u.userviplvl ? 'promo-table__current' : ''}>
                  <td>
                    <span className="vip-tier">
                      <VipBadge rank={rankOf(vip.data.data, level.level)} size={28} />
                      {t(`vip_levels.${level.name.toLowerCase()}`)}
                    </span>
                  </td>
                  <td>
                    {formatMoney(level.min)} – {formatMoney(level.max)}
                  </td>
                  {level.gift_min !== null && (
                    <td>
                      {level.gift_min === level.gift_max
                        ? formatPercent(level.gift_min)
                        : `${formatPercent(level.gift_min)} – ${formatPercent(level.gift_max ?? '0')}`}
                    </td>
                  )}
                  {/* A level without a boost says so with a dash, not "+0%". */}
                  <td>{Number(level.rebate_boost) > 0 ? `+${formatPercent(level.rebate_boost)}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </PageFrame>
  );
}

/** `/promotion/rebates`: rebates per game category and the ones paid. */
export function RebatesPage() {
  const { t } = useTranslation();
  const rebates = useRebates();
  const details = useRebateDetails();
  const data = rebates.data;
  return (
    <PageFrame title={t('pages.promotion_rebates')} requiresLogin>
      <QueryStates
        isPending={rebates.isPending}
        isError={rebates.isError}
        isEmpty={false}
        onRetry={() => void rebates.refetch()}
      />
      {data && !data.enabled && <p className="promo-off">{data.off_reason}</p>}
      {data?.enabled && (
        <>
          <p className="promo-note">{t('promo.rebates_note')}</p>
          {data.next_payout_at && <Countdown to={data.next_payout_at} />}
          <table className="promo-table" data-testid="rebates-table">
            <thead>
              <tr>
                <th>{t('promo.category')}</th>
                <th>{t('promo.rate')}</th>
                <th>{t('promo.today')}</th>
                <th>{t('promo.total')}</th>
              </tr>
            </thead>
            <tbody>
              {data.list.map((row) => (
                <tr key={row.category}>
                  <td>{t(`categories.${row.category}`, { defaultValue: row.category })}</td>
                  <td>{formatPercent(row.rate)}</td>
                  <td>
                    {formatMoney(row.today_bet)} → {formatMoney(row.today_rebate)}
                  </td>
                  <td>{formatMoney(row.total_rebate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {(details.data?.list.length ?? 0) > 0 && (
        <ul className="promo-list">
          {details.data!.list.map((row) => (
            <li key={row.id} className="promo-list__row">
              <span>{row.day}</span>
              <strong>{formatMoney(row.amount)}</strong>
              <span className="promo-tag">{t(`promo.status.${row.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
    </PageFrame>
  );
}

function GrantRow({ grant }: { grant: TGrant }) {
  const { t } = useTranslation();
  const page = CAMPAIGN_PAGES[grant.campaign];
  return (
    <li className="promo-grant" data-testid="grant-row">
      <div className="promo-list__row">
        <strong>{page ? t(page.titleKey) : t('promo.other_reward')}</strong>
        <strong>{formatMoney(grant.amount)}</strong>
        <span className="promo-tag">{t(`promo.status.${grant.status}`)}</span>
      </div>
      {grant.status === 'active' && Number(grant.wagering_required) > 0 && (
        <ProgressBar
          done={grant.wagering_done}
          total={grant.wagering_required}
          label={t('promo.wagered_of', {
            done: formatMoney(grant.wagering_done),
            total: formatMoney(grant.wagering_required),
          })}
        />
      )}
      <small>
        {formatDateTime(grant.created_at)}
        {grant.status === 'active' && ` · ${t('promo.expires', { at: formatDateTime(grant.expires_at) })}`}
        {grant.max_bet &&
          grant.status === 'active' &&
          ` · ${t('promo.rule_max_bet', { amount: formatMoney(grant.max_bet) })}`}
      </small>
    </li>
  );
}

/** `/promotion/history` (every reward) and `/promotion/cover` (the active ones). */
function GrantsPage({ titleKey, status }: { titleKey: string; status?: string }) {
  const { t } = useTranslation();
  const history = useCoverHistory(status);
  const list = history.data?.list ?? [];
  return (
    <PageFrame title={t(titleKey)} requiresLogin>
      <BonusPanel />
      <QueryStates
        isPending={history.isPending}
        isError={history.isError}
        isEmpty={list.length === 0}
        onRetry={() => void history.refetch()}
      />
      <ul className="promo-grants">
        {list.map((grant) => (
          <GrantRow key={grant.id} grant={grant} />
        ))}
      </ul>
    </PageFrame>
  );
}

export const HistoryPage = () => <GrantsPage titleKey="pages.promotion_history" />;
export const CoverPage = () => <GrantsPage titleKey="pages.promotion_cover" status="active" />;
export const RechargeActivityPage = () => <CampaignPage call="ftd" titleKey="pages.activity_recharge" />;
export const InvitationActivityPage = () => (
  <CampaignPage call="invitationactivity" titleKey="pages.activity_invitation" />
);
export const LotteryWheelPage = () => (
  <CampaignPage call="lotterywheel" titleKey="pages.activity_lottery_wheel" />
);
export const ReliefFundPage = () => <CampaignPage call="dailyrescue" titleKey="pages.activity_relief_fund" />;
export const RechargeRebatePage = () => (
  <CampaignPage call="rechargerebate" titleKey="pages.activity_recharge_rebate" />
);
export const DailyCashbackPage = () => <CampaignPage call="dailywheel" titleKey="promo.daily_cashback" />;
