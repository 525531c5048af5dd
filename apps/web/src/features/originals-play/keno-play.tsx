import type { TRound } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOriginalRules } from '../originals/api/originals-api.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  openingStakeWithin,
  PayList,
  placeBet,
  ResultBox,
  settleBalance,
  type TPlayProps,
} from './play-shared.tsx';

export const KENO_NUMBERS = 40;
export const KENO_MAX_PICKS = 10;
const REVEAL_MS = 160;

/** Adds or removes a number; an 11th pick is refused (the board keeps ten). */
export function togglePick(picks: readonly number[], n: number): number[] {
  if (picks.includes(n)) return picks.filter((p) => p !== n);
  if (picks.length >= KENO_MAX_PICKS || n < 1 || n > KENO_NUMBERS) return [...picks];
  return [...picks, n].sort((a, b) => a - b);
}

/** Multipliers by hits for a pick count, as the server publishes them (index = hits). */
export function kenoPays(paytable: unknown, picks: number): string[] {
  const hits = (paytable as Record<string, { hits?: unknown }> | null)?.[String(picks)]?.hits;
  return Array.isArray(hits) ? hits.map(String) : [];
}

/** A fresh set of numbers for "random pick": a choice of the player, not an outcome. */
function randomPicks(count: number): number[] {
  const pool = Array.from({ length: KENO_NUMBERS }, (_, i) => i + 1);
  const chosen: number[] = [];
  const bytes = new Uint32Array(count);
  crypto.getRandomValues(bytes);
  for (let i = 0; i < count; i++) {
    const index = (bytes[i] ?? 0) % pool.length;
    chosen.push(pool.splice(index, 1)[0] ?? 1);
  }
  return chosen.sort((a, b) => a - b);
}

/** Keno: pick up to ten of forty numbers; the server draws ten, shown one by one. */
export function KenoPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const rules = useOriginalRules();
  const paytable = rules.data?.list.find((item) => item.game === 'keno')?.paytable;
  const [amount, setAmount] = useState(() => openingStakeWithin('keno', min, max));
  const [picks, setPicks] = useState<number[]>([]);
  const [drawn, setDrawn] = useState<number[]>([]);
  const [last, setLast] = useState<TRound | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const stake = checkStake(amount, min, max, picks.length > 0 ? { game: 'keno', picks: picks.length } : null);
  const pays = kenoPays(paytable, picks.length);
  const drawnSet = new Set(drawn);
  const hits = picks.filter((n) => drawnSet.has(n)).length;

  const choose = (next: number[]) => {
    setPicks(next);
    setDrawn([]);
    setLast(null);
  };

  const reveal = (numbers: number[], done: () => void) => {
    const show = (count: number) => {
      setDrawn(numbers.slice(0, count));
      if (count < numbers.length) timer.current = setTimeout(() => show(count + 1), REVEAL_MS);
      else done();
    };
    show(1);
  };

  /** One bet on the picks: the ten drawn numbers appear one by one, then the round is settled. */
  const play = async (stakeMinor: bigint) => {
    setDrawn([]);
    setLast(null);
    const answer = await placeBet(
      'keno',
      { amount: formatMinorText(stakeMinor), picks },
      { demo, idempotencyKey: crypto.randomUUID() },
    );
    const numbers = Array.isArray(answer.round.outcome.drawn) ? answer.round.outcome.drawn.map(Number) : [];
    await new Promise<void>((done) => reveal(numbers, done));
    setLast(answer.round);
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play, stakeMinor: stake.minor, max });
  const busy = runner.busy;

  return (
    <section className="card play keno" data-testid="keno-play">
      <fieldset className="keno__board" aria-label={t('play.keno.board')}>
        {Array.from({ length: KENO_NUMBERS }, (_, i) => {
          const n = i + 1;
          const picked = picks.includes(n);
          const isDrawn = drawnSet.has(n);
          const state = picked && isDrawn ? ' is-hit' : isDrawn ? ' is-drawn' : picked ? ' is-picked' : '';
          return (
            <button
              key={n}
              type="button"
              className={`keno__cell${state}`}
              data-testid={`keno-cell-${n}`}
              aria-pressed={picked}
              aria-label={t('play.keno.number', { n })}
              disabled={busy || (!picked && picks.length >= KENO_MAX_PICKS)}
              onClick={() => choose(togglePick(picks, n))}
            >
              {n}
            </button>
          );
        })}
      </fieldset>
      <div className="keno__tools">
        <span className="play-label" data-testid="keno-picked">
          {picks.length === 0 ? t('play.keno.pick_more') : t('play.keno.picked', { count: picks.length })}
        </span>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="keno-auto"
          disabled={busy}
          onClick={() => choose(randomPicks(picks.length || KENO_MAX_PICKS))}
        >
          {t('play.keno.auto_pick')}
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          data-testid="keno-clear"
          disabled={busy || picks.length === 0}
          onClick={() => choose([])}
        >
          {t('play.keno.clear')}
        </button>
      </div>
      <PayList
        label={t('play.keno.paytable')}
        rows={pays.map((multiplier, count) => ({
          key: count,
          label: t('play.keno.hit_count', { n: count }),
          multiplier,
          hit: last !== null && count === hits,
        }))}
      />
      <ResultBox
        game="keno"
        round={last}
        detail={<span className="play-label">{t('play.keno.hits', { hits })}</span>}
      />
      <BetPanel
        game="keno"
        runner={runner}
        canBet={stake.minor !== null && picks.length > 0}
        label={t('play.bet')}
        stake={{ value: amount, onChange: setAmount, min, max, error: stake.error, fix: stake.fix }}
      />
    </section>
  );
}
