import type { TRound } from '@sorte/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOriginalRules } from '../originals/api/originals-api.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  compactMultiplier,
  formatMinorText,
  openingStakeWithin,
  placeBet,
  ResultBox,
  settleBalance,
  shortMultiplier,
  type TPlayProps,
  useTween,
} from './play-shared.tsx';

export const PLINKO_ROWS = [8, 9, 10, 11, 12, 13, 14, 15, 16] as const;
export const PLINKO_RISKS = ['low', 'medium', 'high'] as const;
type TRisk = (typeof PLINKO_RISKS)[number];

const WIDTH = 400;
const STEP_MS = 110;
const HISTORY = 8;

/** The slot multipliers the server publishes for a board ("5.6000" …), or [] before they load. */
export function plinkoSlots(paytable: unknown, risk: TRisk, rows: number): string[] {
  const byRisk = (paytable as Record<string, Record<string, { slots?: unknown }>> | null)?.[risk];
  const slots = byRisk?.[String(rows)]?.slots;
  return Array.isArray(slots) ? slots.map(String) : [];
}

/** Where the ball is after `step` rows of the server's path: rights so far, relative to the middle. */
export function ballOffset(path: readonly string[], step: number): number {
  let rights = 0;
  for (let i = 0; i < Math.min(step, path.length); i++) if (path[i] === 'R') rights++;
  return rights - Math.min(step, path.length) / 2;
}

function geometry(rows: number) {
  const spacing = WIDTH / (rows + 1.4);
  const top = spacing * 0.8;
  const slotTop = top + rows * spacing;
  return { spacing, top, slotTop, height: slotTop + spacing * 0.9 + 6 };
}

/** Slot colour: warm at the edges (rare, high), cool in the middle (common, low). */
const slotHue = (index: number, count: number) =>
  Math.round(48 * (1 - Math.abs(index - (count - 1) / 2) / ((count - 1) / 2)));

type TBall = { x: number; y: number };

/** A slot's multiplier as short as it fits, in the reader's digits: "5,6" (pt), "110", "1k" for ×1000. */
export function slotLabel(multiplier: string): string {
  const whole = /^(\d+)000(?:\.0*)?$/.exec(multiplier);
  return whole ? `${whole[1]}k` : compactMultiplier(multiplier);
}

