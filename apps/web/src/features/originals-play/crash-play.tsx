import type { TCrashBet, TCrashPhase, TCrashServerMessage } from '@sorte/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { formatAmount, formatMoney } from '../../lib/format.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { queryClient, USER_QUERY_KEY } from '../../lib/query-client.ts';
import { getToken } from '../../lib/storage.ts';
import { getDemoToken } from '../originals/api/originals-api.ts';
import { CrashBets } from './crash-bets.tsx';
import { playSound } from './game-sound.tsx';
import {
  checkStake,
  formatMinorText,
  localStakeText,
  openingStake,
  rememberStake,
  StakeField,
  stakeTextOf,
  type TPlayProps,
  toMinor,
} from './play-shared.tsx';
import './crash.css';

/** How many recent crash points the strip shows (and asks the server for). */
const HISTORY = 16;
/** The server ticks every 100 ms: the display glides from one tick to the next over that span. */
const TICK_MS = 100;
/**
 * The bet button closes this long before the round's betting end: a bet reaches the server a round
 * trip later, and the server refuses one taken at or after the end (CRASH_BETTING_CLOSED).
 */
const BET_CLOSE_MARGIN_MS = 250;
/** Reconnect backoff: 1 s, 2 s, 4 s … capped, and a limited number of tries before asking the player. */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 15_000;
const RETRY_LIMIT = 30;
/** The curve's visible window grows with the round: at least this many seconds and ×2. */
const CURVE_MIN_MS = 8000;
const CURVE_MIN_MULT = 200;
/** Points kept for the curve (a round of several minutes at 10 ticks/s is thinned to this many). */
const CURVE_POINTS = 600;

