import type { TRecentWinsResponse } from '@sorte/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client.ts';
import { formatMoney, formatMultiplier } from '../../../lib/format.ts';

/** The feed is read again this often while the game is open. */
const REFRESH_MS = 5000;
const SHOWN = 10;

/**
 * The latest real wins on this game (settled real-money rounds of this site, names masked), as the
 * leading sites show beside their own games. Never invented: an empty feed says so.
 */
export function RecentWins({ game }: { game: string }) {
  const { t } = useTranslation();
  const wins = useQuery<TRecentWinsResponse>({
    queryKey: ['games', 'recent-wins', game],
    queryFn: ({ signal }) => api.get('/api/games/recent-wins', { query: { game }, signal, silent: true }),
    refetchInterval: REFRESH_MS,
  });
  const list = wins.data?.list.slice(0, SHOWN) ?? [];
  return (
    <section className="card recent-wins" aria-labelledby={`recent-wins-${game}`} data-testid="recent-wins">
      <h2 className="card__title" id={`recent-wins-${game}`}>
        {t('lobby.recent_wins')}
      </h2>
      {wins.isError ? (
        <p className="recent-wins__empty">{t('lobby.load_fail')}</p>
      ) : list.length === 0 ? (
        <p className="recent-wins__empty">{wins.isPending ? '…' : t('lobby.recent_wins_none')}</p>
      ) : (
        <ul className="recent-wins__list">
          {list.map((win) => (
            <li key={win.id} className="recent-wins__row" data-testid="recent-win">
              <span className="recent-wins__player">{win.player}</span>
              <span className="recent-wins__multiplier">{formatMultiplier(win.multiplier)}</span>
              <strong className="recent-wins__payout">{formatMoney(win.payout)}</strong>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
