import type { TRound } from '@sorte/contract';
import { fitsUnderCap, MINES_TILES, minesMultiplier } from '@sorte/fairness';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format.ts';
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

const TILE_INDEXES = Array.from({ length: 25 }, (_, tile) => tile);
const MINE_COUNTS = Array.from({ length: 24 }, (_, i) => i + 1);

const numbers = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

/** What the board shows of a round: opened tiles, and the mines once the round is over. */
export function minesBoard(round: TRound | null) {
  if (!round) return { picks: [] as number[], mines: [] as number[], boom: null as number | null };
  const picks = numbers(round.outcome.picks);
  const mines = round.status === 'settled' ? numbers(round.outcome.mines) : [];
  const boom = round.outcome.hitMine === true ? (picks.at(-1) ?? null) : null;
  return { picks, mines, boom };
}

/** Mines: a 5×5 field; each safe tile raises the multiplier, a mine loses the stake. */
export function MinesPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [amount, setAmount] = useState(() => openingStake(min, { game: 'mines', mines: 3 }, max));
  const [mineCount, setMineCount] = useState(3);
  const [pending, setPending] = useState<number | null>(null);
  // A round left open (reload, another tab) is resumed where it stopped, with its mine count.
  const { round, busy, run } = useSteppedRound<'start' | 'pick' | 'cashout'>(
    'mines',
    { demo, onBalance },
    (open) => setMineCount(Number(open.outcome.mines_count ?? 3)),
  );

  const active = round?.status === 'active';
  const stake = checkStake(amount, min, max, { game: 'mines', mines: mineCount });
  const board = minesBoard(round);
  // A tile whose win would pass the max win is not offered (the server refuses it): cash out.
  const maxWin = toMinor(launch.game.max_win);
  const capped =
    active &&
    maxWin !== null &&
    board.picks.length < MINES_TILES - mineCount &&
    !fitsUnderCap(toMinor(round.stake) ?? 0n, minesMultiplier(mineCount, board.picks.length + 1), maxWin);
  const opened = new Set(board.picks);
  const mineSet = new Set(board.mines);

  const start = () => {
    if (busy || stake.minor === null) return;
    const body = { amount: formatMinorText(stake.minor), mines: mineCount };
    const idempotencyKey = crypto.randomUUID();
    void run('start', () => steppedCall('mines/start', { demo, body, idempotencyKey }), true);
  };
  const pick = (tile: number) => {
    if (busy || !round || !active || opened.has(tile)) return;
    setPending(tile);
    void run('pick', () => steppedCall('mines/pick', { demo, body: { round_id: round.id, tile } })).finally(
      () => setPending(null),
    );
  };
  const cashOut = () => {
    if (busy || !round || !active || board.picks.length === 0) return;
    void run('cashout', () => steppedCall('mines/cashout', { demo, body: { round_id: round.id } }));
  };

  const current = active ? String(round.outcome.multiplier ?? '0') : round?.multiplier;
  const next = active ? (round.outcome.next_multiplier as string | null) : null;
  const profit =
    active && board.picks.length > 0
      ? formatMinorText(((toMinor(round.stake) ?? 0n) * tenThousandthsOf(current ?? '')) / 10_000n)
      : null;

  return (
    <section className="card play mines" data-testid="mines-play">
      <div className="mines__status" data-testid="mines-result" aria-live="polite">
        <MultiplierStat label={t('play.mines.current')} value={current ? shortMultiplier(current) : null} />
        <MultiplierStat label={t('play.mines.next')} value={next ? shortMultiplier(next) : null} />
        {!active && <RoundLine round={round} />}
        {!active && round && board.boom !== null && (
          <p className="play-line is-loss">{t('play.mines.boom')}</p>
        )}
      </div>
      <fieldset className={`mines__grid${active ? ' is-live' : ''}`} aria-label={t('play.mines.board')}>
        {TILE_INDEXES.map((tile) => {
          const isOpen = opened.has(tile);
          const isMine = mineSet.has(tile);
          const state =
            tile === board.boom
              ? 'is-boom'
              : isOpen
                ? 'is-gem'
                : isMine
                  ? 'is-mine'
                  : round?.status === 'settled'
                    ? 'is-safe'
                    : '';
          return (
            <button
              key={tile}
              type="button"
              className={`mines__tile ${state}${pending === tile ? ' is-pending' : ''}`}
              data-testid={`mines-tile-${tile}`}
              aria-label={t('play.mines.tile', { n: tile + 1 })}
              disabled={!active || isOpen || busy !== null || capped}
              onClick={() => pick(tile)}
            >
              {state === 'is-gem' || state === 'is-safe'
                ? '◆'
                : state === 'is-boom' || state === 'is-mine'
                  ? '✹'
                  : ''}
            </button>
          );
        })}
      </fieldset>
      <div className="play-grid">
        <StakeField
          game="mines"
          value={amount}
          onChange={setAmount}
          min={min}
          max={max}
          disabled={active || busy !== null}
          error={active ? null : stake.error}
          fix={stake.fix}
        />
        <div>
          <label className="play-label" htmlFor="mines-count">
            {t('play.mines.mines')}
          </label>
          <select
            id="mines-count"
            data-testid="mines-count"
            className="play-input"
            value={mineCount}
            disabled={active || busy !== null}
            onChange={(event) => setMineCount(Number(event.target.value))}
          >
            {MINE_COUNTS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      {capped && maxWin !== null && (
        <p className="play-error" role="status" data-testid="mines-max-win">
          {t('play.rule.max_win_reached', { max_win: localMoney(maxWin) })}
        </p>
      )}
      {active ? (
        <button
          type="button"
          className="button button--primary button--block button--large"
          data-testid="mines-cashout"
          disabled={busy !== null || board.picks.length === 0}
          onClick={cashOut}
        >
          {board.picks.length === 0
            ? t('play.mines.pick_a_tile')
            : t('play.mines.cash_out', { amount: formatMoney(profit) })}
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary button--block button--large"
          data-testid="mines-bet"
          disabled={busy !== null || stake.minor === null}
          onClick={start}
        >
          {busy === 'start' ? t('play.playing') : t('play.bet')}
        </button>
      )}
    </section>
  );
}
