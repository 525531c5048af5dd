import { zodResolver } from '@hookform/resolvers/zod';
import {
  LANGUAGE_TAGS,
  type TSubordinateRegisterRequest,
  ZSubordinateRegisterRequest,
} from '@sorte/contract';
import QRCode from 'qrcode';
import { useCallback, useEffect, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { SubmitButton } from '../../../components/field.tsx';
import { LoadFail, QueryStates } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError, api } from '../../../lib/api-client.ts';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../../../lib/format.ts';
import { currentLanguage } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toast.ts';
import {
  useClaimCommissions,
  useInvite,
  useInviteRecord,
  useMechanism,
  useRewards,
  useTeam,
} from '../api/agency.ts';
import '../../../lib/validation-messages.ts';
import { useCaptcha } from '../../auth/api/get-captcha.ts';
import { AccountFields } from '../../auth/components/account-fields.tsx';
import { CaptchaField } from '../../auth/components/captcha-field.tsx';
import {
  RiskNotice,
  SIGNUP_RULE_DEFAULTS,
  SignupRuleFields,
  signupLimits,
  type TSignupRuleValues,
  useSignupRules,
  withSignupRules,
} from '../../auth/components/signup-rules.tsx';
import './agency.css';

const TABS = [
  ['/agency-center/invite', 'pages.agency_invite'],
  ['/agency-center/agent', 'pages.agent'],
  ['/agency-center/invitation-record', 'pages.invitation_record'],
  ['/agency-center/reward', 'pages.reward'],
  ['/agency-center/agency-mechanism', 'pages.agency_mechanism'],
  ['/agency-center/register-subordinates', 'pages.register_subordinates'],
] as const;

