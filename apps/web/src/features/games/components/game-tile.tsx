import type { TGame } from '@sorte/contract';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openModal } from '../../../lib/auth-modal.ts';
import { formatPercent } from '../../../lib/format.ts';
import { useHasToken } from '../../../lib/session.ts';
import { useFavorites, useToggleFavorite } from '../api/games-api.ts';

/** The heart's look: filled when the game is a favourite. */
function Heart({ game, isFavorite, onClick }: { game: TGame; isFavorite: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={`game-tile__heart${isFavorite ? ' is-active' : ''}`}
      data-testid="favorite-toggle"
      aria-pressed={isFavorite}
      aria-label={t(isFavorite ? 'lobby.favorite_remove' : 'lobby.favorite_add', { name: game.name })}
      onClick={onClick}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z"
          fill={isFavorite ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

/** A member's heart: the click toggles it at once. */
function MemberHeart({ game }: { game: TGame }) {
  const favorites = useFavorites();
  const toggle = useToggleFavorite();
  const isFavorite = (favorites.data?.list ?? []).some((item) => item.id === game.id);
  return (
    <Heart
      game={game}
      isFavorite={isFavorite}
      onClick={() => toggle.mutate({ game, favorite: !isFavorite })}
    />
  );
}

/**
 * Heart of one game: a member's click toggles it at once, a guest is asked to log in. A guest's
 * heart watches no favourites list and no mutation (a lobby page draws two dozen of them at start).
 */
export function FavoriteToggle({ game }: { game: TGame }) {
  const hasToken = useHasToken();
  if (hasToken) return <MemberHeart game={game} />;
  return <Heart game={game} isFavorite={false} onClick={() => openModal('login')} />;
}

/**
 * One game: thumbnail, name, provider and RTP; opens through the /gameInfo relay. Drawn again only
 * when its game changes (a page redrawn for another reason, e.g. the provider list arriving beside
 * the lobby's grid, does not redraw two dozen tiles).
 */
export const GameTile = memo(function GameTile({ game }: { game: TGame }) {
  const { t } = useTranslation();
  return (
    <article className="game-tile" data-testid="game-tile" data-game={game.code}>
      <Link to={`/gameInfo?game=${encodeURIComponent(game.code)}`} className="game-tile__link">
        <img
          className="game-tile__image"
          src={game.thumbnail}
          alt=""
          loading="lazy"
          width="160"
          height="160"
        />
        <span className="game-tile__name">{game.name}</span>
        <span className="game-tile__provider">{game.provider_name}</span>
        {/* Under the name: the artwork is the game's picture alone, so the name is printed once. */}
        <span className="game-tile__rtp">{t('lobby.rtp_badge', { rtp: formatPercent(game.rtp) })}</span>
      </Link>
      {/* Over the artwork: the heart (a button cannot sit inside the link). */}
      <div className="game-tile__overlay">
        <FavoriteToggle game={game} />
      </div>
    </article>
  );
});

/** A grid of tiles, with skeletons while loading and the given empty message when there are none. */
export function GameGrid({
  games,
  loading,
  emptyMessage,
}: {
  games: readonly TGame[];
  loading: boolean;
  emptyMessage: string;
}) {
  if (loading && games.length === 0) {
    return (
      <div className="game-grid" aria-hidden="true">
        {Array.from({ length: 6 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <div key={index} className="game-tile game-tile--skeleton" />
        ))}
      </div>
    );
  }
  if (games.length === 0) {
    return (
      <div className="empty-state" role="status">
        <p>{emptyMessage}</p>
      </div>
    );
  }
  return (
    <div className="game-grid">
      {games.map((game) => (
        <GameTile key={game.id} game={game} />
      ))}
    </div>
  );
}
