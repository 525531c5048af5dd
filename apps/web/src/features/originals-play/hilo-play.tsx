import type { TRound } from '@sorte/contract';
import {
  fitsUnderCap,
  hiloCashOutMultiplier,
  hiloStepMultiplier,
  type Multiplier,
  multiply,
} from '@sorte/fairness';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import {
  checkStake,
  formatMinorText,
  localMoney,
  MultiplierStat,
  openingStake,
  RoundLine,
  StakeField,
  shortMultiplier,
  steppedCall,
  type TPlayProps,
  tenThousandthsOf,
  toMinor,
  useSteppedRound,
} from './play-shared.tsx';

export type TCard = { index: number; rank: number; suit: number };
type TStep = { call: string; from: TCard; card: TCard; correct: boolean };

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const SUITS = ['♠', '♥', '♦', '♣'];

export const rankLabel = (rank: number) => RANKS[rank - 1] ?? '?';
export const suitLabel = (suit: number) => SUITS[suit] ?? '?';

/** Ranks (of 13) that win a call from `rank`: "higher or same" and "lower or same". */
export const winningRanks = (rank: number, call: 'higher' | 'lower') =>
  call === 'higher' ? 14 - rank : rank;

/** The cards of a round so far: the first one, then each drawn card with the call made on it. */
export function hiloCards(round: TRound | null): {
  cards: { card: TCard; step: TStep | null }[];
  current: TCard | null;
} {
  const start = round?.outcome.start as TCard | undefined;
  if (!start) return { cards: [], current: null };
  const steps = Array.isArray(round?.outcome.steps) ? (round.outcome.steps as TStep[]) : [];
  const cards = [{ card: start, step: null }, ...steps.map((step) => ({ card: step.card, step }))];
  return { cards, current: cards.at(-1)?.card ?? null };
}

/** The exact fair product of a round's right calls (skips leave it as it is). */
export function hiloFairProduct(round: TRound | null): Multiplier {
  const steps = Array.isArray(round?.outcome.steps) ? (round.outcome.steps as TStep[]) : [];
  let fair: Multiplier = { num: 1n, den: 1n };
  for (const step of steps) {
    if (step.correct && (step.call === 'higher' || step.call === 'lower')) {
      fair = multiply(fair, hiloStepMultiplier(step.from.rank, step.call));
    }
  }
  return fair;
}

function PlayingCard({ card, small = false }: { card: TCard; small?: boolean }) {
  const red = card.suit === 1 || card.suit === 2;
  return (
    <span
      className={`hilo-card${red ? ' is-red' : ''}${small ? ' is-small' : ''}`}
      data-rank={card.rank}
      data-suit={card.suit}
    >
      <span className="hilo-card__rank">{rankLabel(card.rank)}</span>
      <span className="hilo-card__suit">{suitLabel(card.suit)}</span>
    </span>
  );
}

