import type { TBetResponse, TLaunchResponse, TRound } from '@sorte/contract';
import {
  checkStake as checkStakeRule,
  nextAcceptedStake,
  type StakeCheck as StakeRuleCheck,
  smallestStakeOf,
  type TStakeChoice,
} from '@sorte/fairness';
import i18next from 'i18next';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api-client.ts';
import { decimalSeparator, formatDecimal, formatFactor, formatMoney } from '../../lib/format.ts';
import { queryClient, USER_QUERY_KEY } from '../../lib/query-client.ts';
import { toast } from '../../lib/toast.ts';
import { placeBet as placeBetCall, originalsCall as steppedCallOf } from '../originals/api/place-bet.ts';
import { playOutcome } from './game-sound.tsx';

/** Where a game keeps the stake of the player's last accepted bet, on this device. */
const lastStakeKey = (game: string) => `sorte.last_stake.${game}`;

/** Notes the stake of an accepted bet: the game opens at it next time (a private window may refuse). */
export function rememberStake(game: string, amount: unknown): void {
  if (typeof amount !== 'string' || toMinor(amount) === null) return;
  try {
    localStorage.setItem(lastStakeKey(game), amount);
  } catch {
    // Storage refused: the game opens at its smallest stake, as on a first visit.
  }
}

function lastStake(game: string): string | null {
  try {
    return localStorage.getItem(lastStakeKey(game));
  } catch {
    return null;
  }
}

/** Places a bet (its Idempotency-Key makes a retry count once) and, once accepted, keeps its stake. */
export async function placeBet(
  game: string,
  body: Record<string, unknown>,
  options: { demo: boolean; idempotencyKey: string },
): Promise<TBetResponse> {
  const answer = await placeBetCall(game, body, options);
  rememberStake(game, body.amount);
  return answer;
}

/** What every game screen receives from the game page (the same contract as DicePlay). */
export interface TPlayProps {
  launch: TLaunchResponse;
  demo: boolean;
  onBalance: (balance: string) => void;
}

/** "1.50" → 150n; null for anything that is not a positive amount with up to 2 decimals. */
export function toMinor(text: string): bigint | null {
  const match = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const minor = BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return minor > 0n ? minor : null;
}

/** 150n → "1.50" (the contract's money text). */
export const formatMinorText = (minor: bigint) =>
  `${minor / 100n}.${(minor % 100n).toString().padStart(2, '0')}`;

/**
 * Stepped games (Mines, Hi-Lo: start, pick/call, cash out, the active round) use the same call as
 * bets; a round that starts keeps its stake as the game's next opening one.
 */
export async function steppedCall<T = TBetResponse>(
  path: string,
  options: { demo: boolean; body?: Record<string, unknown>; idempotencyKey?: string },
): Promise<T> {
  const answer = await steppedCallOf<T>(path, options);
  const [game, step] = path.split('/');
  if (step === 'start' && game) rememberStake(game, options.body?.amount);
  return answer;
}

/**
 * A frame-by-frame animation: `onFrame(progress 0…1, elapsedMs)` on each animation frame for
 * `durationMs`, then the promise resolves. The frame in flight is cancelled when the screen leaves.
 */
export function useTween() {
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return (durationMs: number, onFrame: (progress: number, elapsedMs: number) => void) =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const tick = (now: number) => {
        const elapsed = Math.min(durationMs, now - start);
        onFrame(elapsed / durationMs, elapsed);
        if (elapsed < durationMs) frame.current = requestAnimationFrame(tick);
        else resolve();
      };
      frame.current = requestAnimationFrame(tick);
    });
}

/** After a settled bet: the page's balance, and the header's for real money. */
export function settleBalance(answer: TBetResponse, props: Pick<TPlayProps, 'demo' | 'onBalance'>) {
  props.onBalance(answer.balance);
  // A stepped game (Mines, Hi-Lo) also settles the balance when a round starts: no outcome yet.
  if (answer.round.status === 'settled') playOutcome(answer.round.payout);
  if (!props.demo) void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
}

