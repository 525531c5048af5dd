import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { formatMoney, parseAmountInput } from '../../../lib/format.ts';
import { useSportsFeed } from '../api/sports-feed.ts';
import { summarise, useSlip } from '../slip/slip-state.ts';
import { BetSlipBody } from './bet-slip.tsx';
import { formatOdds } from './labels.ts';
import '../sports.css';

/** From this width the slip is a panel beside the matches; below it, a sheet from the bottom. */
const WIDE = '(min-width: 1024px)';

function useWide(): boolean {
  return useSyncExternalStore(
    (listener) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(WIDE).matches,
    () => false,
  );
}

/** The phone's bar over the bottom navigation: how many selections, the odds, and a way in. */
function SlipBar({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation();
  const slip = useSlip();
  const summary = summarise(slip, (text) => parseAmountInput(text));
  if (slip.picks.length === 0) return null;
  const odds = slip.tab === 'accumulator' ? summary.combinedOdds : (slip.picks[0]?.odds ?? null);
  return (
    <button type="button" className="slip-bar" onClick={onOpen} data-testid="slip-open">
      <span className="slip-bar__count">{slip.picks.length}</span>
      <span className="slip-bar__title">{t('sports.slip.title')}</span>
      <span className="slip-bar__odds">
        {slip.tab === 'accumulator' || slip.picks.length === 1
          ? odds && formatOdds(odds)
          : formatMoney(summary.totalReturn)}
      </span>
      <Icon name="chevron" size={18} />
    </button>
  );
}

/**
 * The frame of the sports pages: the page, the bet slip (a side panel on wide screens, a bar and
 * bottom sheet on phones) and the live prices over the socket while any sports page is open.
 */
export function SportsLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  useSportsFeed();
  const wide = useWide();
  const [open, setOpen] = useState(false);
  const slip = useSlip();
  return (
    <PageFrame
      title={title}
      actions={
        <Link
          to="/sports/my-bets"
          className="icon-button"
          aria-label={t('sports.my_bets.title')}
          title={t('sports.my_bets.title')}
          data-testid="my-bets-link"
        >
          <Icon name="list" />
        </Link>
      }
    >
      <div className="sports">
        <div className="sports__main">{children}</div>
        {wide && (
          <aside className="sports__slip" aria-labelledby="sports-slip-title">
            <h2 id="sports-slip-title" className="sports__slip-title">
              {t('sports.slip.title')}
              {slip.picks.length > 0 && <span className="sports__slip-count">{slip.picks.length}</span>}
            </h2>
            <BetSlipBody />
          </aside>
        )}
      </div>
      {!wide && !open && <SlipBar onOpen={() => setOpen(true)} />}
      {!wide && open && (
        <Modal title={t('sports.slip.title')} onClose={() => setOpen(false)} testId="slip-sheet">
          <BetSlipBody />
        </Modal>
      )}
    </PageFrame>
  );
}