/** Hi-Lo: call whether the next card is higher or lower (or the same); cash out after any right call. */
export function HiloPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [amount, setAmount] = useState(() => openingStake(min, { game: 'hilo' }, max));
  // A round left open (reload, another tab) is resumed on the card it stopped at.
  const { round, busy, run } = useSteppedRound<'start' | 'call' | 'cashout'>('hilo', { demo, onBalance });

  const active = round?.status === 'active';
  const stake = checkStake(amount, min, max, { game: 'hilo' });
  const { cards, current } = hiloCards(round);
  const canCashOut = active && round.outcome.canCashOut === true;
  const lost = round?.status === 'settled' && round.outcome.lost === true;
  // What the round pays now: 0.99 × the fair product of the right calls (0.99 before any call).
  const base = canCashOut ? tenThousandthsOf(round.multiplier) : 9_900n;
  const cashOutAmount = active ? formatMinorText(((toMinor(round.stake) ?? 0n) * base) / 10_000n) : '0.00';

  const start = () => {
    if (busy || stake.minor === null) return;
    const body = { amount: formatMinorText(stake.minor) };
    const idempotencyKey = crypto.randomUUID();
    void run('start', () => steppedCall('hilo/start', { demo, body, idempotencyKey }), true);
  };
  const makeCall = (call: 'higher' | 'lower' | 'skip') => {
    if (busy || !round || !active) return;
    void run('call', () => steppedCall('hilo/call', { demo, body: { round_id: round.id, call } }));
  };
  const cashOut = () => {
    if (busy || !round || !canCashOut) return;
    void run('cashout', () => steppedCall('hilo/cashout', { demo, body: { round_id: round.id } }));
  };

  // A call whose win would pass the max win is not offered (the server refuses it): cash out.
  const maxWin = toMinor(launch.game.max_win);
  const pastCap = (call: 'higher' | 'lower') => {
    if (!active || !current || maxWin === null) return false;
    const next = multiply(hiloFairProduct(round), hiloStepMultiplier(current.rank, call));
    return !fitsUnderCap(toMinor(round.stake) ?? 0n, hiloCashOutMultiplier(next), maxWin);
  };
  const capped = pastCap('higher') || pastCap('lower');

  const option = (call: 'higher' | 'lower') => {
    if (!current) return null;
    const wins = winningRanks(current.rank, call);
    const next = (base * 13n) / BigInt(wins);
    return {
      chance: formatNumber(Math.floor((wins * 10_000) / 13) / 100),
      multiplier: shortMultiplier(`${next / 10_000n}.${String(next % 10_000n).padStart(4, '0')}`),
    };
  };

  return (
    <section className="card play hilo" data-testid="hilo-play">
      <div className="hilo__table" data-testid="hilo-result" aria-live="polite">
        <div className="hilo__current">
          {current ? (
            <span key={`${cards.length}-${current.index}`} className="hilo__flip">
              <PlayingCard card={current} />
            </span>
          ) : (
            <span className="hilo-card is-back" aria-hidden="true" />
          )}
        </div>
        <div className="hilo__status">
          <MultiplierStat
            label={t('play.mines.current')}
            value={!round ? null : shortMultiplier(active && !canCashOut ? '0.99' : round.multiplier)}
          />
          {active && !canCashOut && <span className="play-label">{t('play.hilo.first_call')}</span>}
          {!active && <RoundLine round={round} />}
          {lost && <span className="play-line is-loss">{t('play.hilo.wrong')}</span>}
        </div>
      </div>
      {cards.length > 1 && (
        <ol className="hilo__history" aria-label={t('play.hilo.history')}>
          {cards.map(({ card, step }) => (
            <li
              key={`${card.index}-${step?.from.index ?? 's'}-${step?.call ?? ''}`}
              className={step && !step.correct ? 'is-wrong' : ''}
            >
              {step && (
                <span className="hilo__call">
                  {step.call === 'higher' ? '▲' : step.call === 'lower' ? '▼' : '»'}
                </span>
              )}
              <PlayingCard card={card} small />
            </li>
          ))}
        </ol>
      )}
      {active ? (
        <>
          <div className="hilo__calls">
            {(['higher', 'lower'] as const).map((call) => {
              const info = option(call);
              return (
                <button
                  key={call}
                  type="button"
                  className="button button--ghost hilo__call-button"
                  data-testid={`hilo-${call}`}
                  disabled={busy !== null || pastCap(call)}
                  onClick={() => makeCall(call)}
                >
                  <span>
                    {call === 'higher' ? '▲ ' : '▼ '}
                    {t(`play.hilo.${call}`)}
                  </span>
                  {info && <small>{t('play.hilo.chance', info)}</small>}
                </button>
              );
            })}
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="hilo-skip"
              disabled={busy !== null}
              onClick={() => makeCall('skip')}
            >
              {t('play.hilo.skip')}
            </button>
          </div>
          {capped && maxWin !== null && (
            <p className="play-error" role="status" data-testid="hilo-max-win">
              {t('play.rule.max_win_reached', { max_win: localMoney(maxWin) })}
            </p>
          )}
          <button
            type="button"
            className="button button--primary button--block button--large"
            data-testid="hilo-cashout"
            disabled={busy !== null || !canCashOut}
            onClick={cashOut}
          >
            {canCashOut
              ? t('play.hilo.cash_out', { amount: formatMoney(cashOutAmount) })
              : t('play.hilo.first_call')}
          </button>
        </>
      ) : (
        <>
          <StakeField
            game="hilo"
            value={amount}
            onChange={setAmount}
            min={min}
            max={max}
            disabled={busy !== null}
            error={stake.error}
            fix={stake.fix}
          />
          <button
            type="button"
            className="button button--primary button--block button--large"
            data-testid="hilo-bet"
            disabled={busy !== null || stake.minor === null}
            onClick={start}
          >
            {busy === 'start' ? t('play.playing') : t('play.hilo.start')}
          </button>
        </>
      )}
    </section>
  );
}