/** A refused stake carries the reason and, when one exists, a stake the game would take instead. */
export type TStakeCheck =
  | { minor: bigint; error: null; fix?: undefined }
  | { minor: null; error: string; fix?: bigint | null };

/** An amount in centavos the way the reader's language writes reais ("R$ 8,92" in pt). */
export const localMoney = (minor: bigint) => formatMoney(formatMinorText(minor));

/** Why the stake rules refuse a stake, in the reader's language (the server says the same). */
function ruleRefusal(check: Exclude<StakeRuleCheck, { ok: true }>): string {
  switch (check.code) {
    case 'STAKE_TOO_SMALL_FOR_TARGET':
      return check.stepMinor === null
        ? i18next.t('play.rule.min', { min: localMoney(check.minAnyMinor) })
        : i18next.t('play.rule.min_or_step', {
            min: localMoney(check.minAnyMinor),
            step: localMoney(check.stepMinor),
          });
    case 'TARGET_ABOVE_CAP':
      return i18next.t('play.rule.above_cap', {
        max_win: localMoney(check.maxWinMinor),
        max_target: formatDecimal(hundredthsOf(check.maxTargetHundredths)),
      });
    default:
      return i18next.t('play.stake_range', {
        min: localMoney(check.minMinor),
        max: localMoney(check.maxMinor),
      });
  }
}

/**
 * The stake as typed, within the game's limits and, given the bet's choice (target, mines, rows…),
 * the stake rules of @sorte/fairness: the very check the server makes before taking money, so the
 * button is disabled with the reason instead of a bet being refused. A choice the game does not
 * offer is left to the page's own message.
 */
export function checkStake(
  text: string,
  min: string,
  max: string,
  choice?: TStakeChoice | null,
): TStakeCheck {
  const minor = toMinor(text);
  const low = toMinor(min) ?? 1n;
  const high = toMinor(max) ?? low;
  if (minor === null) return { minor: null, error: i18next.t('play.stake_invalid') };
  if (minor < low || minor > high)
    return {
      minor: null,
      error: i18next.t('play.stake_range', { min: localMoney(low), max: localMoney(high) }),
    };
  if (!choice) return { minor, error: null };
  let check: StakeRuleCheck;
  try {
    check = checkStakeRule(minor, choice);
  } catch {
    return { minor, error: null };
  }
  if (check.ok) return { minor, error: null };
  const fix =
    check.code === 'TARGET_ABOVE_CAP'
      ? stakeForCap(choice, check.maxWinMinor)
      : nextAcceptedStake(minor, choice);
  return { minor: null, error: ruleRefusal(check), fix };
}

/** The highest stake whose win at the chosen target fits under the cap (limbo, crash auto cash-out). */
function stakeForCap(choice: TStakeChoice, maxWinMinor: bigint): bigint | null {
  const target =
    choice.game === 'limbo'
      ? choice.targetHundredths
      : choice.game === 'crash'
        ? choice.autoCashOutHundredths
        : null;
  if (target === null) return null;
  const stake = (maxWinMinor * 100n) / BigInt(target);
  return checkStakeRule(stake, choice).ok ? stake : null;
}

/**
 * The first stake a screen offers: the stake of the player's last accepted bet in this game when
 * the opening choice takes it, otherwise the smallest stake the game and its rules take. Never an
 * amount the player did not choose beyond the smallest one.
 */
export function openingStake(min: string, choice: TStakeChoice, max: string = min): string {
  const remembered = lastStake(choice.game);
  if (remembered !== null && checkStake(remembered, min, maxOf(min, max), choice).error === null)
    return remembered;
  const low = toMinor(min) ?? 1n;
  const smallest = smallestStakeOf(choice);
  return formatMinorText(smallest > low ? smallest : low);
}

