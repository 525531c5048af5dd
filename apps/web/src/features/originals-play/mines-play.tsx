import type { TBetResponse, TRound } from '@sorte/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api-client.ts';
import { toast } from '../../lib/toast.ts';
import {
  checkStake,
  formatMinorText,
  RoundLine,
  StakeField,
  settleBalance,
  shortMultiplier,
  steppedCall,
  type TPlayProps,
  toMinor,
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
  const [amount, setAmount] = useState(min);
  const [mineCount, setMineCount] = useState(3);
  const [round, setRound] = useState<TRound | null>(null);
  const [busy, setBusy] = useState<'start' | 'pick' | 'cashout' | 'load' | null>('load');
  const [pending, setPending] = useState<number | null>(null);

  // A round left open (reload, another tab) is resumed where it stopped.
  useEffect(() => {
    let live = true;
    steppedCall<{ round: TRound | null; balance: string }>('mines/active', { demo })
      .then((answer) => {
        if (!live) return;
        if (answer.round) {
          setRound(answer.round);
          setMineCount(Number(answer.round.outcome.mines_count ?? 3));
        }
      })
      .catch(() => {
        // Nothing to resume is the usual case; a failure here leaves a fresh board.
      })
      .finally(() => {
        if (live) setBusy(null);
      });
    return () => {
      live = false;
    };
  }, [demo]);

  const active = round?.status === 'active';
  const stake = checkStake(amount, min, max);
  const board = minesBoard(round);
  const opened = new Set(board.picks);
  const mineSet = new Set(board.mines);

  const run = async (kind: 'start' | 'pick' | 'cashout', call: () => Promise<TBetResponse>) => {
    setBusy(kind);
    try {
      const answer = await call();
      setRound(answer.round);
      if (kind === 'start' || answer.round.status === 'settled') settleBalance(answer, { demo, onBalance });
    } catch (error) {
      toast.error((error as ApiError).message);
    } finally {
      setBusy(null);
      setPending(null);
    }
  };

  const start = () => {
    if (busy || stake.minor === null) return;
    const body = { amount: formatMinorText(stake.minor), mines: mineCount };
    const idempotencyKey = crypto.randomUUID();
    void run('start', () => steppedCall('mines/start', { demo, body, idempotencyKey }));
  };
  const pick = (tile: number) => {
    if (busy || !round || !active || opened.has(tile)) return;
    setPending(tile);
    void run('pick', () => steppedCall('mines/pick', { demo, body: { round_id: round.id, tile } }));
  };
  const cashOut = () => {
    if (busy || !round || !active || board.picks.length === 0) return;
    void run('cashout', () => steppedCall('mines/cashout', { demo, body: { round_id: round.id } }));
  };

  const current = active ? String(round.outcome.multiplier ?? '0') : round?.multiplier;
  const next = active ? (round.outcome.next_multiplier as string | null) : null;
  const profit =
    active && board.picks.length > 0
      ? formatMinorText(((toMinor(round.stake) ?? 0n) * toTenThousandths(current)) / 10_000n)
      : null;

  return (
    <section className="card play mines" data-testid="mines-play">
      <div className="mines__status" data-testid="mines-result" aria-live="polite">
        <div>
          <span className="play-label">{t('play.mines.current')}</span>
          <strong className="mines__multiplier">{current ? `×${shortMultiplier(current)}` : '—'}</strong>
        </div>
        <div>
          <span className="play-label">{t('play.mines.next')}</span>
          <strong>{next ? `×${shortMultiplier(next)}` : '—'}</strong>
        </div>
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
              disabled={!active || isOpen || busy !== null}
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
            : t('play.mines.cash_out', { amount: profit ?? '0.00' })}
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

/** "1.2375" → 12375n (the multiplier in ten-thousandths, for a whole-centavo payout preview). */
function toTenThousandths(text: string | undefined): bigint {
  const match = /^(\d+)\.(\d{1,4})$/.exec(text ?? '');
  if (!match) return 0n;
  return BigInt(match[1] ?? '0') * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0'));
}
