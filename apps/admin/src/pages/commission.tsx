import type { TAdminAgencyRules, TAgencyRulesInput, TReferralBlocksResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { formatDateTime, formatMoney, intlLocale } from '../i18n.ts';
import { Field, Notice, Section, useSave } from './content-kit.tsx';

const KEY = ['admin-agency-rules'];
const toMoney = (minor: string) => (Number(minor) / 100).toFixed(2);
const toMinor = (money: string) => String(Math.round(Number(money.replace(',', '.')) * 100));

/** Commission rules (ADR 017): basis, levels, tiers of team volume with a rate per level, deposit rates. */
function RulesForm({ data }: { data: TAdminAgencyRules }) {
  const { t } = useTranslation();
  const [rules, setRules] = useState<TAgencyRulesInput>(data.rules);
  const { save, saving, notice } = useSave('/admin/agency/rules', 'PUT', [KEY]);
  const levels = Array.from({ length: rules.maxLevels }, (_, i) => i);
  const setLevels = (count: number) => {
    const fit = (rates: number[]) => Array.from({ length: count }, (_, i) => rates[i] ?? 0);
    setRules({
      ...rules,
      maxLevels: count,
      tiers: rules.tiers.map((tier) => ({ ...tier, ratesBps: fit(tier.ratesBps) })),
      rechargeRatesBps: rules.rechargeRatesBps ? fit(rules.rechargeRatesBps) : null,
    });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(rules);
  };
  return (
    <form onSubmit={submit}>
      <div className="content-grid">
        <Field id="agency-basis" label={t('commission.basis')}>
          <select
            id="agency-basis"
            value={rules.basis}
            onChange={(e) => setRules({ ...rules, basis: e.target.value as TAgencyRulesInput['basis'] })}
          >
            <option value="turnover">{t('commission.basis_turnover')}</option>
            <option value="ngr">{t('commission.basis_ngr')}</option>
          </select>
        </Field>
        <Field
          id="agency-levels"
          label={t('commission.levels')}
          hint={t('commission.levels_hint', { max: data.limits.max_levels })}
        >
          <input
            id="agency-levels"
            type="number"
            min={1}
            max={10}
            value={rules.maxLevels}
            onChange={(e) => setLevels(Math.max(1, Math.min(10, Number(e.target.value) || 1)))}
            data-testid="agency-levels"
          />
        </Field>
        <Field id="agency-tz" label={t('commission.time_zone')}>
          <input
            id="agency-tz"
            value={rules.timeZone}
            onChange={(e) => setRules({ ...rules, timeZone: e.target.value })}
          />
        </Field>
      </div>
      <h3>{t('commission.tiers')}</h3>
      <div className="rows-editor">
        <table>
          <thead>
            <tr>
              <th>{t('commission.min_volume')}</th>
              {levels.map((level) => (
                <th key={level}>{t('commission.level_rate', { level: level + 1 })}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {rules.tiers.map((tier, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: tiers are edited in place, the index is their identity.
              <tr key={index}>
                <td>
                  <input
                    aria-label={t('commission.min_volume')}
                    inputMode="decimal"
                    value={toMoney(tier.minTeamVolumeMinor)}
                    title={formatMoney(toMoney(tier.minTeamVolumeMinor))}
                    onChange={(e) =>
                      setRules({
                        ...rules,
                        tiers: rules.tiers.map((x, i) =>
                          i === index ? { ...x, minTeamVolumeMinor: toMinor(e.target.value) } : x,
                        ),
                      })
                    }
                  />
                </td>
                {levels.map((level) => (
                  <td key={level}>
                    <input
                      aria-label={t('commission.level_rate', { level: level + 1 })}
                      type="number"
                      min={0}
                      max={data.limits.max_rate_bps}
                      value={tier.ratesBps[level] ?? 0}
                      onChange={(e) =>
                        setRules({
                          ...rules,
                          tiers: rules.tiers.map((x, i) =>
                            i === index
                              ? {
                                  ...x,
                                  ratesBps: x.ratesBps.map((r, l) =>
                                    l === level ? Number(e.target.value) : r,
                                  ),
                                }
                              : x,
                          ),
                        })
                      }
                    />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="button button--ghost"
                    aria-label={t('content.remove')}
                    onClick={() => setRules({ ...rules, tiers: rules.tiers.filter((_, i) => i !== index) })}
                  >
                    ✕
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="field__hint">{t('commission.bps_hint')}</p>
      <div className="checks field">
        <label>
          <input
            type="checkbox"
            checked={rules.rechargeRatesBps !== null}
            onChange={(e) =>
              setRules({ ...rules, rechargeRatesBps: e.target.checked ? levels.map(() => 0) : null })
            }
          />
          {t('commission.on_deposits')}
        </label>
      </div>
      {!data.limits.deposit_based && data.limits.deposit_off_reason && (
        <p className="muted">{data.limits.deposit_off_reason}</p>
      )}
      {rules.rechargeRatesBps && (
        <div className="content-grid">
          {levels.map((level) => (
            <Field
              key={level}
              id={`recharge-${level}`}
              label={t('commission.level_rate', { level: level + 1 })}
            >
              <input
                id={`recharge-${level}`}
                type="number"
                min={0}
                value={rules.rechargeRatesBps?.[level] ?? 0}
                onChange={(e) =>
                  setRules({
                    ...rules,
                    rechargeRatesBps: (rules.rechargeRatesBps ?? []).map((r, l) =>
                      l === level ? Number(e.target.value) : r,
                    ),
                  })
                }
              />
            </Field>
          ))}
        </div>
      )}
      <div className="content-actions">
        <button
          type="button"
          className="button"
          onClick={() => {
            const last = rules.tiers[rules.tiers.length - 1];
            const min = last ? String(BigInt(last.minTeamVolumeMinor) + 1_000_000n) : '0';
            setRules({
              ...rules,
              tiers: [...rules.tiers, { minTeamVolumeMinor: min, ratesBps: levels.map(() => 0) }],
            });
          }}
        >
          + {t('commission.add_tier')}
        </button>
        <button type="submit" className="button button--primary" disabled={saving} data-testid="agency-save">
          {t('content.save')}
        </button>
      </div>
      <Notice notice={notice} testId="agency-notice" />
    </form>
  );
}

/**
 * Rewards for bringing a player that were not paid because inviter and invitee share identity
 * signals (ADR 030): who, which reward, which kinds of signal; never the values.
 */
function ReferralBlocks() {
  const { t } = useTranslation();
  const blocks = useQuery({
    queryKey: ['admin-referral-blocks'],
    queryFn: async () => (await api<TReferralBlocksResponse>('/admin/agency/referral-blocks')).data.list,
  });
  if (!blocks.data) return null;
  return (
    <Section title={t('commission.blocks.title')} hint={t('commission.blocks.hint')} testId="referral-blocks">
      {blocks.data.length === 0 ? (
        <p className="muted">{t('commission.blocks.none')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('commission.blocks.inviter')}</th>
              <th>{t('commission.blocks.invitee')}</th>
              <th>{t('commission.blocks.reward')}</th>
              <th>{t('commission.blocks.signals')}</th>
              <th>{t('commission.blocks.last_seen')}</th>
            </tr>
          </thead>
          <tbody>
            {blocks.data.map((block) => (
              <tr key={block.id}>
                <td>{block.inviter}</td>
                <td>{block.invitee}</td>
                <td>{t(`commission.blocks.rewards.${block.reward}`)}</td>
                <td>{block.signals.map((s) => t(`commission.blocks.signal.${s}`)).join(', ')}</td>
                <td>{formatDateTime(block.last_seen_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

export default function CommissionPage() {
  const { t } = useTranslation();
  const rules = useQuery({
    queryKey: KEY,
    queryFn: async () => (await api<TAdminAgencyRules>('/admin/agency/rules')).data,
  });
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('commission.title')}</h1>
        <p className="muted">{t('commission.subtitle')}</p>
      </header>
      {rules.error && (
        <p className="alert alert--error" role="alert">
          {rules.error.message}
        </p>
      )}
      {rules.data && (
        <Section
          title={t('commission.rules')}
          hint={t('commission.limits', {
            levels: rules.data.limits.max_levels,
            rate: new Intl.NumberFormat(intlLocale(), { maximumFractionDigits: 2 }).format(
              rules.data.limits.max_rate_bps / 100,
            ),
          })}
        >
          <RulesForm key={rules.dataUpdatedAt} data={rules.data} />
        </Section>
      )}
      <ReferralBlocks />
    </div>
  );
}
