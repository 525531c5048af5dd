import { GAME_CATEGORIES, type TAdminCampaign } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api.ts';
import { Notice, Section, type TNotice, useSave } from './content-kit.tsx';

const KEY = ['admin-promotions'];

/** The campaign's rules as data (ADR 012), edited as JSON and checked by the server. */
function RulesEditor({ campaign }: { campaign: TAdminCampaign }) {
  const { t } = useTranslation();
  const [text, setText] = useState(JSON.stringify(campaign.rules, null, 2));
  const [parseNotice, setParseNotice] = useState<TNotice>(null);
  const { save, saving, notice } = useSave<Record<string, unknown>>(
    `/admin/promotions/${campaign.code}`,
    'PATCH',
    [KEY],
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      const rules = JSON.parse(text) as unknown;
      setParseNotice(null);
      save({ rules });
    } catch {
      setParseNotice({ tone: 'error', text: t('promotions.bad_json') });
    }
  };
  return (
    <form onSubmit={submit}>
      <label className="field" htmlFor={`rules-${campaign.code}`}>
        <span className="field__label">{t('promotions.rules')}</span>
        <textarea
          id={`rules-${campaign.code}`}
          className="code-editor"
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <span className="field__hint">{t('promotions.rules_hint')}</span>
        <span className="field__hint" data-testid={`category-keys-${campaign.code}`}>
          {t('promotions.category_keys', { keys: GAME_CATEGORIES.join(', ') })}
        </span>
      </label>
      <button type="submit" className="button button--primary" disabled={saving}>
        {t('content.save')}
      </button>
      <Notice notice={parseNotice ?? notice} />
    </form>
  );
}

function CampaignCard({ campaign }: { campaign: TAdminCampaign }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { save, saving, notice } = useSave<Record<string, unknown>>(
    `/admin/promotions/${campaign.code}`,
    'PATCH',
    [KEY],
  );
  const trigger = t(`promotions.trigger.${campaign.rules.trigger}`);
  return (
    <Section
      title={t(`promotions.campaign.${campaign.code}`, { defaultValue: campaign.code })}
      testId={`campaign-${campaign.code}`}
    >
      <p className="badges">
        <span className={`badge badge--${campaign.enabled ? 'ok' : 'bad'}`}>
          {campaign.enabled ? t('promotions.on') : t('promotions.off')}
        </span>
        <span className="badge badge--info">{trigger}</span>
        <span className="badge badge--info">{t(`promotions.activation.${campaign.rules.activation}`)}</span>
        {campaign.deposit_tied && <span className="badge badge--warn">{t('promotions.deposit_tied')}</span>}
        <code className="muted">{campaign.code}</code>
      </p>
      {!campaign.enabled &&
        campaign.off_reason_text &&
        campaign.off_reason_text !== campaign.forbidden_reason && (
          <p className="muted">
            {t('promotions.players_see')}: {campaign.off_reason_text}
          </p>
        )}
      {campaign.forbidden_reason && <p className="alert alert--error">{campaign.forbidden_reason}</p>}
      <div className="content-actions">
        {campaign.enabled ? (
          <button
            type="button"
            className="button button--danger"
            disabled={saving}
            onClick={() => save({ enabled: false })}
            data-testid={`pause-${campaign.code}`}
          >
            {t('promotions.pause')}
          </button>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={saving || Boolean(campaign.forbidden_reason)}
            onClick={() => save({ enabled: true })}
            data-testid={`resume-${campaign.code}`}
          >
            {t('promotions.resume')}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
        >
          {open ? t('promotions.hide_rules') : t('promotions.edit_rules')}
        </button>
      </div>
      <Notice notice={notice} testId={`campaign-notice-${campaign.code}`} />
      {open && <RulesEditor campaign={campaign} />}
    </Section>
  );
}

/** The site's campaigns: pause or resume each, edit its rules; the jurisdiction's limits shown. */
export default function PromotionsPage() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: KEY,
    queryFn: async () => (await api<{ list: TAdminCampaign[] }>('/admin/promotions')).data.list,
  });
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('promotions.title')}</h1>
        <p className="muted">{t('promotions.subtitle')}</p>
      </header>
      {list.error && (
        <p className="alert alert--error" role="alert">
          {list.error.message}
        </p>
      )}
      {list.isLoading && <p className="muted">{t('common.loading')}</p>}
      {list.data?.map((campaign) => (
        <CampaignCard key={`${campaign.code}${list.dataUpdatedAt}`} campaign={campaign} />
      ))}
    </div>
  );
}