function AgencyFrame({
  titleKey,
  children,
  requiresLogin = true,
}: {
  titleKey: string;
  children: React.ReactNode;
  requiresLogin?: boolean;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // On a phone the six tabs overflow: when the strip appears (or the route changes), the current
  // tab is brought to the middle of it; the strip alone scrolls, never the page.
  const tabs = useCallback(
    (strip: HTMLElement | null) => {
      const active = strip?.querySelector<HTMLElement>(`a[href="${pathname}"]`);
      if (!strip || !active || strip.scrollWidth <= strip.clientWidth) return;
      strip.scrollLeft = active.offsetLeft - (strip.clientWidth - active.offsetWidth) / 2;
    },
    [pathname],
  );
  return (
    <PageFrame title={t(titleKey)} requiresLogin={requiresLogin}>
      <div className="agency">
        <nav className="agency__tabs" aria-label={t('menu.rewards')} ref={tabs} data-testid="agency-tabs">
          {TABS.map(([to, key]) => (
            <NavLink key={to} to={to}>
              {t(key)}
            </NavLink>
          ))}
        </nav>
        {children}
      </div>
    </PageFrame>
  );
}

const bps = (rate: number) => formatPercent(rate / 100);

/** A settlement period ('YYYY-MM-DD', a day of the site's time zone) as the reader writes a date. */
export function formatPeriod(period: string): string {
  const day = new Date(`${period}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return period;
  return new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'short',
    timeZone: 'UTC',
  }).format(day);
}

/** `/agency-center/invite`: the invite link and code to copy, and the QR code to save as a PNG. */
export function InvitePage() {
  return (
    <AgencyFrame titleKey="pages.agency_invite">
      <Invite />
    </AgencyFrame>
  );
}

function Invite() {
  const { t } = useTranslation();
  const invite = useInvite();
  const [qr, setQr] = useState<string | null>(null);
  const link = invite.data?.invite_link;
  useEffect(() => {
    if (!link) return;
    let live = true;
    void QRCode.toDataURL(link, { width: 480, margin: 2, errorCorrectionLevel: 'M' }).then((url) => {
      if (live) setQr(url);
    });
    return () => {
      live = false;
    };
  }, [link]);
  if (invite.isPending) return <Spinner />;
  if (invite.isError) return <LoadFail onRetry={() => void invite.refetch()} />;
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('community.agency.copied'));
    } catch {
      toast.error(text);
    }
  };
  return (
    <>
      <div className="agency-card">
        <p className="agency-note">{t('community.agency.invite_hint')}</p>
      </div>
      <div className="agency-card">
        <label className="field__label" htmlFor="invite-link">
          {t('community.agency.invite_link')}
        </label>
        <div className="agency-field">
          <input id="invite-link" readOnly value={invite.data.invite_link} data-testid="invite-link" />
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => void copy(invite.data.invite_link)}
            data-testid="copy-invite-link"
          >
            {t('community.agency.copy')}
          </button>
        </div>
        <label className="field__label" htmlFor="invite-code">
          {t('community.agency.invite_code')}
        </label>
        <div className="agency-field">
          <input id="invite-code" readOnly value={invite.data.invite_code} data-testid="invite-code" />
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => void copy(invite.data.invite_code)}
          >
            {t('community.agency.copy')}
          </button>
        </div>
      </div>
      <div className="agency-card agency-qr">
        {qr ? <img src={qr} alt={invite.data.invite_link} data-testid="invite-qr" /> : <Spinner />}
        {qr && (
          <a className="button button--primary" href={qr} download={`invite-${invite.data.invite_code}.png`}>
            {t('community.agency.save_qr')}
          </a>
        )}
      </div>
    </>
  );
}

/** `/agency-center/agent`: the team (direct and indirect members, active today, new this week). */
export function AgentPage() {
  return (
    <AgencyFrame titleKey="pages.agent">
      <Team />
    </AgencyFrame>
  );
}

function Team() {
  const { t } = useTranslation();
  const team = useTeam();
  if (team.isPending) return <Spinner />;
  if (team.isError) return <LoadFail onRetry={() => void team.refetch()} />;
  const data = team.data;
  return (
    <>
      <div className="agency-stats">
        <Stat label={t('community.agency.total')} value={formatNumber(data.total)} />
        <Stat label={t('community.agency.direct')} value={formatNumber(data.direct)} />
        {data.max_levels > 1 && (
          <Stat label={t('community.agency.indirect')} value={formatNumber(data.indirect)} />
        )}
        <Stat label={t('community.agency.active_today')} value={formatNumber(data.active_today)} />
        <Stat label={t('community.agency.new_this_week')} value={formatNumber(data.new_this_week)} />
      </div>
      <div className="agency-card">
        <h2>{t('community.agency.team_members')}</h2>
        {data.members.length === 0 ? (
          <EmptyState message={t('empty.subordinates')} icon="users" />
        ) : (
          <table className="agency-table">
            <tbody>
              {data.members.map((member) => (
                <tr key={`${member.username}-${member.joined_at}`} data-testid="team-member">
                  <td>{member.username}</td>
                  <td>{t('community.agency.level', { level: member.level })}</td>
                  <td>{member.active_today ? t('community.agency.active_today') : ''}</td>
                  <td className="num">{formatDateTime(member.joined_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </>
  );
}

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="agency-stat">
      <span>{label}</span>
      <strong data-testid={testId}>{value}</strong>
    </div>
  );
}

/** `/agency-center/invitation-record`: invitees with their totals, and the direct and indirect rewards. */
export function InvitationRecordPage() {
  return (
    <AgencyFrame titleKey="pages.invitation_record">
      <InvitationRecord />
    </AgencyFrame>
  );
}

function InvitationRecord() {
  const { t } = useTranslation();
  const [level, setLevel] = useState<'all' | 'direct' | 'indirect'>('all');
  const record = useInviteRecord(level);
  const totals = record.data?.totals;
  return (
    <>
      {totals && (
        <div className="agency-stats">
          <Stat
            label={t('community.agency.invitees')}
            value={formatNumber(totals.invitees)}
            testId="record-invitees"
          />
          <Stat label={t('community.agency.total_deposit')} value={formatMoney(totals.total_deposit)} />
          <Stat label={t('community.agency.total_bet')} value={formatMoney(totals.total_bet)} />
          <Stat
            label={t('community.agency.direct_reward')}
            value={formatMoney(totals.direct_reward)}
            testId="record-direct-reward"
          />
          <Stat label={t('community.agency.indirect_reward')} value={formatMoney(totals.indirect_reward)} />
          <Stat label={t('community.agency.total_reward')} value={formatMoney(totals.total_reward)} />
        </div>
      )}
      <div className="agency__tabs" role="tablist">
        {(['all', 'direct', 'indirect'] as const).map((value) => (
          <a
            key={value}
            href={`#${value}`}
            role="tab"
            aria-selected={level === value}
            className={level === value ? 'active' : ''}
            onClick={(event) => {
              event.preventDefault();
              setLevel(value);
            }}
          >
            {t(`community.agency.filter_${value}`)}
          </a>
        ))}
      </div>
      <QueryStates
        isPending={record.isPending}
        isError={record.isError}
        isEmpty={(record.data?.data.length ?? 0) === 0}
        onRetry={() => void record.refetch()}
      />
      {record.data && record.data.data.length > 0 && (
        <div className="agency-card">
          <table className="agency-table">
            <thead>
              <tr>
                <th>{t('community.agency.invitees')}</th>
                <th className="num">{t('community.agency.total_deposit')}</th>
                <th className="num">{t('community.agency.total_bet')}</th>
              </tr>
            </thead>
            <tbody>
              {record.data.data.map((row) => (
                <tr key={`${row.username}-${row.joined_at}`} data-testid="record-row">
                  <td>
                    {row.username}
                    <br />
                    <small>{t('community.agency.level', { level: row.level })}</small>
                  </td>
                  <td className="num">{formatMoney(row.total_deposit)}</td>
                  <td className="num">{formatMoney(row.total_bet)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** `/agency-center/reward`: commission per settled period, and the claim. */
export function RewardPage() {
  return (
    <AgencyFrame titleKey="pages.reward">
      <Rewards />
    </AgencyFrame>
  );
}

function Rewards() {
  const { t } = useTranslation();
  const rewards = useRewards();
  const claim = useClaimCommissions();
  if (rewards.isPending) return <Spinner />;
  if (rewards.isError) return <LoadFail onRetry={() => void rewards.refetch()} />;
  const data = rewards.data;
  const canClaim = data.unclaimed !== '0.00';
  return (
    <>
      <div className="agency-card agency-claim">
        <div>
          <span className="agency-note">{t('community.agency.unclaimed')}</span>
          <br />
          <strong data-testid="reward-unclaimed">{formatMoney(data.unclaimed)}</strong>
        </div>
        <div>
          <span className="agency-note">{t('community.agency.claimed')}</span>
          <br />
          <strong>{formatMoney(data.claimed)}</strong>
        </div>
        <button
          type="button"
          className="button button--primary"
          data-testid="claim-commission"
          disabled={!canClaim || claim.isPending}
          onClick={() =>
            claim.mutate(undefined, {
              onSuccess: () => toast.success(t('community.agency.claim_done')),
            })
          }
        >
          {t('community.agency.claim')}
        </button>
      </div>
      {data.data.length === 0 ? (
        <EmptyState message={t('empty.rewards')} icon="trophy" />
      ) : (
        <div className="agency-card">
          <table className="agency-table">
            <thead>
              <tr>
                <th>{t('community.agency.period')}</th>
                <th className="num">{t('community.agency.team_volume')}</th>
                <th className="num">{t('community.agency.amount')}</th>
                <th>{t('community.agency.claimed')}</th>
              </tr>
            </thead>
            <tbody>
              {data.data.map((row) => (
                <tr key={row.period} data-testid="reward-row">
                  <td className="nowrap">{formatPeriod(row.period)}</td>
                  <td className="num">{formatMoney(row.team_volume)}</td>
                  <td className="num">{formatMoney(row.amount)}</td>
                  <td>{t(`community.agency.status_${row.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** `/agency-center/agency-mechanism`: the recharge, betting and settlement tables. */
export function MechanismPage() {
  return (
    <AgencyFrame titleKey="pages.agency_mechanism" requiresLogin={false}>
      <Mechanism />
    </AgencyFrame>
  );
}

function Mechanism() {
  const { t } = useTranslation();
  const mechanism = useMechanism();
  if (mechanism.isPending) return <Spinner />;
  const { recharge, betting, settlement } = mechanism.data ?? {
    recharge: null,
    betting: null,
    settlement: null,
  };
  return (
    <>
      {betting && (
        <div className="agency-card" data-testid="mechanism-betting">
          <h2>{t('community.agency.betting_table')}</h2>
          <p className="agency-note">{t(`community.agency.basis_${betting.basis}`)}</p>
          <table className="agency-table">
            <thead>
              <tr>
                <th>{t('community.agency.min_team_volume')}</th>
                {Array.from({ length: betting.max_levels }, (_, i) => i + 1).map((level) => (
                  <th key={`level-${level}`} className="num">
                    {t('community.agency.rate_level', { level })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {betting.tiers.map((tier) => (
                <tr key={tier.min_team_volume}>
                  <td>{formatMoney(tier.min_team_volume)}</td>
                  {tier.rates_bps
                    .map((rate, i) => ({ rate, level: i + 1 }))
                    .map(({ rate, level }) => (
                      <td key={`level-${level}`} className="num">
                        {bps(rate)}
                      </td>
                    ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {recharge && (
        <div className="agency-card" data-testid="mechanism-recharge">
          <h2>{t('community.agency.recharge_table')}</h2>
          {recharge.enabled ? (
            <table className="agency-table">
              <tbody>
                {recharge.levels.map((level) => (
                  <tr key={level.level}>
                    <td>{t('community.agency.rate_level', { level: level.level })}</td>
                    <td className="num">{bps(level.rate_bps)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="agency-note">{recharge.off_reason}</p>
          )}
        </div>
      )}
      {settlement && (
        <div className="agency-card" data-testid="mechanism-settlement">
          <h2>{t('community.agency.settlement_table')}</h2>
          <p className="agency-note">{t('community.agency.settle_daily', { zone: settlement.time_zone })}</p>
          <table className="agency-table">
            <tbody>
              <tr>
                <td>{t('community.agency.next_settlement')}</td>
                <td className="num">{formatDateTime(settlement.next_settlement_at)}</td>
              </tr>
              <tr>
                <td>{t('community.agency.last_period')}</td>
                <td className="num">
                  {settlement.last_period
                    ? formatPeriod(settlement.last_period)
                    : t('community.agency.none_yet')}
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
      {!recharge && !betting && !settlement && <EmptyState message={t('empty.records')} icon="users" />}
    </>
  );
}

/** `/agency-center/register-subordinates`: the caller registers a player in their team. */
export function RegisterSubordinatesPage() {
  return (
    <AgencyFrame titleKey="pages.register_subordinates">
      <RegisterSubordinate />
    </AgencyFrame>
  );
}

/** The form's values: the sign-up fields and what the site's rules add (CPF, birth date, limits on br). */
type TSubordinateForm = Omit<TSubordinateRegisterRequest, 'agree_terms' | 'is_adult'> & TSignupRuleValues;

const SUBORDINATE_FIELDS = [
  'username',
  'password',
  'realname',
  'phone',
  'cpf',
  'birth_date',
  'loss_limit',
  'captcha_code',
] as const;

/** The contract's sign-up schema; the caller registers someone they signed up in person, so the boxes are theirs. */
const subordinateSchema = zodResolver(ZSubordinateRegisterRequest) as unknown as Resolver<
  TSubordinateForm,
  unknown,
  TSubordinateRegisterRequest
>;
const subordinateResolver: Resolver<TSubordinateForm, unknown, TSubordinateRegisterRequest> = (
  values,
  context,
  options,
) =>
  subordinateSchema({ ...values, agree_terms: true, is_adult: true } as TSubordinateForm, context, options);

const SUBORDINATE_DEFAULTS: TSubordinateForm = {
  username: '',
  password: '',
  realname: '',
  phone: '',
  ...SIGNUP_RULE_DEFAULTS,
};

/**
 * The sign-up form's fields (the same components and checks as the header's sign-up, with what the
 * site's jurisdiction profile asks: on br the CPF, the date of birth and the mandatory limits); the
 * new player joins the caller's team at level 1 and is not logged in here.
 */
function RegisterSubordinate() {
  const { t } = useTranslation();
  const captcha = useCaptcha('register');
  const captchaRequired = captcha.data?.required ?? false;
  const rules = useSignupRules();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    resetField,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<TSubordinateForm, unknown, TSubordinateRegisterRequest>({
    resolver: withSignupRules(subordinateResolver, rules),
    defaultValues: SUBORDINATE_DEFAULTS,
  });

  const onValid = async (values: TSubordinateRegisterRequest) => {
    setFailure(null);
    try {
      await api.post(
        '/api/agency/subordinate/register',
        {
          ...values,
          invite_code: undefined,
          cpf: rules?.requires_cpf ? values.cpf : undefined,
          birth_date: rules?.requires_birth_date ? values.birth_date : undefined,
          limits: signupLimits(getValues(), rules),
          ...(captchaRequired
            ? { captcha_id: captcha.data?.captcha_id, captcha_code: values.captcha_code }
            : { captcha_id: undefined, captcha_code: undefined }),
        },
        { silent: true },
      );
      toast.success(t('community.agency.registered'));
      reset(SUBORDINATE_DEFAULTS);
    } catch (error) {
      if (error instanceof ApiError) {
        setFailure(error.message);
        for (const [field, message] of Object.entries(error.errors)) {
          if ((SUBORDINATE_FIELDS as readonly string[]).includes(field)) {
            setError(field as (typeof SUBORDINATE_FIELDS)[number], { message });
          }
        }
      }
    } finally {
      resetField('captcha_code');
      void captcha.refetch();
    }
  };

  return (
    <form
      className="agency-card form"
      noValidate
      onSubmit={handleSubmit(onValid, () => toast.error(t('messages.form_invalid')))}
      aria-label={t('pages.register_subordinates')}
      data-testid="register-subordinate-form"
    >
      <p className="agency-note">{t('community.agency.register_hint')}</p>
      <RiskNotice rules={rules} />
      {failure && (
        <div className="form__alert" role="alert">
          <span>{failure}</span>
        </div>
      )}
      <AccountFields register={register} errors={errors} forSomeoneElse />
      <SignupRuleFields rules={rules} register={register} errors={errors} />
      {(captchaRequired || captcha.isPending) && (
        <CaptchaField
          captcha={captcha.data}
          loading={captcha.isFetching}
          onRefresh={() => void captcha.refetch()}
          error={errors.captcha_code?.message}
          inputProps={register('captcha_code', { shouldUnregister: true })}
        />
      )}
      <SubmitButton
        label={t('community.agency.register')}
        busy={isSubmitting}
        testId="register-subordinate"
      />
    </form>
  );
}
