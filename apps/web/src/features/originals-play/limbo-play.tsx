import type { TRound } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChance, formatDecimal, formatMoney } from '../../lib/format.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  localStakeText,
  openingStake,
  placeBet,
  RoundLine,
  StakeField,
  settleBalance,
  stakeTextOf,
  type TPlayProps,
  useTween,
} from './play-shared.tsx';

const MIN_TARGET = 101;
const MAX_TARGET = 100_000_000;
const HISTORY = 8;
const COUNT_MS = 900;

/** "2.5" → 250 hundredths; null unless a target between 1.01 and 1,000,000.00 with ≤ 2 decimals. */
export function limboTarget(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return hundredths >= MIN_TARGET && hundredths <= MAX_TARGET ? hundredths : null;
}

export const hundredthsText = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;
/** Hundredths as the reader writes them ("2,00" in pt), for the screen. */
const shownHundredths = (h: number) => formatDecimal(hundredthsText(h));

/** Win chance 99 % / target, floored to 2 decimals ("49.50" for ×2.00). */
export function limboChance(targetHundredths: number): string {
  return hundredthsText(Math.floor(990_000 / targetHundredths));
}

/** Limbo: pick a target multiplier; the server's result counts up to where it stopped. */
export function LimboPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [amount, setAmount] = useState(() =>
    openingStake(min, { game: 'limbo', targetHundredths: 200 }, max),
  );
  const [targetText, setTargetText] = useState('2.00');
  const [shown, setShown] = useState<number | null>(null);
  const [last, setLast] = useState<TRound | null>(null);
  const [history, setHistory] = useState<{ id: string; value: number; win: boolean }[]>([]);
  const tween = useTween();

  const target = limboTarget(targetText);
  const stake = checkStake(
    amount,
    min,
    max,
    target === null ? null : { game: 'limbo', targetHundredths: target },
  );
  const payout =
    target !== null && stake.minor !== null ? formatMinorText((stake.minor * BigInt(target)) / 100n) : '0.00';

  /** Counts from 1.00 to the result on a log scale, so ×2 and ×5,000 both take about as long. */
  const countTo = (result: number) => {
    const span = Math.log(Math.max(result, 100) / 100);
    return tween(COUNT_MS, (progress) => {
      const eased = 1 - (1 - progress) ** 3;
      setShown(progress < 1 ? Math.floor(100 * Math.exp(span * eased)) : result);
    });
  };

  /** One bet: the server's result counts up on the screen, then the round is shown and settled. */
  const play = async (stakeMinor: bigint) => {
    setLast(null);
    const answer = await placeBet(
      'limbo',
      { amount: formatMinorText(stakeMinor), target: hundredthsText(target ?? MIN_TARGET) },
      { demo, idempotencyKey: crypto.randomUUID() },
    );
    const result = Number(answer.round.outcome.resultHundredths ?? 100);
    const win = Boolean(answer.round.outcome.win);
    await countTo(result);
    setLast(answer.round);
    setHistory((items) => [{ id: answer.round.id, value: result, win }, ...items].slice(0, HISTORY));
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play, stakeMinor: stake.minor, max });
  const busy = runner.busy;

  const state = last ? (last.outcome.win ? ' is-win' : ' is-loss') : '';
  return (
    <section className="card play limbo" data-testid="limbo-play">
      <ol className="play-history" aria-label={t('play.history')}>
        {history.map((item) => (
          <li key={item.id} className={item.win ? 'is-win' : 'is-loss'}>
            ×{shownHundredths(item.value)}
          </li>
        ))}
      </ol>
      <div className={`limbo__screen${state}`}>
        <output className="limbo__value" data-testid="limbo-result" aria-live="polite">
          {`×${shownHundredths(shown ?? 100)}`}
        </output>
        <span className="limbo__target">
          {t('play.limbo.target_line', { target: target === null ? '—' : shownHundredths(target) })}
        </span>
        <RoundLine round={last} />
      </div>
      <div className="play-grid">
        <div>
          <label className="play-label" htmlFor="limbo-target">
            {t('play.limbo.target')}
          </label>
          <input
            id="limbo-target"
            data-testid="limbo-target"
            className="play-input"
            inputMode="decimal"
            maxLength={10}
            value={localStakeText(targetText)}
            disabled={busy}
            aria-invalid={target === null}
            onChange={(event) => setTargetText(stakeTextOf(event.target.value))}
          />
          {target === null && (
            <p className="play-error" role="alert">
              {t('play.limbo.target_invalid', {
                min: shownHundredths(MIN_TARGET),
                max: shownHundredths(MAX_TARGET),
              })}
            </p>
          )}
        </div>
        <StakeField
          game="limbo"
          value={amount}
          onChange={setAmount}
          min={min}
          max={max}
          disabled={busy}
          error={stake.error}
          fix={stake.fix}
        />
      </div>
      <dl className="original__facts">
        <div>
          <dt>{t('play.win_chance')}</dt>
          <dd data-testid="limbo-chance">{target === null ? '—' : formatChance(limboChance(target))}</dd>
        </div>
        <div>
          <dt>{t('play.payout_on_win')}</dt>
          <dd>{formatMoney(payout)}</dd>
        </div>
      </dl>
      <BetPanel
        game="limbo"
        runner={runner}
        canBet={target !== null && stake.minor !== null}
        label={t('play.bet')}
      />
    </section>
  );
}
