import type { TGame } from '@sorte/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Deferred } from '../../../components/deferred.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadFail } from '../../../components/load-fail.tsx';
import { useHasToken } from '../../../lib/session.ts';
import { toCategoryCode, useGameSection, useGamesList, useRecentGames } from '../api/games-api.ts';
import { GameGrid } from './game-tile.tsx';
import '../games.css';

const HOME_PAGE_SIZE = 12;

/** The first page of one home category tab, with "more" leading to the full lobby. */
export function CategoryGames({ category }: { category: string }) {
  const { t } = useTranslation();
  const code = toCategoryCode(category);
  const list = useGamesList(
    { category: code ?? undefined, page: 1, page_size: HOME_PAGE_SIZE },
    code !== null,
  );
  const games = list.data?.list ?? [];
  if (list.isError) return <LoadFail onRetry={() => void list.refetch()} />;
  if (code === null || (!list.isPending && games.length === 0)) {
    return <EmptyState message={t('empty.games')} icon="game" />;
  }
  return (
    <div className="game-section">
      <GameGrid games={games} loading={list.isPending} emptyMessage={t('empty.games')} />
      {(list.data?.total ?? 0) > games.length && (
        <Link className="button button--ghost button--block" to={`/game?category=${code}`}>
          {t('lobby.more')}
        </Link>
      )}
    </div>
  );
}

function GameRow({ title, games, more }: { title: string; games: readonly TGame[]; more?: string }) {
  const { t } = useTranslation();
  if (games.length === 0) return null;
  return (
    <section className="game-row" aria-label={title}>
      <header className="game-row__header">
        <h2 className="game-row__title">{title}</h2>
        {more && (
          <Link className="game-row__more" to={more}>
            {t('lobby.more')}
          </Link>
        )}
      </header>
      <div className="game-row__strip">
        <GameGrid games={games} loading={false} emptyMessage="" />
      </div>
    </section>
  );
}

/** A home row's height: games.css's 209 px row and its 20 px top margin. */
const ROW_HEIGHT = 229;

/**
 * Home rows under the category tabs: popular, new releases and (for members) recently played.
 * They are below the fold: their lists are asked for at once, and each row is drawn in a render of
 * its own once its list has arrived and it comes near the viewport (its two dozen pictures are not
 * fetched and drawn while the first screen is), in a placeholder of its height until then (no
 * layout shift).
 */
export function HomeGameRows() {
  const { t } = useTranslation();
  const hasToken = useHasToken();
  const popular = useGameSection('popular');
  const fresh = useGameSection('promotion');
  const recent = useRecentGames();
  return (
    <>
      {hasToken && (
        <Deferred ready={!recent.isPending} placeholderHeight={ROW_HEIGHT}>
          <GameRow title={t('categories.recent')} games={recent.data?.list ?? []} />
        </Deferred>
      )}
      <Deferred ready={!popular.isPending} placeholderHeight={ROW_HEIGHT}>
        <GameRow title={t('categories.popular')} games={popular.data?.list ?? []} more="/game?tag=popular" />
      </Deferred>
      <Deferred ready={!fresh.isPending} placeholderHeight={ROW_HEIGHT}>
        <GameRow title={t('categories.new')} games={fresh.data?.list ?? []} more="/game?tag=new" />
      </Deferred>
    </>
  );
}
