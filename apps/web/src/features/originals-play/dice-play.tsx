import type { TRound } from '@sorte/contract';
import type { TStakeChoice } from '@sorte/fairness';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChance, formatDecimal, formatMoney, formatMultiplier } from '../../lib/format.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  hundredthsOf,
  openingStake,
  placeBet,
  settleBalance,
  type TPlayProps,
  toMinor,
  useTween,
} from './play-shared.tsx';

const OUTCOMES = 10_000;
const DICE_OPENING = {
  game: 'dice',
  bet: { direction: 'under', target: 4_950 },
} as const satisfies TStakeChoice;
const MIN_WINS = 100;
const MAX_WINS = 9_800;

/** Winning rolls (of 10,000) for a bet: "under t" wins below t, "over t" above it. */
export const winningRolls = (direction: 'under' | 'over', target: number) =>
  direction === 'under' ? target : OUTCOMES - 1 - target;

export { formatMinorText, toMinor };

/** Payout multiplier 9900 / wins, floored to 4 decimals, as text. */
export function multiplierText(wins: number): string {
  const tenThousandths = Math.floor((9_900 * 10_000) / wins);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}

/** Hundredths (4950) in the reader's digits ("49,50" in pt). */
const hundredthsText = (value: number) => formatDecimal(hundredthsOf(value));

/** The dice table: stake, over/under and target, chance and multiplier, and an animated roll. */
export function DicePlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  // Under 49.50 pays ×2: every stake pays it to the centavo, so the table opens on a bet it takes.
  const [amount, setAmount] = useState(() => openingStake(min, DICE_OPENING, max));
  const [direction, setDirection] = useState<'under' | 'over'>(DICE_OPENING.bet.direction);
  const [target, setTarget] = useState<number>(DICE_OPENING.bet.target);
  const [shown, setShown] = useState<number | null>(null);
  const [last, setLast] = useState<TRound | null>(null);
  const tween = useTween();

  const wins = winningRolls(direction, target);
  const valid = wins >= MIN_WINS && wins <= MAX_WINS;
  const stake = checkStake(amount, min, max, valid ? { game: 'dice', bet: { direction, target } } : null);
  const payout =
    stake.minor !== null && valid ? formatMinorText((stake.minor * 9_900n) / BigInt(wins)) : '0.00';
  const [low, high] =
    direction === 'under' ? [MIN_WINS, MAX_WINS] : [OUTCOMES - 1 - MAX_WINS, OUTCOMES - 1 - MIN_WINS];

  const flip = (next: 'under' | 'over') => {
    // Keep the same win chance on the other side of the board.
    if (next !== direction) setTarget(OUTCOMES - 1 - target);
    setDirection(next);
  };

  /** One roll: the number spins on the screen, stops on the server's roll, then the round is settled. */
  const roll = async (stakeMinor: bigint) => {
    setLast(null);
    const answer = await placeBet(
      'dice',
      { amount: formatMinorText(stakeMinor), direction, target },
      { demo, idempotencyKey: crypto.randomUUID() },
    );
    const rolled = Number(answer.round.outcome.roll ?? 0);
    await tween(700, (progress) => setShown(progress < 1 ? Math.floor(Math.random() * OUTCOMES) : rolled));
    setLast(answer.round);
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play: roll, stakeMinor: stake.minor, max });
  const busy = runner.busy;

  const won = last ? !last.win_loss.startsWith('-') : false;
  return (
    <section className="card dice" data-testid="dice-play">
      <div
        className={`dice__result${last ? (won ? ' is-win' : ' is-loss') : ''}`}
        data-testid="dice-result"
        aria-live="polite"
      >
        {shown === null ? '--.--' : hundredthsText(shown)}
        {last && (
          <small>
            {won
              ? t('lobby.dice.won', { amount: formatMoney(last.payout) })
              : t('lobby.dice.lost', { amount: formatMoney(last.stake) })}
          </small>
        )}
      </div>
      <div className="dice__track" aria-hidden="true">
        <div
          className="dice__win"
          style={
            direction === 'under'
              ? { left: 0, width: `${target / 100}%` }
              : { left: `${(target + 1) / 100}%`, right: 0 }
          }
        />
        {shown !== null && <div className="dice__marker" style={{ left: `${shown / 100}%` }} />}
      </div>
      <label className="dice__label" htmlFor="dice-target">
        {t(direction === 'under' ? 'lobby.dice.roll_under' : 'lobby.dice.roll_over', {
          target: hundredthsText(target),
        })}
      </label>
      <input
        id="dice-target"
        data-testid="dice-target"
        type="range"
        min={low}
        max={high}
        step={1}
        value={target}
        disabled={busy}
        onChange={(event) => setTarget(Number(event.target.value))}
      />
      <fieldset className="dice__switch" aria-label={t('lobby.dice.direction')}>
        {(['under', 'over'] as const).map((item) => (
          <button
            key={item}
            type="button"
            className={`button button--small ${item === direction ? 'button--primary' : 'button--ghost'}`}
            aria-pressed={item === direction}
            disabled={busy}
            onClick={() => flip(item)}
          >
            {t(`lobby.dice.${item}`)}
          </button>
        ))}
      </fieldset>
      <dl className="original__facts">
        <div>
          <dt>{t('lobby.dice.chance')}</dt>
          <dd>{valid ? formatChance(hundredthsOf(wins)) : '—'}</dd>
        </div>
        <div>
          <dt>{t('lobby.dice.multiplier')}</dt>
          <dd>{valid ? formatMultiplier(multiplierText(wins)) : '—'}</dd>
        </div>
        <div>
          <dt>{t('lobby.dice.payout')}</dt>
          <dd>{formatMoney(payout)}</dd>
        </div>
      </dl>
      <BetPanel
        game="dice"
        betTestId="dice-roll"
        runner={runner}
        canBet={stake.minor !== null && valid}
        label={t('lobby.dice.roll')}
        stake={{ value: amount, onChange: setAmount, min, max, error: stake.error, fix: stake.fix }}
      />
    </section>
  );
}
