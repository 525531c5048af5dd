import type { TRound } from '@sorte/contract';
import { coveredNumbers, ROULETTE_MAX_BETS, type RouletteBetType } from '@sorte/fairness';
import { type CSSProperties, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { decimalSeparator, formatMoney } from '../../lib/format.ts';
import { BetPanel, useBetRunner } from './auto-bet.tsx';
import {
  checkStake,
  formatMinorText,
  localMoney,
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
/** Undo remembers this many earlier tables. */
const UNDO_DEPTH = 100;
/** Chip values offered as buttons (minor units); those outside the game's limits are left out. */
const CHIP_VALUES = [10n, 50n, 100n, 500n, 1_000n, 5_000n, 10_000n, 50_000n];

type TOutside = 'red' | 'black' | 'odd' | 'even' | 'low' | 'high';
/** A bet as the server names it: the type and the numbers that place it on the layout. */
export type TSpot = { type: RouletteBetType; numbers: number[] };
export type TTable = ReadonlyMap<string, { spot: TSpot; minor: bigint }>;

export const spotKey = (spot: TSpot) => `${spot.type}:${spot.numbers.join('-')}`;

/** Adds a chip of `chip` minor units to a spot; a table holds at most 50 spots (the server's limit). */
export function addChip(table: TTable, spot: TSpot, chip: bigint) {
  const next = new Map(table);
  const key = spotKey(spot);
  const current = next.get(key);
  if (!current && next.size >= ROULETTE_MAX_BETS) return next;
  next.set(key, { spot, minor: (current?.minor ?? 0n) + chip });
  return next;
}

export const tableTotal = (table: TTable) => [...table.values()].reduce((sum, item) => sum + item.minor, 0n);

/** The pockets a spot covers (the fairness package's own rule, so the board and server agree). */
export const coverOf = (spot: TSpot) => coveredNumbers({ ...spot, stakeMinor: 1n });

/** What a spot returns when it wins, stake included: 36 / numbers covered (straight 36, split 18 …). */
export const returnOf = (spot: TSpot) => 36 / coverOf(spot).length;

/** The most the table can return on one spin: the best pocket's sum over the chips that cover it. */
export function bestReturn(table: TTable): bigint {
  const byPocket = new Array<bigint>(37).fill(0n);
  for (const { spot, minor } of table.values()) {
    const cover = coverOf(spot);
    for (const n of cover) byPocket[n] = (byPocket[n] ?? 0n) + (minor * 36n) / BigInt(cover.length);
  }
  return byPocket.reduce((best, value) => (value > best ? value : best), 0n);
}

/** The table with every chip scaled to a new total (auto-bet raising or resetting the stake). */
export function scaleTable(table: TTable, totalMinor: bigint): TTable {
  const total = tableTotal(table);
  if (total === 0n || totalMinor === total) return table;
  const next = new Map<string, { spot: TSpot; minor: bigint }>();
  for (const [key, { spot, minor }] of table) {
    const scaled = (minor * totalMinor) / total;
    next.set(key, { spot, minor: scaled > 0n ? scaled : 1n });
  }
  return next;
}

/** A chip's value as short as it can be written on the felt: "1", "0.5", "2.5k". */
export function chipLabel(minor: bigint): string {
  if (minor >= 100_000n) {
    const tenths = minor / 10_000n;
    return `${tenths / 10n}${tenths % 10n === 0n ? '' : `${decimalSeparator()}${tenths % 10n}`}k`;
  }
  return formatMinorText(minor)
    .replace(/\.?0+$/, '')
    .replace('.', decimalSeparator());
}

/**
 * The inside bets between the numbers, placed where a dealer would put the chip: on the line between
 * two numbers (split), at the end of a row (street), where four numbers meet (corner), where two
 * rows meet at the end (line), where the zero meets two numbers (trio) and at the zero's outer corner
 * (first four: 0-1-2-3). `u` runs along the twelve rows (0 = the zero's edge), `v` across the
 * three numbers of a row (0 = the outer edge by 1, 4, 7 …).
 */
export type THotspot = { spot: TSpot; u: number; v: number };
export function insideSpots(): THotspot[] {
  const spots: THotspot[] = [];
  for (let c = 1; c <= 3; c++) spots.push({ spot: { type: 'split', numbers: [0, c] }, u: 0, v: c - 0.5 });
  spots.push({ spot: { type: 'first_four', numbers: [] }, u: 0, v: 0 });
  for (const n of [1, 2]) spots.push({ spot: { type: 'trio', numbers: [n] }, u: 0, v: n });
  for (let n = 1; n <= 36; n++) {
    const row = Math.ceil(n / 3);
    const col = ((n - 1) % 3) + 1;
    if (col === 1) spots.push({ spot: { type: 'street', numbers: [n] }, u: row - 0.5, v: 0 });
    if (col < 3) spots.push({ spot: { type: 'split', numbers: [n, n + 1] }, u: row - 0.5, v: col });
    if (row < 12) {
      if (col === 1) spots.push({ spot: { type: 'line', numbers: [n] }, u: row, v: 0 });
      spots.push({ spot: { type: 'split', numbers: [n, n + 3] }, u: row, v: col - 0.5 });
      if (col < 3) spots.push({ spot: { type: 'corner', numbers: [n] }, u: row, v: col });
    }
  }
  return spots;
}
const INSIDE = insideSpots();

/**
 * The numbers and the inside bets on one grid of half steps, for moving around the board with the
 * arrow keys: number n sits in the middle of its cell, an inside bet on its line, the zero above row 1.
 */
const BOARD_PLACES = new Map<string, string>([
  ...Array.from({ length: 37 }, (_, n) => n).map((n): [string, string] => {
    if (n === 0) return ['-0.5:1.5', spotKey({ type: 'straight', numbers: [0] })];
    const row = Math.ceil(n / 3);
    const col = ((n - 1) % 3) + 1;
    return [`${row - 0.5}:${col - 0.5}`, spotKey({ type: 'straight', numbers: [n] })];
  }),
  ...INSIDE.map(({ spot, u, v }): [string, string] => [`${u}:${v}`, spotKey(spot)]),
]);
const PLACE_OF = new Map([...BOARD_PLACES].map(([place, key]) => [key, place]));

export type TArrow = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';
/**
 * The spot an arrow key leads to from `key`: half a cell at a time along the rows (`u`) or across
 * them (`v`), skipping places with nothing to bet on. The standing table (phones) runs its rows
 * down the screen; the lying one (wide screens) runs them to the right with 1, 4, 7 … at the bottom.
 */
export function nextSpotKey(key: string, arrow: TArrow, lying: boolean): string | null {
  const place = PLACE_OF.get(key);
  if (!place) return null;
  const [u0, v0] = place.split(':').map(Number) as [number, number];
  const steps: Record<TArrow, [number, number]> = lying
    ? { ArrowRight: [0.5, 0], ArrowLeft: [-0.5, 0], ArrowUp: [0, 0.5], ArrowDown: [0, -0.5] }
    : { ArrowDown: [0.5, 0], ArrowUp: [-0.5, 0], ArrowRight: [0, 0.5], ArrowLeft: [0, -0.5] };
  const [du, dv] = steps[arrow];
  let [u, v] = [u0, v0];
  for (let i = 0; i < 6; i++) {
    u += du;
    v += dv;
    if (u < -0.5 || u > 12 || v < 0 || v > 3) return null;
    // Everything above row 1 is the zero.
    const found = BOARD_PLACES.get(u < 0 ? '-0.5:1.5' : `${u}:${v}`);
    if (found && found !== key) return found;
  }
  return null;
}

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

/** European roulette: chips on numbers, inside and outside bets; the wheel lands where the server says. */
export function RoulettePlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [chipText, setChipText] = useState(min);
  const [table, setTable] = useState<TTable>(new Map());
  const [undo, setUndo] = useState<TTable[]>([]);
  const [preview, setPreview] = useState<TSpot | null>(null);
  // One spot of the number area is in the tab order; the arrow keys move within it.
  const [current, setCurrent] = useState(spotKey({ type: 'straight', numbers: [0] }));
  const board = useRef<HTMLFieldSetElement>(null);
  const [rotation, setRotation] = useState(0);
  const [pocket, setPocket] = useState<number | null>(null);
  const [last, setLast] = useState<TRound | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const chip = checkStake(chipText, min, max);
  const total = tableTotal(table);
  const minMinor = toMinor(min) ?? 1n;
  const maxMinor = toMinor(max) ?? 0n;
  const overMax = total > maxMinor;
  const full = table.size >= ROULETTE_MAX_BETS;

  /** One spin of the table as it stands, scaled to the stake auto-bet asks for. */
  const spin = async (stakeMinor: bigint) => {
    setLast(null);
    const bets = [...scaleTable(table, stakeMinor).values()].map(({ spot, minor }) => ({
      type: spot.type,
      numbers: spot.numbers,
      amount: formatMinorText(minor),
    }));
    const answer = await placeBet('roulette', { bets }, { demo, idempotencyKey: crypto.randomUUID() });
    const landed = Number(answer.round.outcome.pocket ?? 0);
    // Four full turns, then the pocket under the pointer at the top.
    const target = 360 * 4 + (360 - (WHEEL.indexOf(landed) * 360) / WHEEL.length);
    setRotation((current) => current - (current % 360) + target);
    await new Promise((done) => {
      timer.current = setTimeout(done, SPIN_MS);
    });
    setPocket(landed);
    setLast(answer.round);
    settleBalance(answer, { demo, onBalance });
    return answer.round;
  };
  const runner = useBetRunner({ play: spin, stakeMinor: total > 0n ? total : null, max });
  const busy = runner.busy;

  const change = (next: TTable) => {
    setUndo((items) => [...items, table].slice(-UNDO_DEPTH));
    setTable(next);
    setLast(null);
  };
  const place = (spot: TSpot) => {
    if (busy || chip.minor === null) return;
    if (full && !table.has(spotKey(spot))) return;
    change(addChip(table, spot, chip.minor));
  };
  const remove = (key: string) => {
    const next = new Map(table);
    next.delete(key);
    change(next);
  };

  // The spots the server paid on this spin (from its results, not recomputed here).
  const paid = new Set(
    (Array.isArray(last?.outcome.results) ? (last.outcome.results as TPaidBet[]) : [])
      .filter((result) => result.win && result.bet)
      .map((result) => `${result.bet?.type}:${(result.bet?.numbers ?? []).join('-')}`),
  );
  const covered = new Set(preview ? coverOf(preview) : []);

  /** "Split 1/2", "Street 4–6", "Red" … for labels and the bet list. */
  const nameOf = (spot: TSpot): string => {
    const cover = coverOf(spot);
    switch (spot.type) {
      case 'straight':
        return t('play.roulette.number', { n: cover[0] });
      case 'split':
      case 'corner':
      case 'trio':
      case 'first_four':
        return t(`play.roulette.bet_${spot.type}`, { numbers: cover.join('/') });
      case 'street':
      case 'line':
        return t(`play.roulette.bet_${spot.type}`, { from: cover[0], to: cover.at(-1) });
      case 'dozen':
        return t('play.roulette.dozen', { n: spot.numbers[0] });
      case 'column':
        return t('play.roulette.column', { n: spot.numbers[0] });
      default:
        return t(`play.roulette.${spot.type}`);
    }
  };
  const paysOf = (spot: TSpot) => t('play.roulette.pays', { odds: returnOf(spot) - 1 });
  const focusProps = (spot: TSpot) => {
    const key = spotKey(spot);
    const inside = PLACE_OF.has(key);
    return {
      'data-spot': key,
      tabIndex: inside ? (key === current ? 0 : -1) : undefined,
      onPointerEnter: () => setPreview(spot),
      onPointerLeave: () => setPreview(null),
      onFocus: () => {
        setPreview(spot);
        if (inside) setCurrent(key);
      },
      onBlur: () => setPreview(null),
    };
  };
  const onBoardKey = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    const key = (event.target as HTMLElement).dataset.spot;
    if (!key || !['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].includes(event.key)) return;
    const lying = window.matchMedia?.('(min-width: 700px)').matches ?? false;
    const next = nextSpotKey(key, event.key as TArrow, lying);
    if (!next) return;
    event.preventDefault();
    board.current?.querySelector<HTMLElement>(`[data-spot="${next}"]`)?.focus();
  };

  const cell = (spot: TSpot, label: string, className: string, at: TPlace) => {
    const key = spotKey(spot);
    const on = table.get(key)?.minor;
    const hit = !busy && (paid.has(key) || (spot.type === 'straight' && spot.numbers[0] === pocket && last));
    const lit = spot.type === 'straight' && covered.has(spot.numbers[0] ?? -1);
    return (
      <button
        key={key}
        type="button"
        className={`roulette__cell ${className}${hit ? ' is-paid' : ''}${lit ? ' is-covered' : ''}`}
        style={placement(at)}
        data-testid={`roulette-spot-${key.replace(':', '-')}`}
        aria-label={`${nameOf(spot)}, ${paysOf(spot)}`}
        disabled={busy}
        onClick={() => place(spot)}
        {...focusProps(spot)}
      >
        {label}
        {on !== undefined && <span className="roulette__chip">{chipLabel(on)}</span>}
      </button>
    );
  };

  const hotspot = ({ spot, u, v }: THotspot) => {
    const key = spotKey(spot);
    const on = table.get(key)?.minor;
    return (
      <button
        key={key}
        type="button"
        className={`roulette__spot${on !== undefined ? ' has-chip' : ''}${paid.has(key) && !busy ? ' is-paid' : ''}`}
        style={{ '--u': u, '--v': v } as CSSProperties}
        data-testid={`roulette-spot-${key.replace(':', '-')}`}
        aria-label={`${nameOf(spot)}, ${paysOf(spot)}`}
        disabled={busy}
        onClick={() => place(spot)}
        {...focusProps(spot)}
      >
        {on !== undefined && <span className="roulette__chip">{chipLabel(on)}</span>}
      </button>
    );
  };

  const chips = CHIP_VALUES.filter((value) => value >= minMinor && value <= maxMinor);
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
      <p id="roulette-keys" className="visually-hidden">
        {t('play.roulette.keys')}
      </p>
      <p className="roulette__hint" data-testid="roulette-preview" aria-hidden="true">
        {preview ? `${nameOf(preview)} · ${paysOf(preview)}` : t('play.roulette.hint')}
      </p>
      <fieldset
        ref={board}
        className="roulette__table"
        aria-label={t('play.roulette.table')}
        aria-describedby="roulette-keys"
        onKeyDown={onBoardKey}
      >
        {cell({ type: 'straight', numbers: [0] }, '0', 'is-green', { m: [1, 1, 3], d: [1, 1, 1, 3] })}
        {NUMBERS.map((n) =>
          cell({ type: 'straight', numbers: [n] }, String(n), `is-${pocketColour(n)}`, {
            m: [4 - rowOf(n), colOf(n) + 1],
            d: [colOf(n) + 1, rowOf(n)],
          }),
        )}
        <div className="roulette__inside" style={placement({ m: [1, 2, 3, 12], d: [2, 1, 12, 3] })}>
          {INSIDE.map(hotspot)}
        </div>
        {[1, 2, 3].map((c) =>
          cell({ type: 'column', numbers: [c] }, '2:1', 'is-outside', { m: [c, 14], d: [14, 4 - c] }),
        )}
        {[1, 2, 3].map((d) =>
          cell({ type: 'dozen', numbers: [d] }, t('play.roulette.dozen', { n: d }), 'is-outside', {
            m: [4, 2 + 4 * (d - 1), 1, 4],
            d: [2 + 4 * (d - 1), 4, 4],
          }),
        )}
        {OUTSIDE.map((type, i) =>
          cell({ type, numbers: [] }, t(`play.roulette.${type}`), `is-outside is-${type}`, {
            m: [5, 2 + 2 * i, 1, 2],
            d: [2 + 2 * i, 5, 2],
          }),
        )}
      </fieldset>
      {table.size > 0 && (
        // On a phone the table is taller than the screen: once chips are down, the spin stays in
        // reach at the bottom (the same manual bet as the panel's button; hidden on wide screens).
        <div className="roulette__quickbar" data-testid="roulette-quickbar">
          <span>
            <span className="play-label">{t('play.roulette.total')}</span>
            <strong className="roulette__sum">{localMoney(total)}</strong>
          </span>
          <button
            type="button"
            className="button button--primary button--large"
            data-testid="roulette-quick-spin"
            disabled={busy || overMax}
            onClick={() => void runner.manual()}
          >
            {busy ? t('play.playing') : t('play.roulette.spin')}
          </button>
        </div>
      )}
      <fieldset className="roulette__chips" aria-label={t('play.roulette.chip')}>
        {chips.map((value) => {
          const text = formatMinorText(value);
          return (
            <button
              key={text}
              type="button"
              className={`roulette__chip-button${chip.minor === value ? ' is-selected' : ''}`}
              data-testid={`roulette-chip-${text}`}
              aria-pressed={chip.minor === value}
              title={t('play.roulette.chip_value', { amount: localMoney(value) })}
              disabled={busy}
              onClick={() => setChipText(text)}
            >
              {/* The name starts with what the chip shows, as speech users say it. */}
              {chipLabel(value)}
              <span className="visually-hidden"> {t('play.roulette.chip')}</span>
            </button>
          );
        })}
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
          <div>
            <span className="play-label">{t('play.roulette.total')}</span>
            <strong className="roulette__sum" data-testid="roulette-total">
              {localMoney(total)}
            </strong>
          </div>
          <div>
            <span className="play-label">{t('play.roulette.best')}</span>
            <strong className="roulette__sum" data-testid="roulette-best">
              {localMoney(bestReturn(table))}
            </strong>
          </div>
          <div className="roulette__tools">
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="roulette-undo"
              disabled={busy || undo.length === 0}
              onClick={() => {
                setTable(undo.at(-1) ?? new Map());
                setUndo((items) => items.slice(0, -1));
              }}
            >
              {t('play.roulette.undo')}
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              data-testid="roulette-clear"
              disabled={busy || table.size === 0}
              onClick={() => change(new Map())}
            >
              {t('play.roulette.clear')}
            </button>
          </div>
          {overMax && (
            <p className="play-error" role="alert">
              {t('play.stake_range', { min: formatMoney(min), max: formatMoney(max) })}
            </p>
          )}
          {full && (
            <p className="play-error" role="status">
              {t('play.roulette.full', { count: ROULETTE_MAX_BETS })}
            </p>
          )}
        </div>
      </div>
      <BetPanel
        game="roulette"
        runner={runner}
        canBet={table.size > 0 && !overMax}
        label={table.size === 0 ? t('play.roulette.place_chips') : t('play.roulette.spin')}
      />
      {table.size > 0 && (
        <ul className="roulette__slip" data-testid="roulette-slip" aria-label={t('play.roulette.slip')}>
          {[...table.entries()].map(([key, { spot, minor }]) => (
            <li key={key}>
              <span>{nameOf(spot)}</span>
              <span className="roulette__slip-pays">{paysOf(spot)}</span>
              <strong>{localMoney(minor)}</strong>
              <button
                type="button"
                className="roulette__slip-remove"
                aria-label={t('play.roulette.remove', { bet: nameOf(spot) })}
                disabled={busy}
                onClick={() => remove(key)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
