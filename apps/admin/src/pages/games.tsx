import { useInvalidate } from '@refinedev/core';
import { GAME_CATEGORIES, GAME_TAGS, type TAdminGame } from '@sorte/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/data-table.tsx';
import { Field, Notice, useSave } from './content-kit.tsx';

/** One game's place in this site's lobby: on/off, order, category and tags. */
function GamePanel({ game, onClose }: { game: TAdminGame; onClose: () => void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const [enabled, setEnabled] = useState(game.enabled);
  const [position, setPosition] = useState(game.position);
  const [category, setCategory] = useState(game.category);
  const [tags, setTags] = useState<string[]>(game.tags);
  const { save, saving, notice } = useSave<Record<string, unknown>>(`/admin/games/${game.id}`, 'PATCH');
  const panel = useRef<HTMLElement>(null);
  // On a phone the panel opens below the list: bring it into view.
  useEffect(() => {
    if (window.matchMedia('(max-width: 900px)').matches) panel.current?.scrollIntoView({ block: 'start' });
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save(
      { enabled, position, category, tags },
      { onSuccess: () => void invalidate({ resource: 'games', invalidates: ['list'] }) },
    );
  };
  return (
    <aside ref={panel} className="card panel" aria-label={game.name} data-testid="game-panel">
      <header className="panel__header">
        <div>
          <h2>{game.name}</h2>
          <code className="muted">
            {game.code} · {game.provider_name}
          </code>
        </div>
        <button
          type="button"
          className="button button--ghost"
          onClick={onClose}
          aria-label={t('common.close')}
        >
          ✕
        </button>
      </header>
      <img src={game.thumbnail} alt="" width={96} height={96} style={{ borderRadius: 8 }} />
      {!game.catalogue_enabled && <p className="alert alert--error">{t('games.catalogue_off')}</p>}
      <form onSubmit={submit}>
        <div className="checks field">
          <label>
            <input
              type="checkbox"
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              data-testid="game-enabled"
            />
            {t('games.enabled_here')}
          </label>
        </div>
        <Field id="game-position" label={t('games.position')} hint={t('games.position_hint')}>
          <input
            id="game-position"
            type="number"
            min={0}
            value={position}
            onChange={(e) => setPosition(Number(e.target.value))}
          />
        </Field>
        <Field id="game-category" label={t('games.category')}>
          <select
            id="game-category"
            value={category}
            onChange={(e) => setCategory(e.target.value as TAdminGame['category'])}
          >
            {GAME_CATEGORIES.map((code) => (
              <option key={code} value={code}>
                {t(`games.categories.${code}`)}
              </option>
            ))}
          </select>
        </Field>
        <div className="field">
          <span className="field__label">{t('games.tags')}</span>
          <div className="checks">
            {GAME_TAGS.map((tag) => (
              <label key={tag}>
                <input
                  type="checkbox"
                  checked={tags.includes(tag)}
                  onChange={(e) => setTags(e.target.checked ? [...tags, tag] : tags.filter((x) => x !== tag))}
                />
                {t(`games.tag.${tag}`)}
              </label>
            ))}
          </div>
        </div>
        <button type="submit" className="button button--primary" disabled={saving} data-testid="game-save">
          {t('content.save')}
        </button>
        <Notice notice={notice} testId="game-notice" />
      </form>
    </aside>
  );
}

/** The game catalogue as this site's lobby shows it; click a game to change its place. */
export default function GamesPage() {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<TAdminGame | null>(null);
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('games.title')}</h1>
        <p className="muted">{t('games.subtitle')}</p>
      </header>
      <div className={`split${selected ? ' split--open' : ''}`}>
        <DataTable<TAdminGame>
          resource="games"
          path="/admin/games"
          csvName="games"
          rowKey={(row) => row.id}
          selectedKey={selected?.id ?? null}
          onRowClick={(row) => setSelected(row)}
          filters={[
            { field: 'search', label: t('games.filter.search'), type: 'text' },
            {
              field: 'category',
              label: t('games.category'),
              type: 'select',
              options: [
                { value: '', label: t('games.filter.any') },
                ...GAME_CATEGORIES.map((code) => ({ value: code, label: t(`games.categories.${code}`) })),
              ],
            },
            {
              field: 'enabled',
              label: t('games.filter.state'),
              type: 'select',
              options: [
                { value: '', label: t('games.filter.any') },
                { value: 'true', label: t('games.on') },
                { value: 'false', label: t('games.off') },
              ],
            },
            { field: 'provider', label: t('games.filter.provider'), type: 'text' },
          ]}
          columns={[
            { key: 'position', header: t('games.position'), align: 'right' },
            {
              key: 'name',
              header: t('games.name'),
              render: (row) => (
                <span>
                  <strong>{row.name}</strong> <code className="muted">{row.code}</code>
                </span>
              ),
            },
            { key: 'provider_name', header: t('games.provider') },
            {
              key: 'category',
              header: t('games.category'),
              render: (row) => t(`games.categories.${row.category}`),
            },
            {
              key: 'tags',
              header: t('games.tags'),
              render: (row) => (
                <span className="badges">
                  {row.tags.map((tag) => (
                    <span key={tag} className="badge badge--info">
                      {t(`games.tag.${tag}`)}
                    </span>
                  ))}
                </span>
              ),
            },
            {
              key: 'enabled',
              header: t('games.state'),
              render: (row) => (
                <span className={`badge badge--${row.enabled ? 'ok' : 'bad'}`}>
                  {row.enabled ? t('games.on') : t('games.off')}
                </span>
              ),
            },
          ]}
        />
        {selected && <GamePanel key={selected.id} game={selected} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
