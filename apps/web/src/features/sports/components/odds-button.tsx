import type { TSportsEvent, TSportsMarket, TSportsSelection } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon.tsx';
import { compareDecimal } from '../slip/odds-math.ts';
import { togglePick, updateSlip, useSlip } from '../slip/slip-state.ts';
import { formatOdds, marketName, matchName, selectionLabel } from './labels.ts';

/** How long a moved price stays lit green (up) or red (down). */
const FLASH_MS = 2_000;

/** Which way a value moved since the last render, for a moment. */
function useFlash(odds: string): 'up' | 'down' | null {
  const previous = useRef(odds);
  const [flash, setFlash] = useState<'up' | 'down' | null>(null);
  useEffect(() => {
    const direction = compareDecimal(odds, previous.current);
    previous.current = odds;
    if (direction === 0) return;
    setFlash(direction > 0 ? 'up' : 'down');
    const timer = setTimeout(() => setFlash(null), FLASH_MS);
    return () => clearTimeout(timer);
  }, [odds]);
  return flash;
}

/**
 * One price: tapping puts the selection in the bet slip (or takes it out). A suspended market's
 * prices are locked; a price pushed live flashes the way it moved.
 */
export function OddsButton({
  event,
  market,
  selection,
  short = false,
}: {
  event: TSportsEvent;
  market: TSportsMarket;
  selection: TSportsSelection;
  short?: boolean;
}) {
  const { t } = useTranslation();
  const slip = useSlip();
  const flash = useFlash(selection.odds);
  const picked = slip.picks.some((pick) => pick.selectionId === selection.id);
  const locked = market.status !== 'open' || (event.status !== 'scheduled' && event.status !== 'live');
  const label = selectionLabel(selection.code, event, t, short);
  const context = short
    ? `${matchName(event, t)} · ${marketName(market.type, t)} · ${selectionLabel(selection.code, event, t)}`
    : `${matchName(event, t)} · ${marketName(market.type, t)}`;
  const toggle = () =>
    updateSlip((state) =>
      togglePick(state, {
        selectionId: selection.id,
        eventId: event.id,
        eventName: matchName(event, t),
        homeTeam: event.home_team,
        awayTeam: event.away_team,
        marketKind: market.type,
        selectionCode: selection.code,
        odds: selection.odds,
      }),
    );
  return (
    <button
      type="button"
      className={`odds${picked ? ' is-picked' : ''}${flash ? ` is-${flash}` : ''}${locked ? ' is-locked' : ''}${selection.result === 'won' ? ' is-won' : ''}`}
      aria-pressed={picked}
      disabled={locked}
      onClick={toggle}
      data-testid="odds-button"
      data-selection-id={selection.id}
    >
      {/* Screen readers hear which match and market the price belongs to; the visible text stays
          the end of the name, as it reads on screen. */}
      <span className="visually-hidden">{`${context}: `}</span>
      <span className="odds__label">{label}</span>
      <span className="odds__price">
        {selection.result === 'won' ? (
          <>
            <Icon name="check" size={16} />
            <span className="visually-hidden">{t('sports.leg_status.won')}</span>
          </>
        ) : locked ? (
          <>
            <Icon name="lock" size={16} />
            <span className="visually-hidden">{t('sports.suspended')}</span>
          </>
        ) : (
          <>
            {formatOdds(selection.odds)}
            {flash && (
              <>
                <span className={`odds__arrow odds__arrow--${flash}`} aria-hidden="true" />
                <span className="visually-hidden">{` (${t(`sports.moved_${flash}`)})`}</span>
              </>
            )}
          </>
        )}
      </span>
    </button>
  );
}
