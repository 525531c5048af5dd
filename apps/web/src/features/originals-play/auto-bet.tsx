import { formatMinor, type TRound } from '@sorte/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api-client.ts';
import { formatAmount, formatMoney, formatSignedMoney } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import { formatMinorText, localStakeText, StakeField, stakeTextOf, toMinor } from './play-shared.tsx';

/** An auto-bet session places at most this many bets; each is a normal bet with its own key. */
export const AUTO_MAX_BETS = 1_000;
/** "Increase by" is a whole percentage up to ten times the stake. */
export const AUTO_MAX_PERCENT = 1_000;
/** The pause after a settled bet, so the player sees each result before the next one starts. */
const AUTO_GAP_MS = 400;

export type TAutoStop = 'count' | 'profit' | 'loss' | 'max_bet' | 'error' | 'user';

/** After a win (or a loss): back to the first stake, or the stake raised by a percentage. */
export type TAdjust = { mode: 'reset' } | { mode: 'increase'; percent: number };

export interface TAutoPlan {
  count: number;
  stopProfitMinor: bigint | null;
  stopLossMinor: bigint | null;
  onWin: TAdjust;
  onLoss: TAdjust;
}

export interface TAutoState {
  baseMinor: bigint;
  stakeMinor: bigint;
  bets: number;
  profitMinor: bigint;
}

/** The auto-bet form as typed; `planOf` turns it into a plan or says which field is wrong. */
export interface TAutoForm {
  count: string;
  stopProfit: string;
  stopLoss: string;
  onWin: 'reset' | 'increase';
  onWinPercent: string;
  onLoss: 'reset' | 'increase';
  onLossPercent: string;
}

export const AUTO_FORM: TAutoForm = {
  count: '10',
  stopProfit: '',
  stopLoss: '',
  onWin: 'reset',
  onWinPercent: '100',
  onLoss: 'reset',
  onLossPercent: '100',
};

type TField = 'count' | 'stopProfit' | 'stopLoss' | 'onWinPercent' | 'onLossPercent';

function wholeNumber(text: string, low: number, high: number): number | null {
  if (!/^\d{1,7}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value >= low && value <= high ? value : null;
}

/** The typed form as a plan, or the first field that cannot be used. */
export function planOf(form: TAutoForm): { plan: TAutoPlan; field: null } | { plan: null; field: TField } {
  const count = wholeNumber(form.count, 1, AUTO_MAX_BETS);
  if (count === null) return { plan: null, field: 'count' };
  const optionalMoney = (text: string) => (text.trim() === '' ? null : toMinor(text));
  const stopProfitMinor = optionalMoney(form.stopProfit);
  if (form.stopProfit.trim() !== '' && stopProfitMinor === null) return { plan: null, field: 'stopProfit' };
  const stopLossMinor = optionalMoney(form.stopLoss);
  if (form.stopLoss.trim() !== '' && stopLossMinor === null) return { plan: null, field: 'stopLoss' };
  const adjust = (mode: 'reset' | 'increase', text: string): TAdjust | null => {
    if (mode === 'reset') return { mode };
    const percent = wholeNumber(text, 1, AUTO_MAX_PERCENT);
    return percent === null ? null : { mode, percent };
  };
  const onWin = adjust(form.onWin, form.onWinPercent);
  if (!onWin) return { plan: null, field: 'onWinPercent' };
  const onLoss = adjust(form.onLoss, form.onLossPercent);
  if (!onLoss) return { plan: null, field: 'onLossPercent' };
  return { plan: { count, stopProfitMinor, stopLossMinor, onWin, onLoss }, field: null };
}

/** "12.34" / "-1.00" / "0.00" → minor units (the contract's signed money text). */
export function signedMinor(text: string): bigint {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!match) return 0n;
  const minor = BigInt(match[2] ?? '0') * 100n + BigInt(match[3] ?? '0');
  return match[1] === '-' ? -minor : minor;
}

/**
 * What a settled round does to an auto-bet session: the profit so far, the next stake, and whether
 * the session stops here. A round that pays more than it took counts as a win; anything else
 * (a partial return too) as a loss. A next stake over the game's maximum stops rather than being
 * cut down, so the player's progression is never silently changed.
 */
export function afterRound(
  plan: TAutoPlan,
  state: TAutoState,
  round: Pick<TRound, 'stake' | 'payout'>,
  maxMinor: bigint,
): { state: TAutoState; stop: TAutoStop | null } {
  const stake = signedMinor(round.stake);
  const payout = signedMinor(round.payout);
  const won = payout > stake;
  const adjust = won ? plan.onWin : plan.onLoss;
  const stakeMinor =
    adjust.mode === 'reset'
      ? state.baseMinor
      : (state.stakeMinor * BigInt(100 + adjust.percent) + 99n) / 100n;
  const next: TAutoState = {
    baseMinor: state.baseMinor,
    stakeMinor,
    bets: state.bets + 1,
    profitMinor: state.profitMinor + payout - stake,
  };
  if (plan.stopProfitMinor !== null && next.profitMinor >= plan.stopProfitMinor) {
    return { state: next, stop: 'profit' };
  }
  if (plan.stopLossMinor !== null && -next.profitMinor >= plan.stopLossMinor) {
    return { state: next, stop: 'loss' };
  }
  if (next.bets >= plan.count) return { state: next, stop: 'count' };
  if (stakeMinor > maxMinor) return { state: next, stop: 'max_bet' };
  return { state: next, stop: null };
}