/** Plinko: 8–16 rows, three risks; the ball follows the path the server drew into its slot. */
export function PlinkoPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const rules = useOriginalRules();
  const paytable = rules.data?.list.find((item) => item.game === 'plinko')?.paytable;
  const [amount, setAmount] = useState(() => openingStakeWithin('plinko', min, max));
  const [rows, setRows] = useState(12);
  const [risk, setRisk] = useState<TRisk>('medium');
  const [ball, setBall] = useState<TBall | null>(null);
  const [landed, setLanded] = useState<number | null>(null);
  const [last, setLast] = useState<TRound | null>(null);
  const [history, setHistory] = useState<{ id: string; multiplier: string; hue: number }[]>([]);
  const tween = useTween();

  const stake = checkStake(amount, min, max, { game: 'plinko', rows, risk });
  const slots = plinkoSlots(paytable, risk, rows);
  const { spacing, top, slotTop, height } = geometry(rows);
  const centre = WIDTH / 2;

  /** Row by row: sideways by half a peg gap, with a small hop at each peg. */
  const dropAlong = (path: string[], boardRows: number) => {
    const g = geometry(boardRows);
    return tween((path.length + 1) * STEP_MS, (_, elapsed) => {
      const step = Math.floor(elapsed / STEP_MS);
      const within = (elapsed - step * STEP_MS) / STEP_MS;
      const from = ballOffset(path, Math.max(0, step - 1));
      const to = ballOffset(path, step);
      const offset = step === 0 ? 0 : from + (to - from) * within;
      const baseY = step === 0 ? g.top - g.spacing * (1 - within) : g.top + (step - 1 + within) * g.spacing;
      const hop = step === 0 ? 0 : Math.sin(Math.PI * within) * g.spacing * 0.25;
      setBall({ x: WIDTH / 2 + offset * g.spacing, y: baseY - hop });
    });
  };

  /** One ball: it falls along the server's path, sinks into its slot, and the round is settled. */
  const drop = async (stakeMinor: bigint) => {
    setLanded(null);
    setLast(null);
    const answer = await placeBet(
      'plinko',
      { amount: formatMinorText(stakeMinor), rows, risk },
      { demo, idempotencyKey: crypto.randomUUID() },
    );
    const path = Array.isArray(answer.round.outcome.path) ? answer.round.outcome.path.map(String) : [];
    const slot = Number(answer.round.outcome.slot ?? 0);
    await dropAlong(path, rows);
    // The ball sinks into its slot, which lights up with the multiplier readable.
    setBall(null);
    setLanded(slot);
    setLast(answer.round);
    setHistory((items) =>
      [
        {
          id: answer.round.id,
          multiplier: shortMultiplier(answer.round.multiplier),
          hue: slotHue(slot, rows + 1),
        },
        ...items,
      ].slice(0, HISTORY),
    );
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play: drop, stakeMinor: stake.minor, max });
  const busy = runner.busy;

  const pegs: TBall[] = [];
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < r + 3; j++)
      pegs.push({ x: centre + (j - (r + 2) / 2) * spacing, y: top + r * spacing });
  }
  const slotWidth = spacing * 0.92;
  const slotIndexes = Array.from({ length: rows + 1 }, (_, k) => k);

  return (
    <section className="card play plinko" data-testid="plinko-play">
      <ol className="play-history" aria-label={t('play.history')}>
        {history.map((item) => (
          <li key={item.id} style={{ background: `hsl(${item.hue} 85% 55%)`, color: '#1a0d00' }}>
            ×{item.multiplier}
          </li>
        ))}
      </ol>
      <svg
        className="plinko__board"
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-label={t('play.plinko.board')}
      >
        {pegs.map((peg) => (
          <circle
            key={`${peg.x}-${peg.y}`}
            cx={peg.x}
            cy={peg.y}
            r={Math.max(2.2, spacing * 0.09)}
            className="plinko__peg"
          />
        ))}
        {slotIndexes.map((k) => {
          const x = centre + (k - rows / 2) * spacing;
          const hue = slotHue(k, rows + 1);
          const label = slots[k] ? slotLabel(slots[k]) : '';
          return (
            <g
              key={k}
              className={`plinko__slot${landed === k ? ' is-hit' : ''}`}
              data-testid={`plinko-slot-${k}`}
            >
              <rect
                x={x - slotWidth / 2}
                y={slotTop - spacing * 0.35}
                width={slotWidth}
                height={spacing * 0.8}
                rx={4}
                fill={`hsl(${hue} 85% 55%)`}
              />
              <text
                x={x}
                y={slotTop + spacing * 0.05}
                textAnchor="middle"
                dominantBaseline="middle"
                fontSize={Math.min(13, spacing * 0.4, (slotWidth * 1.6) / Math.max(2, label.length))}
              >
                {label}
              </text>
            </g>
          );
        })}
        {ball && <circle cx={ball.x} cy={ball.y} r={Math.max(4, spacing * 0.2)} className="plinko__ball" />}
      </svg>
      <ResultBox
        game="plinko"
        round={last}
        detail={last && <strong>×{shortMultiplier(last.multiplier)}</strong>}
      />
      <div className="play-grid">
        <div>
          <label className="play-label" htmlFor="plinko-rows">
            {t('play.plinko.rows')}
          </label>
          <select
            id="plinko-rows"
            data-testid="plinko-rows"
            className="play-input"
            value={rows}
            disabled={busy}
            onChange={(event) => {
              setRows(Number(event.target.value));
              setBall(null);
              setLanded(null);
            }}
          >
            {PLINKO_ROWS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="play-segment" aria-label={t('play.plinko.risk')}>
          <span className="play-label">{t('play.plinko.risk')}</span>
          <div>
            {PLINKO_RISKS.map((item) => (
              <button
                key={item}
                type="button"
                data-testid={`plinko-risk-${item}`}
                className={`button button--small ${item === risk ? 'button--primary' : 'button--ghost'}`}
                aria-pressed={item === risk}
                disabled={busy}
                onClick={() => {
                  setRisk(item);
                  setLanded(null);
                }}
              >
                {t(`play.plinko.risk_${item}`)}
              </button>
            ))}
          </div>
        </fieldset>
      </div>
      <BetPanel
        game="plinko"
        runner={runner}
        canBet={stake.minor !== null}
        label={t('play.plinko.drop')}
        stake={{ value: amount, onChange: setAmount, min, max, error: stake.error, fix: stake.fix }}
      />
    </section>
  );
}