/** "2.37" → 237 hundredths; null for anything else. */
export function multiplierHundredths(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export const hundredthsText = (h: number) => `${Math.floor(h / 100)}.${String(h % 100).padStart(2, '0')}`;

/** An auto cash-out target: empty is "none", otherwise 1.01 – 1,000,000.00 with ≤ 2 decimals. */
export function autoCashoutTarget(text: string): { value: number | null; valid: boolean } {
  if (text.trim() === '') return { value: null, valid: true };
  const value = multiplierHundredths(text);
  return value !== null && value >= 101 && value <= 100_000_000
    ? { value, valid: true }
    : { value: null, valid: false };
}

/** The stake times a multiplier in hundredths, floored to centavos (what the server pays, before its cap). */
export const potentialPayout = (stakeText: string, hundredths: number) => {
  const minor = toMinor(stakeText);
  return minor === null ? '0.00' : formatMinorText((minor * BigInt(hundredths)) / 100n);
};

const socketUrl = () =>
  `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/crash?lang=${currentLanguage()}`;

type TPoint = { t: number; m: number };

/** The server's curve m(t) = e^(0.00006·t ms), inverted: the milliseconds at which a multiplier is reached. */
const curveTime = (hundredths: number) => Math.log(Math.max(hundredths, 100) / 100) / 0.00006;
type THistoryItem = { id: string; point: string };

/** The curve through the round's ticks, scaled so the latest point always fits. */
function CrashCurve({ points, phase, shown }: { points: TPoint[]; phase: TCrashPhase; shown: number }) {
  const last = points[points.length - 1];
  const spanT = Math.max(CURVE_MIN_MS, (last?.t ?? 0) * 1.1);
  const spanM = Math.max(CURVE_MIN_MULT, Math.max(shown, last?.m ?? 100) * 1.15);
  const x = (t: number) => (t / spanT) * 100;
  const y = (m: number) => 60 - ((m - 100) / (spanM - 100)) * 56;
  // The tip follows the gliding display (never past the last tick), the rest sits on the ticks.
  const tipM = last ? Math.max(points[points.length - 2]?.m ?? 100, Math.min(shown, last.m)) : 100;
  const tail = last ? [...points.slice(0, -1), { t: Math.min(last.t, curveTime(tipM)), m: tipM }] : [];
  const line = tail
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.t).toFixed(2)},${y(p.m).toFixed(2)}`)
    .join(' ');
  const tip = tail[tail.length - 1];
  const rocketAt = tip ?? { t: 0, m: 100 };
  return (
    <>
      <svg
        className={`crash__curve is-${phase}`}
        viewBox="0 0 100 60"
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        <line x1="0" y1="60" x2="100" y2="60" className="crash__axis" />
        <line x1="0" y1={y(200)} x2="100" y2={y(200)} className="crash__grid" />
        {tip && (
          <>
            <path d={`${line} L${x(tip.t).toFixed(2)},60 L0,60 Z`} className="crash__area" />
            <path d={line} className="crash__line" vectorEffect="non-scaling-stroke" />
          </>
        )}
      </svg>
      <Rocket
        left={`calc((100% - 12px) * ${(x(rocketAt.t) / 100).toFixed(4)})`}
        top={`calc(12px + (100% - 12px) * ${(y(rocketAt.m) / 60).toFixed(4)})`}
        crashed={phase === 'crashed'}
      />
    </>
  );
}

/** The rocket at the tip of the curve: flame and shake while it climbs, a burst when it crashes. */
function Rocket({ left, top, crashed }: { left: string; top: string; crashed: boolean }) {
  return (
    <span className={`crash__rocket${crashed ? ' is-crashed' : ''}`} style={{ left, top }} aria-hidden="true">
      <svg viewBox="0 0 48 48" aria-hidden="true">
        <defs>
          <linearGradient id="rocket-body" x1="0" x2="1">
            <stop offset="0" stopColor="#f4f6fb" />
            <stop offset="0.55" stopColor="#c9d2e3" />
            <stop offset="1" stopColor="#8792a8" />
          </linearGradient>
          <linearGradient id="rocket-flame" x1="0" y1="0" x2="0" y2="1">
            <stop offset="0" stopColor="#fff3b0" />
            <stop offset="0.45" stopColor="#ffb020" />
            <stop offset="1" stopColor="#ff4d2e" stopOpacity="0" />
          </linearGradient>
        </defs>
        <path
          className="crash__rocket-flame"
          d="M19 33c0 6 2.5 11 5 13 2.5-2 5-7 5-13Z"
          fill="url(#rocket-flame)"
        />
        <path d="M15 30l-4 6 8-2ZM33 30l4 6-8-2Z" fill="#e0475b" />
        <path d="M24 3c7 6 10 15 9 27H15C14 18 17 9 24 3Z" fill="url(#rocket-body)" />
        <path d="M24 3c3 2.6 5.2 5.8 6.6 9.4H17.4C18.8 8.8 21 5.6 24 3Z" fill="#e0475b" />
        <circle cx="24" cy="19" r="4" fill="#1d2a44" stroke="#7fd3ff" strokeWidth="1.6" />
        <path d="M20 30h8v3h-8Z" fill="#5d6884" />
      </svg>
    </span>
  );
}

/**
 * Crash: one shared round for everyone over `/ws/crash` — betting (countdown), running (the
 * multiplier climbs; cash out before it crashes), crashed (the point in red) — with auto cash-out.
 * Members bet real money, guests (demo mode) the fun money of their demo session, once the socket
 * said `ready`; without either the round can still be watched.
 */
export function CrashPlay({ launch, demo, onBalance }: TPlayProps) {
  const { t } = useTranslation();
  const { min_bet: min, max_bet: max } = launch.game;
  const [connected, setConnected] = useState(false);
  const [gaveUp, setGaveUp] = useState(false);
  const [ready, setReady] = useState(false);
  const [phase, setPhase] = useState<TCrashPhase | null>(null);
  const [roundId, setRoundId] = useState<string | null>(null);
  const [crashPoint, setCrashPoint] = useState<string | null>(null);
  const [betsInfo, setBetsInfo] = useState<{ count: number; total: string } | null>(null);
  // A new hash chain has no salt until its first round's bets fix it (that round waits for a bet).
  const [saltPending, setSaltPending] = useState(false);
  const [myBet, setMyBet] = useState<TCrashBet | null>(null);
  const [pending, setPending] = useState<'bet' | 'cashout' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [history, setHistory] = useState<THistoryItem[]>([]);
  // Crash pays every cash-out point to the centavo on whole reais: the screen opens on R$ 1,00.
  const [amount, setAmount] = useState(() =>
    openingStake(min, { game: 'crash', autoCashOutHundredths: null }, max),
  );
  const [autoText, setAutoText] = useState('');
  const [shown, setShown] = useState(100);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [bettingOpen, setBettingOpen] = useState(false);
  const [points, setPoints] = useState<TPoint[]>([]);

  const socket = useRef<WebSocket | null>(null);
  const reconnect = useRef<() => void>(() => {});
  const tick = useRef({ from: 100, to: 100, at: 0 });
  const bettingEnds = useRef(0);
  const balance = useRef<bigint | null>(null);
  const phaseRef = useRef<TCrashPhase | null>(null);
  phaseRef.current = phase;

  const publishBalance = useCallback(
    (minor: bigint) => {
      balance.current = minor;
      onBalance(formatMinorText(minor));
      void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    },
    [onBalance],
  );

  const onMessage = useCallback(
    (message: TCrashServerMessage) => {
      switch (message.type) {
        case 'state': {
          setPhase(message.phase);
          setRoundId(message.round_id);
          setBetsInfo(message.bets);
          setSaltPending(message.public_salt === null);
          setCrashPoint(message.crash_point);
          if (message.my_bet) setMyBet(message.my_bet);
          const m = multiplierHundredths(message.multiplier) ?? 100;
          tick.current = { from: m, to: m, at: performance.now() };
          setShown(m);
          if (message.phase === 'betting') {
            bettingEnds.current = performance.now() + message.betting_ms_left;
            setSecondsLeft(Math.ceil(message.betting_ms_left / 1000));
            setBettingOpen(message.betting_ms_left > BET_CLOSE_MARGIN_MS);
            setPoints([{ t: 0, m: 100 }]);
            setMyBet((bet) => (bet && bet.round_id !== message.round_id ? null : bet));
          }
          if (message.phase === 'running')
            setPoints([
              { t: 0, m: 100 },
              { t: curveTime(m), m },
            ]);
          break;
        }
        case 'tick': {
          const m = multiplierHundredths(message.multiplier);
          if (m === null) break;
          const now = performance.now();
          if (phaseRef.current !== 'running') setPhase('running');
          setRoundId(message.round_id);
          tick.current = { from: Math.min(tick.current.to, m), to: m, at: now };
          setPoints((list) => {
            // The curve's time axis comes from the multiplier itself, so network jitter never bends it.
            const next = [...list, { t: curveTime(m), m }];
            return next.length > CURVE_POINTS
              ? next.filter((_, i) => i % 2 === 0 || i === next.length - 1)
              : next;
          });
          break;
        }
        case 'crashed': {
          setPhase('crashed');
          setCrashPoint(message.crash_point);
          const m = multiplierHundredths(message.crash_point) ?? tick.current.to;
          tick.current = { from: m, to: m, at: performance.now() };
          setShown(m);
          setPending((p) => (p === 'cashout' ? null : p));
          playSound('crash');
          setMyBet((bet) => (bet && bet.status === 'placed' ? { ...bet, status: 'lost' } : bet));
          setHistory((list) =>
            [
              { id: message.round_id, point: message.crash_point },
              ...list.filter((h) => h.id !== message.round_id),
            ].slice(0, HISTORY),
          );
          break;
        }
        case 'ready':
          setReady(message.member || message.demo === true);
          break;
        case 'bet_accepted': {
          playSound('bet');
          setPending(null);
          setError(null);
          setMyBet(message.bet);
          rememberStake('crash', message.bet.amount);
          const minor = toMinor(message.balance) ?? (message.balance === '0.00' ? 0n : null);
          if (minor !== null) publishBalance(minor);
          break;
        }
        case 'cashed_out': {
          playSound('cashout');
          setPending(null);
          setMyBet((bet) =>
            bet && bet.id === message.bet_id
              ? { ...bet, status: 'cashed', cashout_multiplier: message.multiplier, payout: message.payout }
              : bet,
          );
          // The message carries the payout, not the balance: add it to the one bet_accepted gave.
          const payout = toMinor(message.payout);
          if (balance.current !== null && payout !== null) publishBalance(balance.current + payout);
          else void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
          break;
        }
        case 'bet_refused':
        case 'cashout_refused':
        case 'error':
          setPending(null);
          setError(message.message);
          break;
        case 'pong':
          break;
      }
    },
    [publishBalance],
  );

  // The socket: connect, authenticate members, reconnect with backoff, close on unmount.
  useEffect(() => {
    let closed = false;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      const ws = new WebSocket(socketUrl());
      socket.current = ws;
      ws.onopen = () => {
        attempt = 0;
        setConnected(true);
        setGaveUp(false);
        const token = getToken();
        const demoToken = demo ? getDemoToken() : null;
        if (demoToken) ws.send(JSON.stringify({ type: 'demo', demo_token: demoToken }));
        else if (token && !demo) ws.send(JSON.stringify({ type: 'auth', token }));
      };
      ws.onmessage = (event) => {
        if (typeof event.data !== 'string') return;
        try {
          onMessage(JSON.parse(event.data) as TCrashServerMessage);
        } catch {
          // A frame that is not JSON is ignored: the next state or tick brings the screen back in line.
        }
      };
      ws.onclose = () => {
        if (socket.current === ws) socket.current = null;
        setConnected(false);
        setReady(false);
        setPending(null);
        if (closed) return;
        attempt += 1;
        if (attempt > RETRY_LIMIT) {
          setGaveUp(true);
          return;
        }
        timer = setTimeout(connect, Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1)));
      };
    };
    reconnect.current = () => {
      attempt = 0;
      if (!closed && !socket.current) connect();
    };
    connect();
    return () => {
      closed = true;
      if (timer) clearTimeout(timer);
      socket.current?.close();
      socket.current = null;
    };
  }, [demo, onMessage]);

  // The last crash points, once; later rounds are added as they crash.
  useEffect(() => {
    let alive = true;
    api
      .get<{ list: { round_id: string; crash_point: string }[] }>('/api/crash/history', {
        query: { limit: HISTORY },
        silent: true,
      })
      .then((data) => {
        if (!alive) return;
        setHistory((list) => {
          const known = new Set(list.map((h) => h.id));
          const older = data.list
            .filter((r) => !known.has(r.round_id))
            .map((r) => ({ id: r.round_id, point: r.crash_point }));
          return [...list, ...older].slice(0, HISTORY);
        });
      })
      .catch(() => {
        // The strip stays empty; the live rounds still fill it.
      });
    return () => {
      alive = false;
    };
  }, []);

  // The animation: glide between ticks (never past the last one) and count the betting seconds down.
  useEffect(() => {
    let frame = 0;
    const step = (now: number) => {
      if (phaseRef.current === 'running') {
        const { from, to, at } = tick.current;
        const progress = Math.min(1, (now - at) / TICK_MS);
        setShown(Math.min(to, Math.floor(from + (to - from) * progress)));
      } else if (phaseRef.current === 'betting') {
        setSecondsLeft(Math.max(0, Math.ceil((bettingEnds.current - now) / 1000)));
        setBettingOpen(bettingEnds.current - now > BET_CLOSE_MARGIN_MS);
      }
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, []);

  const auto = autoCashoutTarget(autoText);
  const stake = checkStake(
    amount,
    min,
    max,
    auto.valid ? { game: 'crash', autoCashOutHundredths: auto.value } : null,
  );
  const myRoundBet = myBet && myBet.round_id === roundId ? myBet : null;
  const canBet =
    ready &&
    connected &&
    phase === 'betting' &&
    bettingOpen &&
    pending === null &&
    myRoundBet === null &&
    stake.minor !== null &&
    auto.valid;
  const showCashout = phase === 'running' && myRoundBet?.status === 'placed';
  const canCashout = showCashout && connected && pending === null;

  const send = (message: Record<string, unknown>) => {
    const ws = socket.current;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      setError(t('crash.offline'));
      return false;
    }
    ws.send(JSON.stringify(message));
    return true;
  };

  const bet = () => {
    if (!canBet || stake.minor === null) return;
    setError(null);
    const message: Record<string, unknown> = {
      type: 'bet',
      amount: formatMinorText(stake.minor),
      idempotency_key: crypto.randomUUID(),
    };
    if (auto.value !== null) message.auto_cashout = hundredthsText(auto.value);
    if (send(message)) setPending('bet');
  };

  const cashout = () => {
    if (!canCashout || !roundId) return;
    setError(null);
    if (send({ type: 'cashout', round_id: roundId })) setPending('cashout');
  };

  const phaseLabel =
    phase === null
      ? t('crash.connecting')
      : phase === 'betting'
        ? bettingOpen
          ? t('crash.phase_betting', { seconds: secondsLeft })
          : t('crash.phase_closed')
        : phase === 'running'
          ? t('crash.phase_running')
          : t('crash.phase_crashed');

  return (
    <section className="card play crash" data-testid="crash-play">
      {demo && (
        <p className="crash__note" data-testid="crash-demo-note">
          {t('crash.demo_note')}
        </p>
      )}
      {saltPending && phase === 'betting' && (
        <p className="crash__note" data-testid="crash-salt-pending">
          {t('crash.salt_pending')}
        </p>
      )}
      <ol className="play-history crash__history" aria-label={t('crash.history')}>
        {history.map((item) => {
          const h = multiplierHundredths(item.point) ?? 100;
          return (
            <li key={item.id} className={h >= 200 ? 'is-win' : 'is-loss'}>
              ×{formatAmount(item.point)}
            </li>
          );
        })}
      </ol>
      <div className={`crash__screen is-${phase ?? 'idle'}`}>
        <CrashCurve points={points} phase={phase ?? 'betting'} shown={shown} />
        <div className="crash__center">
          <span
            className="crash__phase"
            data-testid="crash-phase"
            data-phase={phase ?? ''}
            data-seconds={phase === 'betting' && bettingOpen ? secondsLeft : 0}
            aria-live="polite"
          >
            {phaseLabel}
          </span>
          {phase === 'crashed' ? (
            <output className="crash__value is-crashed" data-testid="crash-result">
              ×{formatAmount(crashPoint ?? hundredthsText(shown))}
            </output>
          ) : (
            <output className="crash__value" data-testid="crash-multiplier">
              ×{formatAmount(hundredthsText(phase === 'running' ? shown : 100))}
            </output>
          )}
          {phase === 'betting' && (
            <span
              className="crash__bar"
              style={{ ['--left' as string]: `${Math.min(100, (secondsLeft / 6) * 100)}%` }}
            />
          )}
          {betsInfo && betsInfo.count > 0 && phase !== 'crashed' && (
            <span className="crash__players">
              {t('crash.players', { count: betsInfo.count, total: formatMoney(betsInfo.total) })}
            </span>
          )}
        </div>
        {!connected && phase !== null && <span className="crash__offline">{t('crash.reconnecting')}</span>}
      </div>
      {myRoundBet && (
        <p
          className={`play-line ${myRoundBet.status === 'cashed' ? 'is-win' : myRoundBet.status === 'lost' ? 'is-loss' : ''}`}
          data-testid="crash-my-bet"
        >
          {myRoundBet.status === 'cashed'
            ? t('crash.cashed', {
                multiplier: formatAmount(myRoundBet.cashout_multiplier),
                amount: formatMoney(myRoundBet.payout),
              })
            : myRoundBet.status === 'lost'
              ? t('crash.lost', { amount: formatMoney(myRoundBet.amount) })
              : myRoundBet.auto_cashout
                ? t('crash.placed_auto', {
                    amount: formatMoney(myRoundBet.amount),
                    multiplier: formatAmount(myRoundBet.auto_cashout),
                  })
                : t('crash.placed', { amount: formatMoney(myRoundBet.amount) })}
        </p>
      )}
      {error && (
        <p className="play-error crash__error" role="alert">
          {error}
        </p>
      )}
      {gaveUp && (
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => {
            setGaveUp(false);
            reconnect.current();
          }}
        >
          {t('crash.retry')}
        </button>
      )}
      <div className="play-grid">
        <StakeField
          game="crash"
          value={amount}
          onChange={setAmount}
          min={min}
          max={max}
          disabled={pending !== null}
          error={stake.error}
          fix={stake.fix}
        />
        <div>
          <label className="play-label" htmlFor="crash-auto">
            {t('crash.auto_cashout')}
          </label>
          <input
            id="crash-auto"
            data-testid="crash-auto"
            className="play-input"
            inputMode="decimal"
            maxLength={10}
            placeholder={t('crash.auto_placeholder', { example: formatAmount('2.00') })}
            value={localStakeText(autoText)}
            disabled={pending !== null}
            aria-invalid={!auto.valid}
            onChange={(event) => setAutoText(stakeTextOf(event.target.value))}
          />
          {!auto.valid && (
            <p className="play-error" role="alert">
              {t('crash.auto_invalid', { min: formatAmount('1.01'), max: formatAmount('1000000.00') })}
            </p>
          )}
        </div>
      </div>
      {showCashout ? (
        <button
          type="button"
          className="button button--primary button--block button--large crash__cashout"
          data-testid="crash-cashout"
          disabled={!canCashout}
          onClick={cashout}
        >
          {t('crash.cash_out', { amount: formatMoney(potentialPayout(myRoundBet?.amount ?? '0', shown)) })}
        </button>
      ) : (
        <button
          type="button"
          className="button button--primary button--block button--large"
          data-testid="crash-bet"
          disabled={!canBet}
          onClick={bet}
        >
          {pending === 'bet' ? t('crash.placing') : t('play.bet')}
        </button>
      )}
      {!demo && !getToken() && <p className="crash__hint">{t('crash.login_to_bet')}</p>}
      {(demo || getToken()) && phase !== 'betting' && !myRoundBet && (
        <p className="crash__hint">{t('crash.wait_next')}</p>
      )}
      <CrashBets roundId={roundId} phase={phase} demo={demo} />
    </section>
  );
}