export interface TAutoStatus extends TAutoState {
  running: boolean;
  count: number;
  stop: TAutoStop | null;
  error: string | null;
}

/**
 * Runs a game's bets, one at a time: a manual bet, or an auto-bet session of many. `play` places one
 * bet of the given stake (a fresh idempotency key each time, the same server path as a manual bet),
 * shows it, and resolves with the settled round once its animation is over; it throws on a refusal.
 */
export function useBetRunner({
  play,
  stakeMinor,
  max,
}: {
  play: (stakeMinor: bigint) => Promise<TRound>;
  stakeMinor: bigint | null;
  max: string;
}) {
  const [busy, setBusy] = useState(false);
  const [auto, setAuto] = useState<TAutoStatus | null>(null);
  const stopRequested = useRef(false);
  const mounted = useRef(true);
  // Set at once (state is not): a second click before the re-render never starts a second bet.
  const inFlight = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      // Leaving the game ends a session after the bet in flight.
      mounted.current = false;
      stopRequested.current = true;
    };
  }, []);

  const messageOf = (error: unknown) => (error as ApiError)?.message ?? String(error);

  const manual = async () => {
    if (inFlight.current || stakeMinor === null) return;
    inFlight.current = true;
    setBusy(true);
    try {
      await play(stakeMinor);
    } catch (error) {
      toast.error(messageOf(error));
    } finally {
      inFlight.current = false;
      if (mounted.current) setBusy(false);
    }
  };

  const startAuto = async (plan: TAutoPlan) => {
    if (inFlight.current || stakeMinor === null) return;
    inFlight.current = true;
    const maxMinor = toMinor(max) ?? stakeMinor;
    stopRequested.current = false;
    let state: TAutoState = { baseMinor: stakeMinor, stakeMinor, bets: 0, profitMinor: 0n };
    const report = (running: boolean, stop: TAutoStop | null, error: string | null) => {
      if (mounted.current) setAuto({ ...state, running, count: plan.count, stop, error });
    };
    setBusy(true);
    report(true, null, null);
    let stop: TAutoStop = 'user';
    let error: string | null = null;
    try {
      for (let bet = 0; bet < AUTO_MAX_BETS; bet++) {
        if (stopRequested.current) break;
        let round: TRound;
        try {
          round = await play(state.stakeMinor);
        } catch (failure) {
          error = messageOf(failure);
          stop = 'error';
          toast.error(error);
          break;
        }
        const step = afterRound(plan, state, round, maxMinor);
        state = step.state;
        if (step.stop) {
          stop = step.stop;
          break;
        }
        report(true, null, null);
        await new Promise((resolve) => setTimeout(resolve, AUTO_GAP_MS));
      }
    } finally {
      inFlight.current = false;
      report(false, stop, error);
      if (mounted.current) setBusy(false);
    }
  };

  return {
    busy,
    auto,
    running: auto?.running === true,
    manual,
    startAuto,
    stopAuto: () => {
      stopRequested.current = true;
    },
  };
}

export type TBetRunner = ReturnType<typeof useBetRunner>;

/** "+1.20", "-0.30", and "0.00" without a sign. */
export const signedText = (minor: bigint) =>
  `${minor < 0n ? '-' : minor > 0n ? '+' : ''}${formatMinorText(minor < 0n ? -minor : minor)}`;

/**
 * The bet button of an instant game, with a Manual / Auto switch. In auto mode: how many bets, stop
 * on profit or loss, what to do with the stake after a win or a loss, and start / stop.
 */
