import type { TGame } from '@sorte/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { formatPercent } from '../../../lib/format.ts';
import { useGamesList } from '../api/games-api.ts';
import '../games.css';

/** Results show after this pause in typing: one call per pause, not one per key. */
const TYPING_PAUSE_MS = 200;
const INSTANT_RESULTS = 8;

function useDebounced(value: string, delayMs: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * Search as the leading sites have it: a field at the top of the screen, results while typing (the
 * first matches with artwork, studio and RTP), Enter or "see all" for the full results page.
 */
export default function SearchPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState('');
  const name = useDebounced(draft.trim(), TYPING_PAUSE_MS);
  const results = useGamesList({ name, page_size: INSTANT_RESULTS }, name.length > 0);
  const close = useRef(onClose);
  close.current = onClose;
  const opened = useRef(`${pathname}${search}`);

  useEffect(() => {
    input.current?.focus({ preventScroll: true });
  }, []);
  // Following a result (or the browser's back) closes the panel.
  useEffect(() => {
    if (`${pathname}${search}` !== opened.current) close.current();
  }, [pathname, search]);

  const list: readonly TGame[] = name ? (results.data?.list ?? []) : [];
  const showAll = () => {
    const text = draft.trim();
    navigate(text ? `/searchGames?name=${encodeURIComponent(text)}` : '/searchGames');
    onClose();
  };

  return (
    <Modal title={t('pages.search_games')} onClose={onClose} testId="search-panel" placement="top">
      <form
        className="search-panel__form"
        onSubmit={(event) => {
          event.preventDefault();
          showAll();
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          {t('lobby.search_placeholder')}
        </label>
        <input
          ref={input}
          id={inputId}
          type="search"
          enterKeyHint="search"
          className="search-panel__input"
          data-testid="header-search-input"
          value={draft}
          maxLength={64}
          autoComplete="off"
          placeholder={t('lobby.search_placeholder')}
          onChange={(event) => setDraft(event.target.value)}
        />
      </form>
      <div className="search-panel__results" aria-live="polite" aria-busy={name !== '' && results.isFetching}>
        {name !== '' && !results.isPending && list.length === 0 && (
          <p className="search-panel__empty" role="status">
            {results.isError ? t('lobby.load_fail') : t('empty.search')}
          </p>
        )}
        {list.length > 0 && (
          <ul className="search-panel__list" data-testid="header-search-results">
            {list.map((game) => (
              <li key={game.id}>
                <Link
                  to={`/gameInfo?game=${encodeURIComponent(game.code)}`}
                  className="search-result"
                  data-testid="header-search-result"
                  data-game={game.code}
                >
                  <img src={game.thumbnail} alt="" width="48" height="48" loading="lazy" />
                  <span className="search-result__text">
                    <strong>{game.name}</strong>
                    <small>
                      {game.provider_name} · {t('lobby.rtp_short')} {formatPercent(game.rtp)}
                    </small>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        {name !== '' && (results.data?.total ?? 0) > list.length && (
          <button type="button" className="button button--ghost search-panel__all" onClick={showAll}>
            {t('lobby.search_see_all', { count: results.data?.total ?? 0 })}
          </button>
        )}
      </div>
    </Modal>
  );
}