/** A game without stake rules beyond its limits: the last accepted stake when within them, else the minimum. */
export function openingStakeWithin(game: string, min: string, max: string): string {
  const remembered = lastStake(game);
  return remembered !== null && checkStake(remembered, min, maxOf(min, max)).error === null
    ? remembered
    : min;
}

/** The higher of two limits as text (a screen without a maximum passes its minimum twice). */
const maxOf = (min: string, max: string) => ((toMinor(max) ?? 0n) < (toMinor(min) ?? 0n) ? min : max);

/** Halves or doubles a stake, kept within the limits. */
export function scaleStake(text: string, factor: 'half' | 'double', min: string, max: string): string {
  const minor = toMinor(text) ?? toMinor(min) ?? 1n;
  const low = toMinor(min) ?? 1n;
  const high = toMinor(max) ?? minor;
  const next = factor === 'half' ? minor / 2n : minor * 2n;
  return formatMinorText(next < low ? low : next > high ? high : next);
}

export const isWin = (round: TRound) => !round.win_loss.startsWith('-') && round.payout !== '0.00';

/**
 * "1.9800" → "1,98" in pt, "1.98" in en: the server's 4-decimal multiplier in the reader's digits,
 * with 2 places unless more matter. Every game shows its multipliers through this (or the compact
 * form), so no screen writes a point where the reader writes a comma.
 */
export const shortMultiplier = (text: string): string => formatFactor(text);

