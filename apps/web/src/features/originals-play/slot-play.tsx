import type { TRound } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format.ts';
import { useOriginalRules } from '../originals/api/originals-api.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  openingStakeWithin,
  placeBet,
  ResultBox,
  settleBalance,
  type TPlayProps,
} from './play-shared.tsx';
import { SLOT_SYMBOLS, SlotSymbol } from './slot-symbols.tsx';

const REELS = 5;
const ROWS = 3;
const MIN_SPIN_MS = 500;
const STOP_GAP_MS = 220;
const REEL_INDEXES = Array.from({ length: REELS }, (_, i) => i);
const ROW_INDEXES = Array.from({ length: ROWS }, (_, i) => i);

export type TLineWin = { line: number; symbol: string; count: number; pay: number };

/** The server's screen[row][reel] as text, or null when the answer is not a 3×5 screen. */
export function slotScreen(outcome: Record<string, unknown>): string[][] | null {
  const screen = outcome.screen;
  if (!Array.isArray(screen) || screen.length !== ROWS) return null;
  const rows = screen.map((row) => (Array.isArray(row) ? row.map(String) : []));
  return rows.every((row) => row.length === REELS) ? rows : null;
}

export function lineWins(outcome: Record<string, unknown>): TLineWin[] {
  return Array.isArray(outcome.lineWins)
    ? (outcome.lineWins as TLineWin[]).filter((win) => Number.isInteger(win.line))
    : [];
}

/** The cells a win lights up: the first `count` reels along its payline (lines pay from the left). */
export function winningCells(
  wins: readonly TLineWin[],
  paylines: readonly (readonly number[])[],
): Set<string> {
  const cells = new Set<string>();
  for (const win of wins) {
    const line = paylines[win.line];
    if (!line) continue;
    for (let reel = 0; reel < win.count; reel++) cells.add(`${line[reel]}-${reel}`);
  }
  return cells;
}

type TSlotTable = {
  paylines?: number[][];
  line_pays?: Record<string, number[]>;
  scatter_pays?: Record<string, number>;
};