export function BetPanel({
  game,
  runner,
  canBet,
  label,
  betTestId,
  stake,
}: {
  game: string;
  runner: TBetRunner;
  /** The stake field, when the game's bet controls begin with it (the value a bet or a session starts from). */
  stake?: {
    value: string;
    onChange: (value: string) => void;
    min: string;
    max: string;
    error: string | null;
    fix?: bigint | null | undefined;
  };
  /** The game's own inputs are valid (stake, target, picks, chips …). */
  canBet: boolean;
  label: string;
  /** The manual button's test id (Dice keeps its historic `dice-roll`). */
  betTestId?: string;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'manual' | 'auto'>('manual');
  const [form, setForm] = useState<TAutoForm>(AUTO_FORM);
  const checked = planOf(form);
  const { auto, busy, running } = runner;
  const set = (patch: Partial<TAutoForm>) => setForm((current) => ({ ...current, ...patch }));
  const id = (field: string) => `${game}-auto-${field}`;
  const invalid = (field: TField) => checked.field === field;

  const money = (field: 'stopProfit' | 'stopLoss', text: string) => (
    <div>
      <label className="play-label" htmlFor={id(field)}>
        {t(`play.auto.${field === 'stopProfit' ? 'stop_profit' : 'stop_loss'}`)}
      </label>
      <input
        id={id(field)}
        data-testid={id(field)}
        className="play-input"
        inputMode="decimal"
        maxLength={13}
        placeholder={t('play.auto.no_limit')}
        value={localStakeText(text)}
        disabled={busy}
        aria-invalid={invalid(field)}
        onChange={(event) => set({ [field]: stakeTextOf(event.target.value) })}
      />
    </div>
  );

  const adjust = (side: 'onWin' | 'onLoss') => {
    const percentField = side === 'onWin' ? 'onWinPercent' : 'onLossPercent';
    const name = side === 'onWin' ? 'win' : 'loss';
    return (
      <fieldset className="play-auto__adjust">
        <legend className="play-label">{t(`play.auto.on_${name}`)}</legend>
        <div className="play-auto__row">
          {(['reset', 'increase'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              data-testid={id(`${name}-${choice}`)}
              className={`button button--small ${form[side] === choice ? 'button--primary' : 'button--ghost'}`}
              aria-pressed={form[side] === choice}
              disabled={busy}
              onClick={() => set({ [side]: choice })}
            >
              {t(`play.auto.${choice}`)}
            </button>
          ))}
          <input
            id={id(`${name}-percent`)}
            data-testid={id(`${name}-percent`)}
            className="play-input play-auto__percent"
            inputMode="numeric"
            maxLength={4}
            aria-label={t('play.auto.percent', { side: t(`play.auto.on_${name}`) })}
            value={form[percentField]}
            disabled={busy || form[side] === 'reset'}
            aria-invalid={invalid(percentField)}
            onChange={(event) => set({ [percentField]: event.target.value.replace(/\D/g, '') })}
          />
          <span aria-hidden="true">%</span>
        </div>
      </fieldset>
    );
  };

  return (
    <div className="play-bet" data-testid={`${game}-bet-panel`}>
      {stake && <StakeField game={game} {...stake} disabled={busy} />}
      <fieldset className="play-bet__modes" aria-label={t('play.auto.mode')}>
        {(['manual', 'auto'] as const).map((item) => (
          <button
            key={item}
            type="button"
            data-testid={`${game}-mode-${item}`}
            className={`button button--small ${item === mode ? 'button--primary' : 'button--ghost'}`}
            aria-pressed={item === mode}
            disabled={busy}
            onClick={() => setMode(item)}
          >
            {t(`play.auto.${item}`)}
          </button>
        ))}
      </fieldset>
      {mode === 'manual' ? (
        <button
          type="button"
          className="button button--primary button--block button--large"
          data-testid={betTestId ?? `${game}-bet`}
          disabled={busy || !canBet}
          onClick={() => void runner.manual()}
        >
          {busy ? t('play.playing') : label}
        </button>
      ) : (
        <div className="play-auto">
          <div className="play-grid">
            <div>
              <label className="play-label" htmlFor={id('count')}>
                {t('play.auto.count')}
              </label>
              <input
                id={id('count')}
                data-testid={id('count')}
                className="play-input"
                inputMode="numeric"
                maxLength={4}
                value={form.count}
                disabled={busy}
                aria-invalid={invalid('count')}
                onChange={(event) => set({ count: event.target.value.replace(/\D/g, '') })}
              />
            </div>
            {money('stopProfit', form.stopProfit)}
            {money('stopLoss', form.stopLoss)}
          </div>
          <div className="play-grid">
            {adjust('onWin')}
            {adjust('onLoss')}
          </div>
          {checked.field !== null && (
            <p className="play-error" role="alert">
              {t(`play.auto.invalid_${checked.field}`, {
                max: AUTO_MAX_BETS,
                percent: AUTO_MAX_PERCENT,
                example: formatAmount('10.00'),
              })}
            </p>
          )}
          {running ? (
            <button
              type="button"
              className="button button--block button--large play-bet__stop"
              data-testid={id('stop')}
              onClick={runner.stopAuto}
            >
              {t('play.auto.stop')}
            </button>
          ) : (
            <button
              type="button"
              className="button button--primary button--block button--large"
              data-testid={id('start')}
              disabled={busy || !canBet || checked.plan === null}
              onClick={() => checked.plan && void runner.startAuto(checked.plan)}
            >
              {t('play.auto.start')}
            </button>
          )}
        </div>
      )}
      {auto && (
        <p
          className={`play-auto__status${auto.error ? ' is-error' : ''}`}
          data-testid={id('status')}
          aria-live="polite"
        >
          <span>
            {t('play.auto.progress', { done: auto.bets, count: auto.count })}
            {' · '}
            {t('play.auto.profit', { amount: formatSignedMoney(formatMinor(auto.profitMinor)) })}
            {auto.running &&
              ` · ${t('play.auto.next_stake', { amount: formatMoney(formatMinorText(auto.stakeMinor)) })}`}
          </span>
          {!auto.running && auto.stop && <strong>{auto.error ?? t(`play.auto.stopped_${auto.stop}`)}</strong>}
        </p>
      )}
    </div>
  );
}