/** Hundredths (4950) as the decimal text "49.50", for the formatter and the contract. */
export const hundredthsOf = (value: number) =>
  `${Math.floor(value / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;

/** The stake as the reader writes it ("1,50" in pt); the games keep it as "1.50". */
export const localStakeText = (text: string) => text.replace('.', decimalSeparator());
/** What the player typed in the stake field, back to the games' form: either mark is the decimal one. */
export const stakeTextOf = (typed: string) => typed.replace(/,/g, '.').replace(/[^\d.]/g, '');

/** The stake field every game shares: amount, ½ and 2×, and the reason it cannot be played. */
export function StakeField({
  game,
  value,
  onChange,
  min,
  max,
  disabled,
  error,
  fix,
  label,
}: {
  game: string;
  /** Defaults to "Bet amount"; Roulette asks for the value of one chip. */
  label?: string;
  value: string;
  onChange: (value: string) => void;
  min: string;
  max: string;
  disabled: boolean;
  error: string | null;
  /** A stake the game would take instead of a refused one, offered as a one-tap fix. */
  fix?: bigint | null | undefined;
}) {
  const { t } = useTranslation();
  const id = `${game}-amount`;
  return (
    <div className="play-stake">
      <label className="play-label" htmlFor={id}>
        {label ?? t('play.stake')}
      </label>
      <div className="play-stake__row">
        <input
          id={id}
          name="amount"
          data-testid={id}
          className="play-input"
          inputMode="decimal"
          maxLength={13}
          value={localStakeText(value)}
          disabled={disabled}
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(stakeTextOf(event.target.value))}
        />
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={disabled}
          onClick={() => onChange(scaleStake(value, 'half', min, max))}
        >
          ½
        </button>
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={disabled}
          onClick={() => onChange(scaleStake(value, 'double', min, max))}
        >
          2×
        </button>
      </div>
      {error && (
        <p className="play-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
      {error && fix !== undefined && fix !== null && (
        <button
          type="button"
          className="button button--ghost button--small play-stake__fix"
          data-testid={`${id}-fix`}
          disabled={disabled}
          onClick={() => onChange(formatMinorText(fix))}
        >
          {t('play.rule.use', { amount: localMoney(fix) })}
        </button>
      )}
    </div>
  );
}

/** "1.2375" → 12375n: a multiplier in ten-thousandths, for a whole-centavo payout preview. */
export function tenThousandthsOf(text: string): bigint {
  const match = /^(\d+)\.(\d{1,4})$/.exec(text);
  return match ? BigInt(match[1] ?? '0') * 10_000n + BigInt((match[2] ?? '').padEnd(4, '0')) : 0n;
}

/** "5.6000" → "5,6" in pt, "110.0000" → "110": a multiplier as short as it can be written. */
export const compactMultiplier = (text: string) =>
  formatDecimalTrimmed(text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** A decimal text in the reader's digits with as many places as it has (none for a whole one). */
function formatDecimalTrimmed(text: string): string {
  const places = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
  return formatDecimal(text, places);
}

/** The last round's line under the board: won (payout) or lost (stake). */
export function RoundLine({ round }: { round: TRound | null }) {
  const { t } = useTranslation();
  if (!round) return null;
  const won = isWin(round);
  const multiplier = shortMultiplier(round.multiplier);
  return (
    <p className={`play-line ${won ? 'is-win' : 'is-loss'}`}>
      {won
        ? t('play.won', { amount: formatMoney(round.payout), multiplier })
        : round.payout !== '0.00'
          ? t('play.returned', { amount: formatMoney(round.payout), multiplier })
          : t('play.lost', { amount: formatMoney(round.stake) })}
    </p>
  );
}

/** The result area under a board: what the round was about (`detail`) and the won/lost line. */
export function ResultBox({
  game,
  round,
  detail,
  children,
}: {
  game: string;
  round: TRound | null;
  detail?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className={`play-result ${game}__result`} data-testid={`${game}-result`} aria-live="polite">
      {round && (
        <>
          {detail}
          <RoundLine round={round} />
          {children}
        </>
      )}
    </div>
  );
}

export interface TPayRow {
  key: string | number;
  label: string;
  multiplier: string;
  hit: boolean;
}

/** A short paytable beside a board (Keno hits, Bingo balls); the row the last round paid is lit. */
export function PayList({ label, rows }: { label: string; rows: readonly TPayRow[] }) {
  if (rows.length === 0) return null;
  return (
    <ol className="play-pays" aria-label={label}>
      {rows.map((row) => (
        <li key={row.key} className={row.hit ? 'is-hit' : ''}>
          <span>{row.label}</span>
          <strong>×{compactMultiplier(row.multiplier)}</strong>
        </li>
      ))}
    </ol>
  );
}

/** A multiplier figure with its label (Mines and Hi-Lo show the round's current one). */
export function MultiplierStat({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="play-stat">
      <span className="play-label">{label}</span>
      <strong className="play-stat__value">{value === null ? '—' : `×${value}`}</strong>
    </div>
  );
}

/**
 * The open round of a stepped game (Mines, Hi-Lo): resumed from the server on arrival (a reload,
 * another tab), then moved by `run` — start, pick/call, cash out — which shows a refusal in place and
 * settles the balance when the stake is taken or the round is over.
 */
export function useSteppedRound<K extends string>(
  game: 'mines' | 'hilo',
  props: Pick<TPlayProps, 'demo' | 'onBalance'>,
  onResume?: (round: TRound) => void,
) {
  const { demo } = props;
  const [round, setRound] = useState<TRound | null>(null);
  const [busy, setBusy] = useState<K | 'load' | null>('load');
  const resume = useRef(onResume);
  resume.current = onResume;

  useEffect(() => {
    let live = true;
    steppedCallOf<{ round: TRound | null }>(`${game}/active`, { demo })
      .then((answer) => {
        if (!live || !answer.round) return;
        setRound(answer.round);
        resume.current?.(answer.round);
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
  }, [demo, game]);

  // Set at once (state is not): a second click before the re-render never sends a second call.
  const inFlight = useRef(false);
  const run = async (kind: K, call: () => Promise<TBetResponse>, start = false) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(kind);
    try {
      const answer = await call();
      setRound(answer.round);
      if (start || answer.round.status === 'settled') settleBalance(answer, props);
    } catch (error) {
      toast.error((error as ApiError).message);
    } finally {
      inFlight.current = false;
      setBusy(null);
    }
  };

  return { round, busy, run };
}