/** A 5×3 video slot with 20 paylines, wilds and scatters; the reels stop on the server's screen. */
export function SlotPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const rules = useOriginalRules();
  const table = (rules.data?.list.find((item) => item.game === 'slot')?.paytable ?? {}) as TSlotTable;
  const paylines = table.paylines ?? [];
  const [amount, setAmount] = useState(() => openingStakeWithin('slot', min, max));
  const [screen, setScreen] = useState<string[][]>([
    ['seven', 'bar', 'bell', 'melon', 'wild'],
    ['bell', 'seven', 'wild', 'seven', 'bell'],
    ['melon', 'lemon', 'scatter', 'plum', 'orange'],
  ]);
  const [stopped, setStopped] = useState(REELS);
  const [last, setLast] = useState<TRound | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const stake = checkStake(amount, min, max, { game: 'slot' });
  const wins = last ? lineWins(last.outcome) : [];
  const lit = winningCells(wins, paylines);
  const scatters = last ? Number(last.outcome.scatterCount ?? 0) : 0;
  const scatterPay = last ? Number(last.outcome.scatterPay ?? 0) : 0;

  const stopReels = (count: number, done: () => void) => {
    setStopped(count);
    if (count < REELS) timer.current = setTimeout(() => stopReels(count + 1, done), STOP_GAP_MS);
    else done();
  };

  /** One spin: the reels run at least a moment, stop one by one on the server's screen, then settle. */
  const spin = async (stakeMinor: bigint) => {
    setLast(null);
    setStopped(0);
    const started = Date.now();
    try {
      const answer = await placeBet(
        'slot',
        { amount: formatMinorText(stakeMinor) },
        { demo, idempotencyKey: crypto.randomUUID() },
      );
      const next = slotScreen(answer.round.outcome);
      if (next) setScreen(next);
      const wait = Math.max(0, MIN_SPIN_MS - (Date.now() - started));
      await new Promise((resume) => {
        timer.current = setTimeout(resume, wait);
      });
      await new Promise<void>((done) => stopReels(1, done));
      setLast(answer.round);
      settleBalance(answer, { demo, onBalance });
      return answer.round;
    } catch (error) {
      setStopped(REELS);
      throw error;
    }
  };
  const runner = useBetRunner({ play: spin, stakeMinor: stake.minor, max });

  return (
    <section className="card play slot" data-testid="slot-play">
      <div className="slot__machine">
        <div className="slot__reels" role="img" aria-label={t('play.slot.reels')}>
          {REEL_INDEXES.map((reel) => (
            <div key={reel} className={`slot__reel${reel < stopped ? ' is-stopped' : ' is-spinning'}`}>
              {reel < stopped ? (
                ROW_INDEXES.map((row) => (
                  <div
                    key={row}
                    className={`slot__cell${lit.has(`${row}-${reel}`) ? ' is-lit' : ''}${
                      last && screen[row]?.[reel] === 'scatter' && scatters >= 3 ? ' is-lit' : ''
                    }`}
                    data-testid={`slot-cell-${row}-${reel}`}
                    data-symbol={screen[row]?.[reel]}
                  >
                    <SlotSymbol symbol={screen[row]?.[reel] ?? 'lemon'} />
                  </div>
                ))
              ) : (
                <div className="slot__strip">
                  {[...SLOT_SYMBOLS, ...SLOT_SYMBOLS].map((symbol, i) => (
                    <div key={`${symbol}-${i < SLOT_SYMBOLS.length ? 'a' : 'b'}`} className="slot__cell">
                      <SlotSymbol symbol={symbol} />
                    </div>
                  ))}
                </div>
              )}
            </div>
          ))}
        </div>
        {last && paylines.length > 0 && wins.length > 0 && (
          <svg className="slot__lines" viewBox="0 0 500 300" preserveAspectRatio="none" aria-hidden="true">
            {wins.map((win) => (
              <polyline
                key={win.line}
                points={(paylines[win.line] ?? [])
                  .map((row, reel) => `${reel * 100 + 50},${row * 100 + 50}`)
                  .join(' ')}
              />
            ))}
          </svg>
        )}
      </div>
      <ResultBox game="slot" round={last}>
        {wins.length === 0 && scatterPay === 0 && <span className="play-label">{t('play.slot.no_win')}</span>}
        <ul className="slot__wins">
          {wins.map((win) => (
            <li key={win.line}>
              {t('play.slot.line_win', {
                line: win.line + 1,
                count: win.count,
                symbol: t(`play.slot.symbols.${win.symbol}`, { defaultValue: win.symbol }),
                pay: `×${formatNumber(Number(win.pay))}`,
              })}
            </li>
          ))}
          {scatterPay > 0 && (
            <li>{t('play.slot.scatter', { count: scatters, pay: formatNumber(scatterPay) })}</li>
          )}
        </ul>
      </ResultBox>
      <p className="play-label">{t('play.slot.lines')}</p>
      <BetPanel
        game="slot"
        runner={runner}
        canBet={stake.minor !== null}
        label={t('play.slot.spin')}
        stake={{ value: amount, onChange: setAmount, min, max, error: stake.error, fix: stake.fix }}
      />
      {table.line_pays && (
        <ul className="slot__pays">
          {Object.entries(table.line_pays).map(([symbol, pays]) => (
            <li key={symbol}>
              <SlotSymbol symbol={symbol} />
              <span>{t(`play.slot.symbols.${symbol}`, { defaultValue: symbol })}</span>
              <strong className="slot__pay">
                {pays.map((pay) => `×${formatNumber(Number(pay))}`).join(' · ')}
              </strong>
            </li>
          ))}
          {table.scatter_pays && (
            <li>
              <SlotSymbol symbol="scatter" />
              <span>{t('play.slot.symbols.scatter')}</span>
              <strong className="slot__pay">
                {Object.values(table.scatter_pays)
                  .map((pay) => `×${formatNumber(Number(pay))}`)
                  .join(' · ')}
              </strong>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
