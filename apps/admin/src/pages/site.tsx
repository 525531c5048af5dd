import {
  JURISDICTIONS,
  LANGUAGE_NAMES,
  LANGUAGES,
  SITE_CATEGORY_TABS,
  type TAdminPaymentChannel,
  type TSiteSettings,
  type TWithdrawalRules,
} from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { formatMoney } from '../i18n.ts';
import { Field, lines, Notice, Section, useSave } from './content-kit.tsx';

/** The site's name, host names, look, languages, jurisdiction and links (owner only). */
function GeneralForm({ site }: { site: TSiteSettings }) {
  const { t } = useTranslation();
  const [name, setName] = useState(site.name);
  const [hosts, setHosts] = useState(site.hosts.join('\n'));
  const [jurisdiction, setJurisdiction] = useState(site.jurisdiction);
  const [languages, setLanguages] = useState<string[]>(site.languages);
  const [defaultLang, setDefaultLang] = useState(site.default_lang);
  const [logo, setLogo] = useState(site.logo);
  const [favicon, setFavicon] = useState(site.favicon);
  const [telegram, setTelegram] = useState(site.telegram_link ?? '');
  const [categories, setCategories] = useState<string[]>(site.categories);
  const [theme, setTheme] = useState(
    Object.entries(site.theme)
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n'),
  );
  const [social, setSocial] = useState(
    site.social_links.map((link) => `${link.name} ${link.url}`).join('\n'),
  );
  const { save, saving, notice } = useSave('/admin/site', 'PUT', [['admin-site']]);

  const toggle = (list: string[], value: string, on: boolean) =>
    on ? [...list, value] : list.filter((item) => item !== value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({
      name,
      hosts: lines(hosts),
      jurisdiction,
      default_lang: defaultLang,
      languages: LANGUAGES.filter((code) => languages.includes(code)),
      logo,
      favicon,
      theme: Object.fromEntries(
        lines(theme).map((line) => {
          const at = line.indexOf(':');
          return at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
        }),
      ),
      telegram_link: telegram.trim() || null,
      categories: SITE_CATEGORY_TABS.filter((code) => categories.includes(code)),
      social_links: lines(social).map((line) => {
        const [linkName = '', ...rest] = line.split(/\s+/);
        return { name: linkName, url: rest.join(' ') };
      }),
    });
  };

  return (
    <Section title={t('site.general')} hint={t('site.general_hint')} testId="site-general">
      <form onSubmit={submit}>
        <div className="content-grid">
          <Field id="site-name" label={t('site.name')}>
            <input
              id="site-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="site-name"
            />
          </Field>
          <Field id="site-jurisdiction" label={t('site.jurisdiction')} hint={t('site.jurisdiction_hint')}>
            <select
              id="site-jurisdiction"
              value={jurisdiction}
              onChange={(e) => setJurisdiction(e.target.value as TSiteSettings['jurisdiction'])}
            >
              {JURISDICTIONS.map((code) => (
                <option key={code} value={code}>
                  {t(`site.jurisdictions.${code}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="site-default-lang" label={t('site.default_lang')}>
            <select
              id="site-default-lang"
              value={defaultLang}
              onChange={(e) => setDefaultLang(e.target.value as TSiteSettings['default_lang'])}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="site-logo" label={t('site.logo')}>
            <input id="site-logo" value={logo} onChange={(e) => setLogo(e.target.value)} />
          </Field>
          <Field id="site-favicon" label={t('site.favicon')}>
            <input id="site-favicon" value={favicon} onChange={(e) => setFavicon(e.target.value)} />
          </Field>
          <Field id="site-telegram" label={t('site.telegram')}>
            <input
              id="site-telegram"
              value={telegram}
              placeholder="https://t.me/…"
              onChange={(e) => setTelegram(e.target.value)}
            />
          </Field>
          <div className="field content-field--wide">
            <span className="field__label">{t('site.languages')}</span>
            <div className="checks">
              {LANGUAGES.map((code) => (
                <label key={code}>
                  <input
                    type="checkbox"
                    checked={languages.includes(code)}
                    onChange={(e) => setLanguages(toggle(languages, code, e.target.checked))}
                  />
                  {LANGUAGE_NAMES[code]}
                </label>
              ))}
            </div>
          </div>
          <div className="field content-field--wide">
            <span className="field__label">{t('site.categories')}</span>
            <div className="checks">
              {SITE_CATEGORY_TABS.map((code) => (
                <label key={code}>
                  <input
                    type="checkbox"
                    checked={categories.includes(code)}
                    onChange={(e) => setCategories(toggle(categories, code, e.target.checked))}
                  />
                  {t(`site.tabs.${code}`)}
                </label>
              ))}
            </div>
          </div>
          <Field id="site-hosts" label={t('site.hosts')} hint={t('site.hosts_hint')}>
            <textarea id="site-hosts" rows={3} value={hosts} onChange={(e) => setHosts(e.target.value)} />
          </Field>
          <Field id="site-social" label={t('site.social')} hint={t('site.social_hint')}>
            <textarea id="site-social" rows={3} value={social} onChange={(e) => setSocial(e.target.value)} />
          </Field>
          <Field id="site-theme" label={t('site.theme')} hint={t('site.theme_hint')} wide>
            <textarea
              id="site-theme"
              rows={5}
              className="code-editor"
              style={{ minHeight: 120 }}
              value={theme}
              onChange={(e) => setTheme(e.target.value)}
            />
          </Field>
        </div>
        <div className="content-actions">
          <button type="submit" className="button button--primary" disabled={saving} data-testid="site-save">
            {t('content.save')}
          </button>
        </div>
        <Notice notice={notice} testId="site-notice" />
      </form>
    </Section>
  );
}

type TChannelDraft = TAdminPaymentChannel & { presetsText: string };

const toDraft = (channel: TAdminPaymentChannel): TChannelDraft => ({
  ...channel,
  presetsText: channel.presets.join(' '),
});

/** Deposit channels: bounds, fee, recharge reward (where the jurisdiction allows it), presets. */
function ChannelsForm({ channels, inherited }: { channels: TAdminPaymentChannel[]; inherited: boolean }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<TChannelDraft[]>(channels.map(toDraft));
  const { save, saving, notice } = useSave('/admin/site/payment-channels', 'PUT', [['admin-channels']]);
  const set = (index: number, patch: Partial<TChannelDraft>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({
      channels: rows.map(({ presetsText, ...row }) => ({
        ...row,
        presets: presetsText.split(/[\s,;]+/).filter(Boolean),
      })),
    });
  };
  const blank: TChannelDraft = {
    method: 'pix',
    method_name: 'PIX',
    code: '',
    name: '',
    min: '10.00',
    max: '50000.00',
    fee_bps: 0,
    bonus_bps: 0,
    presets: [],
    presetsText: '',
    expires_seconds: 900,
    enabled: true,
  };
  return (
    <Section
      title={t('site.channels')}
      hint={inherited ? t('site.channels_inherited') : t('site.channels_hint')}
      testId="site-channels"
    >
      <form onSubmit={submit}>
        <div className="rows-editor">
          <table>
            <thead>
              <tr>
                <th>{t('site.channel.code')}</th>
                <th>{t('site.channel.name')}</th>
                <th>{t('site.channel.min')}</th>
                <th>{t('site.channel.max')}</th>
                <th>{t('site.channel.fee_bps')}</th>
                <th>{t('site.channel.bonus_bps')}</th>
                <th>{t('site.channel.presets')}</th>
                <th>{t('site.channel.enabled')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, the index is their identity.
                <tr key={index}>
                  <td>
                    <input
                      aria-label={t('site.channel.code')}
                      value={row.code}
                      onChange={(e) => set(index, { code: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.name')}
                      value={row.name}
                      onChange={(e) => set(index, { name: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.min')}
                      inputMode="decimal"
                      value={row.min}
                      onChange={(e) => set(index, { min: e.target.value })}
                      title={formatMoney(row.min)}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.max')}
                      inputMode="decimal"
                      value={row.max}
                      onChange={(e) => set(index, { max: e.target.value })}
                      title={formatMoney(row.max)}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.fee_bps')}
                      type="number"
                      min={0}
                      max={10000}
                      value={row.fee_bps}
                      onChange={(e) => set(index, { fee_bps: Number(e.target.value) })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.bonus_bps')}
                      type="number"
                      min={0}
                      max={10000}
                      value={row.bonus_bps}
                      onChange={(e) => set(index, { bonus_bps: Number(e.target.value) })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.presets')}
                      value={row.presetsText}
                      onChange={(e) => set(index, { presetsText: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={t('site.channel.enabled')}
                      type="checkbox"
                      checked={row.enabled}
                      onChange={(e) => set(index, { enabled: e.target.checked })}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button--ghost"
                      onClick={() => setRows(rows.filter((_, i) => i !== index))}
                      aria-label={t('content.remove')}
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="content-actions">
          <button type="button" className="button" onClick={() => setRows([...rows, blank])}>
            + {t('site.channel.add')}
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={saving}
            data-testid="channels-save"
          >
            {t('content.save')}
          </button>
        </div>
        <Notice notice={notice} testId="channels-notice" />
      </form>
    </Section>
  );
}

/** Withdrawal bounds, withdrawals per day and the fee of each payout channel. */
function WithdrawalsForm({ rules }: { rules: TWithdrawalRules }) {
  const { t } = useTranslation();
  const [min, setMin] = useState(rules.min);
  const [max, setMax] = useState(rules.max);
  const [daily, setDaily] = useState(rules.daily_count_max);
  const [fees, setFees] = useState(rules.fees);
  const { save, saving, notice } = useSave('/admin/site/withdrawals', 'PUT', [['admin-withdrawal-rules']]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save({ min, max, daily_count_max: daily, fees });
  };
  return (
    <Section title={t('site.withdrawals')} hint={t('site.withdrawals_hint')} testId="site-withdrawals">
      <form onSubmit={submit}>
        <div className="content-grid">
          <Field id="wd-min" label={t('site.channel.min')} hint={formatMoney(min)}>
            <input id="wd-min" inputMode="decimal" value={min} onChange={(e) => setMin(e.target.value)} />
          </Field>
          <Field id="wd-max" label={t('site.channel.max')} hint={formatMoney(max)}>
            <input id="wd-max" inputMode="decimal" value={max} onChange={(e) => setMax(e.target.value)} />
          </Field>
          <Field id="wd-daily" label={t('site.daily_count')}>
            <input
              id="wd-daily"
              type="number"
              min={1}
              max={1000}
              value={daily}
              onChange={(e) => setDaily(Number(e.target.value))}
            />
          </Field>
        </div>
        {fees.map((fee, index) => (
          <div className="content-grid" key={fee.channel}>
            <Field id={`fee-bps-${index}`} label={t('site.fee_bps', { channel: fee.channel.toUpperCase() })}>
              <input
                id={`fee-bps-${index}`}
                type="number"
                min={0}
                max={10000}
                value={fee.fee_bps}
                onChange={(e) =>
                  setFees(fees.map((f, i) => (i === index ? { ...f, fee_bps: Number(e.target.value) } : f)))
                }
              />
            </Field>
            <Field id={`fee-min-${index}`} label={t('site.fee_min', { channel: fee.channel.toUpperCase() })}>
              <input
                id={`fee-min-${index}`}
                inputMode="decimal"
                value={fee.fee_min}
                onChange={(e) =>
                  setFees(fees.map((f, i) => (i === index ? { ...f, fee_min: e.target.value } : f)))
                }
              />
            </Field>
          </div>
        ))}
        <div className="content-actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={saving}
            data-testid="withdrawals-save"
          >
            {t('content.save')}
          </button>
        </div>
        <Notice notice={notice} testId="withdrawals-notice" />
      </form>
    </Section>
  );
}

/** Site settings: general, deposit channels, withdrawal rules. */
export default function SitePage() {
  const { t } = useTranslation();
  const site = useQuery({
    queryKey: ['admin-site'],
    queryFn: async () => (await api<TSiteSettings>('/admin/site')).data,
  });
  const channels = useQuery({
    queryKey: ['admin-channels'],
    queryFn: async () =>
      (await api<{ channels: TAdminPaymentChannel[]; inherited: boolean }>('/admin/site/payment-channels'))
        .data,
  });
  const rules = useQuery({
    queryKey: ['admin-withdrawal-rules'],
    queryFn: async () => (await api<TWithdrawalRules>('/admin/site/withdrawals')).data,
  });
  // A saved edit comes back through its query: the form starts again from what the server kept.
  const error = site.error ?? channels.error ?? rules.error;
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('site.title')}</h1>
        <p className="muted">
          {site.data
            ? `${site.data.name} · ${site.data.code} · ${t(`site.jurisdictions.${site.data.jurisdiction}`)}`
            : ''}
        </p>
      </header>
      {error && (
        <p className="alert alert--error" role="alert">
          {error.message}
        </p>
      )}
      {site.isLoading && <p className="muted">{t('common.loading')}</p>}
      {site.data && <GeneralForm key={site.dataUpdatedAt} site={site.data} />}
      {channels.data && (
        <ChannelsForm
          key={channels.dataUpdatedAt}
          channels={channels.data.channels}
          inherited={channels.data.inherited}
        />
      )}
      {rules.data && <WithdrawalsForm key={rules.dataUpdatedAt} rules={rules.data} />}
    </div>
  );
}
