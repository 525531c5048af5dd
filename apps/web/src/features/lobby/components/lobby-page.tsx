import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadFail } from '../../../components/load-fail.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useHasToken } from '../../../lib/session.ts';
import {
  CATEGORY_CODES,
  type TCategoryCode,
  type TListQuery,
  toCategoryCode,
  useFavorites,
  useGamesList,
  useProviders,
} from '../../games/api/games-api.ts';
import { GameGrid } from '../../games/components/game-tile.tsx';
import '../../games/games.css';

const PAGE_SIZE = 24;
const FAVORITES = 'favorites';
const TAGS = ['popular', 'new', 'hot'] as const;

function Pager({
  page,
  lastPage,
  onPage,
}: {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (lastPage <= 1) return null;
  return (
    <nav className="lobby-pager" aria-label={t('lobby.paging')}>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        {t('lobby.previous')}
      </button>
      <span>{t('lobby.page_of', { page, total: lastPage })}</span>
      <button
        type="button"
        className="button button--ghost button--small"
        disabled={page >= lastPage}
        onClick={() => onPage(page + 1)}
      >
        {t('lobby.next')}
      </button>
    </nav>
  );
}

/** The search box: searches once the player pauses typing (one call, not one per key). */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (text: string) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const latest = useRef(onSearch);
  latest.current = onSearch;
  useEffect(() => {
    const timer = setTimeout(() => latest.current(draft.trim()), 350);
    return () => clearTimeout(timer);
  }, [draft]);
  return (
    <input
      type="search"
      data-testid="search-input"
      value={draft}
      maxLength={64}
      placeholder={t('lobby.search_placeholder')}
      aria-label={t('lobby.search_placeholder')}
      onChange={(event) => setDraft(event.target.value)}
    />
  );
}

function FavoriteGames() {
  const { t } = useTranslation();
  const favorites = useFavorites();
  // A list that failed to load is not an empty list: "no favourites yet" would be wrong.
  if (favorites.isError) return <LoadFail onRetry={() => void favorites.refetch()} />;
  return (
    <GameGrid
      games={favorites.data?.list ?? []}
      loading={favorites.isPending}
      emptyMessage={t('lobby.no_favorites')}
    />
  );
}

function CatalogueGames({ query, onPage }: { query: TListQuery; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const list = useGamesList({ ...query, page_size: PAGE_SIZE });
  const emptyKey = query.name ? 'empty.search' : 'empty.games';
  return (
    <>
      {list.isError ? (
        <LoadFail onRetry={() => void list.refetch()} />
      ) : (
        <GameGrid games={list.data?.list ?? []} loading={list.isPending} emptyMessage={t(emptyKey)} />
      )}
      <Pager page={list.data?.page ?? 1} lastPage={list.data?.last_page ?? 1} onPage={onPage} />
    </>
  );
}

/** The lobby's category tabs; the chosen one scrolls into view (a deep link to the tenth one too). */
function CategoryTabList({
  tabs,
  active,
  onSelect,
}: {
  tabs: readonly string[];
  active: string;
  onSelect: (code: string) => void;
}) {
  const { t } = useTranslation();
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const strip = list.current;
    const tab = strip?.querySelector<HTMLElement>(`[data-tab="${active || 'all'}"]`);
    // Centres the tab inside the strip only; scrollIntoView would move the page as well.
    if (!strip || !tab) return;
    const box = strip.getBoundingClientRect();
    const item = tab.getBoundingClientRect();
    strip.scrollLeft += item.left - box.left - (box.width - item.width) / 2;
  }, [active]);
  return (
    <div
      ref={list}
      className="tabs tabs--scroll lobby__tabs"
      role="tablist"
      aria-label={t('home.categories')}
    >
      {tabs.map((code) => (
        <button
          key={code || 'all'}
          data-tab={code || 'all'}
          type="button"
          role="tab"
          aria-selected={code === active}
          className={`tabs__tab${code === active ? ' is-active' : ''}`}
          onClick={() => onSelect(code)}
        >
          {code === '' ? t('lobby.all') : t(`categories.${code}`)}
        </button>
      ))}
    </div>
  );
}

/**
 * `/game` (every category, provider filter, paging, favourites), `/video` (live casino only) and
 * `/searchGames` (search by name). The choices live in the URL so a link or a reload keeps them.
 */
export function LobbyPage({
  mode,
  categoryLead,
}: {
  mode: 'all' | 'live' | 'search';
  /** What leads a category's games (the app puts the sportsbook's way in above the sports category). */
  categoryLead?: (category: TCategoryCode) => ReactNode;
}) {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  const [params, setParams] = useSearchParams();
  const providers = useProviders();
  const categoryParam = params.get('category') ?? '';
  const category: TCategoryCode | undefined =
    mode === 'live' ? 'live_casino' : (toCategoryCode(categoryParam) ?? undefined);
  const showFavorites = mode === 'all' && categoryParam === FAVORITES;
  const tagParam = params.get('tag');
  const tag = TAGS.find((item) => item === tagParam);
  const provider = params.get('provider') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const name = params.get('name') ?? '';

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  const title = t(mode === 'live' ? 'pages.video' : mode === 'search' ? 'pages.search_games' : 'pages.game');
  // Favourites right after "All": at the end of ten categories a phone would never show the tab.
  const tabs: string[] = ['', ...(hasToken ? [FAVORITES] : []), ...CATEGORY_CODES];
  const activeTab = showFavorites ? FAVORITES : (category ?? '');
  return (
    <PageFrame title={title}>
      {mode === 'all' && (
        <CategoryTabList
          tabs={tabs}
          active={activeTab}
          onSelect={(code) => update({ category: code || null })}
        />
      )}
      {!showFavorites && (
        <div className="lobby-filters">
          {mode !== 'live' && (
            <SearchBox
              initial={name}
              onSearch={(text) => {
                if (text !== name) update({ name: text || null });
              }}
            />
          )}
          <select
            value={provider}
            aria-label={t('lobby.provider')}
            onChange={(event) => update({ provider: event.target.value || null })}
          >
            <option value="">{t('lobby.all_providers')}</option>
            {(providers.data?.list ?? []).map((item) => (
              <option key={item.code} value={item.code}>
                {item.name}
              </option>
            ))}
          </select>
          {mode !== 'search' && (
            // Popular and new releases (the home rows' "More") are a filter the player can see and undo.
            <select
              value={tag ?? ''}
              data-testid="lobby-tag"
              aria-label={t('lobby.tag_filter')}
              onChange={(event) => update({ tag: event.target.value || null })}
            >
              <option value="">{t('lobby.all_games')}</option>
              {TAGS.map((item) => (
                <option key={item} value={item}>
                  {t(`categories.${item}`)}
                </option>
              ))}
            </select>
          )}
        </div>
      )}
      {category && categoryLead?.(category)}
      {showFavorites ? (
        <FavoriteGames />
      ) : (
        <CatalogueGames
          query={{ category, provider: provider || undefined, tag, name: name || undefined, page }}
          onPage={(next) => {
            update({ page: String(next) });
            // The pager sits under the grid: the next page starts at its first game, not its last.
            window.scrollTo(0, 0);
          }}
        />
      )}
    </PageFrame>
  );
}

export function GamesRoute() {
  return <LobbyPage mode="all" />;
}
export function VideoRoute() {
  return <LobbyPage mode="live" />;
}
export function SearchRoute() {
  return <LobbyPage mode="search" />;
}
