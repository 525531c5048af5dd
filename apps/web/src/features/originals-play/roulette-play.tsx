import type { TRound } from '@sorte/contract';
import { type CSSProperties, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api-client.ts';
import { toast } from '../../lib/toast.ts';
import {
  checkStake,
  formatMinorText,
  placeBet,
  RoundLine,
  StakeField,
  settleBalance,
  type TPlayProps,
  toMinor,
} from './play-shared.tsx';

/** The single-zero wheel, clockwise from zero. */
export const WHEEL = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22,
  18, 29, 7, 28, 12, 35, 3, 26,
];
const RED = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
export const pocketColour = (n: number) => (n === 0 ? 'green' : RED.has(n) ? 'red' : 'black');

const SPIN_MS = 2600;
const MAX_CHIPS = 50;

type TOutside = 'red' | 'black' | 'odd' | 'even' | 'low' | 'high';
export type TSpot =
  | { type: 'straight'; numbers: [number] }
  | { type: 'dozen' | 'column'; numbers: [number] }
  | { type: TOutside; numbers: [] };

export const spotKey = (spot: TSpot) => `${spot.type}:${spot.numbers.join('-')}`;

/** Adds a chip of `chip` minor units to a spot; a table holds at most 50 spots (the server's limit). */
export function addChip(
  table: ReadonlyMap<string, { spot: TSpot; minor: bigint }>,
  spot: TSpot,
  chip: bigint,
) {
  const next = new Map(table);
  const key = spotKey(spot);
  const current = next.get(key);
  if (!current && next.size >= MAX_CHIPS) return next;
  next.set(key, { spot, minor: (current?.minor ?? 0n) + chip });
  return next;
}

export const tableTotal = (table: ReadonlyMap<string, { minor: bigint }>) =>
  [...table.values()].reduce((sum, item) => sum + item.minor, 0n);

const OUTSIDE: TOutside[] = ['low', 'even', 'red', 'black', 'odd', 'high'];
const NUMBERS = Array.from({ length: 36 }, (_, i) => i + 1);

type TPaidBet = { win?: boolean; bet?: { type?: string; numbers?: unknown[] } };
/** Grid place on phones (the table stands up: 3 number columns) and from 700 px (it lies down). */
type TPlace = { m: [number, number, number?, number?]; d: [number, number, number?, number?] };
const placement = ({ m, d }: TPlace) =>
  ({
    '--mc': m[0],
    '--mr': m[1],
    '--mcs': m[2] ?? 1,
    '--mrs': m[3] ?? 1,
    '--dc': d[0],
    '--dr': d[1],
    '--dcs': d[2] ?? 1,
    '--drs': d[3] ?? 1,
  }) as CSSProperties;
/** Number n: its row on the lying table (3 on top) and its column (1–12). */
const rowOf = (n: number) => 3 - ((n - 1) % 3);
const colOf = (n: number) => Math.ceil(n / 3);

