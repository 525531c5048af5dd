import type { TRound } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOriginalRules } from '../originals/api/originals-api.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  openingStake,
  PayList,
  placeBet,
  ResultBox,
  settleBalance,
  type TPlayProps,
} from './play-shared.tsx';

const FREE = 12;
const DRAW_MS = 2600;
const LETTERS = ['B', 'I', 'N', 'G', 'O'] as const;
const CELLS = Array.from({ length: 25 }, (_, i) => i);

/** The 12 lines (rows, columns, diagonals) as cell indexes, in the server's order. */
export const BINGO_LINES: number[][] = [
  ...Array.from({ length: 5 }, (_, r) => Array.from({ length: 5 }, (_, c) => r * 5 + c)),
  ...Array.from({ length: 5 }, (_, c) => Array.from({ length: 5 }, (_, r) => r * 5 + c)),
  Array.from({ length: 5 }, (_, i) => i * 5 + i),
  Array.from({ length: 5 }, (_, i) => i * 5 + 4 - i),
];

/** The letter a ball is called with: B 1–15, I 16–30, N 31–45, G 46–60, O 61–75. */
export const ballLetter = (ball: number) => LETTERS[Math.min(4, Math.floor((ball - 1) / 15))] ?? 'B';

type TTier = { max_balls: number; multiplier: string };

/** 75-ball bingo on one card: the server deals the card and draws until a line is complete. */
export function BingoPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const rules = useOriginalRules();
  const paytable = rules.data?.list.find((item) => item.game === 'bingo')?.paytable;
  const tiers = (Array.isArray(paytable) ? paytable : []) as TTier[];
  const [amount, setAmount] = useState(() => openingStake(min, { game: 'bingo' }, max));
  const [card, setCard] = useState<(number | null)[] | null>(null);
  const [shown, setShown] = useState<number[]>([]);
  const [last, setLast] = useState<TRound | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const stake = checkStake(amount, min, max, { game: 'bingo' });
  const drawn = new Set(shown);
  const lines =
    last && Array.isArray(last.outcome.completedLines) ? last.outcome.completedLines.map(Number) : [];
  const lineCells = new Set(lines.flatMap((line) => BINGO_LINES[line] ?? []));
  const current = shown.at(-1);
  const tierIndex = last ? tiers.findIndex((tier) => shown.length <= tier.max_balls) : -1;

  const draw = (balls: number[], done: () => void) => {
    const gap = Math.min(140, Math.floor(DRAW_MS / Math.max(1, balls.length)));
    const show = (count: number) => {
      setShown(balls.slice(0, count));
      if (count < balls.length) timer.current = setTimeout(() => show(count + 1), gap);
      else done();
    };
    show(1);
  };

  /** One card: the server deals it and draws until a line; the balls come out one by one. */
  const play = async (stakeMinor: bigint) => {
    setLast(null);
    setShown([]);
    const answer = await placeBet(
      'bingo',
      { amount: formatMinorText(stakeMinor) },
      { demo, idempotencyKey: crypto.randomUUID() },
    );
    const { outcome } = answer.round;
    setCard(Array.isArray(outcome.card) ? outcome.card.map((n) => (n === null ? null : Number(n))) : null);
    await new Promise<void>((done) =>
      draw(Array.isArray(outcome.balls) ? outcome.balls.map(Number) : [], done),
    );
    setLast(answer.round);
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play, stakeMinor: stake.minor, max });

  return (
    <section className="card play bingo" data-testid="bingo-play">
      <div className="bingo__top">
        <output className="bingo__ball" aria-live="off">
          {current === undefined ? '—' : `${ballLetter(current)} ${current}`}
        </output>
        <span className="play-label" data-testid="bingo-count">
          {t('play.bingo.balls', { count: shown.length })}
        </span>
      </div>
      <div className="bingo__card" role="img" aria-label={t('play.bingo.card')}>
        {LETTERS.map((letter) => (
          <span key={letter} className="bingo__letter">
            {letter}
          </span>
        ))}
        {CELLS.map((cell) => {
          const n = card?.[cell] ?? null;
          const marked = cell === FREE || (n !== null && drawn.has(n));
          return (
            <span
              key={cell}
              className={`bingo__cell${marked && card ? ' is-marked' : ''}${lineCells.has(cell) ? ' is-line' : ''}`}
              data-testid={`bingo-cell-${cell}`}
            >
              {cell === FREE ? '★' : (n ?? '')}
            </span>
          );
        })}
      </div>
      <ol className="bingo__tray" aria-label={t('play.bingo.drawn')}>
        {shown.map((ball) => (
          <li key={ball} className={`is-${ballLetter(ball)}`}>
            {ball}
          </li>
        ))}
      </ol>
      <ResultBox
        game="bingo"
        round={last}
        detail={<span className="play-label">{t('play.bingo.line_after', { count: shown.length })}</span>}
      />
      <BetPanel
        game="bingo"
        runner={runner}
        canBet={stake.minor !== null}
        label={t('play.bingo.play')}
        stake={{ value: amount, onChange: setAmount, min, max, error: stake.error, fix: stake.fix }}
      />
      <PayList
        label={t('play.bingo.paytable')}
        rows={tiers.map((tier, i) => ({
          key: tier.max_balls,
          label: t('play.bingo.within', { count: tier.max_balls }),
          multiplier: tier.multiplier,
          hit: i === tierIndex,
        }))}
      />
    </section>
  );
}