/** European roulette: chips on numbers, dozens, columns and even-money bets; the wheel lands where the server says. */
export function RoulettePlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [chipText, setChipText] = useState(min);
  const [table, setTable] = useState(new Map<string, { spot: TSpot; minor: bigint }>());
  const [rotation, setRotation] = useState(0);
  const [pocket, setPocket] = useState<number | null>(null);
  const [last, setLast] = useState<TRound | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const chip = checkStake(chipText, min, max);
  const total = tableTotal(table);
  const maxMinor = toMinor(max) ?? 0n;
  const overMax = total > maxMinor;
  const canSpin = !busy && table.size > 0 && !overMax;

  const place = (spot: TSpot) => {
    if (busy || chip.minor === null) return;
    setTable(addChip(table, spot, chip.minor));
    setLast(null);
  };
  const chipOn = (spot: TSpot) => table.get(spotKey(spot))?.minor;

  const spin = async () => {
    if (!canSpin) return;
    setBusy(true);
    setLast(null);
    try {
      const bets = [...table.values()].map(({ spot, minor }) => ({
        type: spot.type,
        numbers: spot.numbers,
        amount: formatMinorText(minor),
      }));
      const answer = await placeBet('roulette', { bets }, { demo, idempotencyKey: crypto.randomUUID() });
      const landed = Number(answer.round.outcome.pocket ?? 0);
      // Four full turns, then the pocket under the pointer at the top.
      const target = 360 * 4 + (360 - (WHEEL.indexOf(landed) * 360) / WHEEL.length);
      setRotation((current) => current - (current % 360) + target);
      timer.current = setTimeout(() => {
        setPocket(landed);
        setLast(answer.round);
        settleBalance(answer, { demo, onBalance });
        setBusy(false);
      }, SPIN_MS);
    } catch (error) {
      toast.error((error as ApiError).message);
      setBusy(false);
    }
  };

  // The spots the server paid on this spin (from its results, not recomputed here).
  const paid = new Set(
    (Array.isArray(last?.outcome.results) ? (last.outcome.results as TPaidBet[]) : [])
      .filter((result) => result.win && result.bet)
      .map((result) => `${result.bet?.type}:${(result.bet?.numbers ?? []).join('-')}`),
  );

  const cell = (spot: TSpot, label: string, className: string, aria: string, at: TPlace) => {
    const on = chipOn(spot);
    const key = spotKey(spot);
    const hit = !busy && (paid.has(key) || (spot.type === 'straight' && spot.numbers[0] === pocket && last));
    return (
      <button
        key={key}
        type="button"
        className={`roulette__cell ${className}${hit ? ' is-paid' : ''}`}
        style={placement(at)}
        data-testid={`roulette-spot-${key.replace(':', '-')}`}
        aria-label={aria}
        disabled={busy}
        onClick={() => place(spot)}
      >
        {label}
        {on !== undefined && <span className="roulette__chip">{formatMinorText(on)}</span>}
      </button>
    );
  };

  const segment = 360 / WHEEL.length;
  return (
    <section className="card play roulette" data-testid="roulette-play">
      <div className="roulette__wheel-wrap">
        <span className="roulette__pointer" aria-hidden="true" />
        <svg
          className="roulette__wheel"
          viewBox="-100 -100 200 200"
          style={{ transform: `rotate(${rotation}deg)`, transitionDuration: `${SPIN_MS}ms` }}
          role="img"
          aria-label={t('play.roulette.wheel')}
        >
          {WHEEL.map((n, i) => {
            const a0 = ((i - 0.5) * segment - 90) * (Math.PI / 180);
            const a1 = ((i + 0.5) * segment - 90) * (Math.PI / 180);
            const mid = (i * segment - 90) * (Math.PI / 180);
            const path = `M ${96 * Math.cos(a0)} ${96 * Math.sin(a0)} A 96 96 0 0 1 ${96 * Math.cos(a1)} ${96 * Math.sin(a1)} L ${62 * Math.cos(a1)} ${62 * Math.sin(a1)} A 62 62 0 0 0 ${62 * Math.cos(a0)} ${62 * Math.sin(a0)} Z`;
            return (
              <g key={n}>
                <path d={path} className={`roulette__pocket is-${pocketColour(n)}`} />
                <text
                  x={82 * Math.cos(mid)}
                  y={82 * Math.sin(mid)}
                  transform={`rotate(${i * segment} ${82 * Math.cos(mid)} ${82 * Math.sin(mid)})`}
                  textAnchor="middle"
                  dominantBaseline="middle"
                  className="roulette__number"
                >
                  {n}
                </text>
              </g>
            );
          })}
          <circle r="60" className="roulette__hub" />
        </svg>
        <output
          className={`roulette__landed${pocket !== null ? ` is-${pocketColour(pocket)}` : ''}`}
          data-testid="roulette-result"
          aria-live="polite"
        >
          {pocket === null || busy ? '?' : pocket}
        </output>
      </div>
      <RoundLine round={busy ? null : last} />
      <fieldset className="roulette__table" aria-label={t('play.roulette.table')}>
        {cell({ type: 'straight', numbers: [0] }, '0', 'is-green', t('play.roulette.number', { n: 0 }), {
          m: [1, 1, 3],
          d: [1, 1, 1, 3],
        })}
        {NUMBERS.map((n) =>
          cell(
            { type: 'straight', numbers: [n] },
            String(n),
            `is-${pocketColour(n)}`,
            t('play.roulette.number', { n }),
            { m: [4 - rowOf(n), colOf(n) + 1], d: [colOf(n) + 1, rowOf(n)] },
          ),
        )}
        {[1, 2, 3].map((c) =>
          cell({ type: 'column', numbers: [c] }, '2:1', 'is-outside', t('play.roulette.column', { n: c }), {
            m: [c, 14],
            d: [14, 4 - c],
          }),
        )}
        {[1, 2, 3].map((d) =>
          cell(
            { type: 'dozen', numbers: [d] },
            t('play.roulette.dozen', { n: d }),
            'is-outside',
            t('play.roulette.dozen', { n: d }),
            { m: [4, 2 + 4 * (d - 1), 1, 4], d: [2 + 4 * (d - 1), 4, 4] },
          ),
        )}
        {OUTSIDE.map((type, i) =>
          cell(
            { type, numbers: [] },
            t(`play.roulette.${type}`),
            `is-outside is-${type}`,
            t(`play.roulette.${type}`),
            {
              m: [5, 2 + 2 * i, 1, 2],
              d: [2 + 2 * i, 5, 2],
            },
          ),
        )}
      </fieldset>
      <div className="play-grid">
        <StakeField
          game="roulette"
          label={t('play.roulette.chip')}
          value={chipText}
          onChange={setChipText}
          min={min}
          max={max}
          disabled={busy}
          error={chip.error}
        />
        <div className="roulette__total">
          <span className="play-label">{t('play.roulette.total')}</span>
          <strong className="roulette__sum" data-testid="roulette-total">
            {formatMinorText(total)}
          </strong>
          {overMax && (
            <p className="play-error" role="alert">
              {t('play.stake_range', { min, max })}
            </p>
          )}
          <button
            type="button"
            className="button button--ghost button--small"
            data-testid="roulette-clear"
            disabled={busy || table.size === 0}
            onClick={() => setTable(new Map())}
          >
            {t('play.roulette.clear')}
          </button>
        </div>
      </div>
      <button
        type="button"
        className="button button--primary button--block button--large"
        data-testid="roulette-bet"
        disabled={!canSpin}
        onClick={() => void spin()}
      >
        {busy
          ? t('play.playing')
          : table.size === 0
            ? t('play.roulette.place_chips')
            : t('play.roulette.spin')}
      </button>
    </section>
  );
}
