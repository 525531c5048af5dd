import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { formatMoney, formatPercent } from '../../../lib/format.ts';
import {
  type TOriginalCode,
  type TOriginalRules,
  useLaunch,
  useOriginalRules,
} from '../api/originals-api.ts';
import '../originals.css';
import { SoundToggle } from '../../originals-play/game-sound.tsx';
import { PLAY_COMPONENTS, preloadPlay } from '../../originals-play/play-components.ts';
import { launchFailureText } from '../launch-failure.ts';
import { CertificationLink } from './certification-figures.tsx';
import { RecentWins } from './recent-wins.tsx';

type TRecord = Record<string, unknown>;

const isRecord = (value: unknown): value is TRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const numeric = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? Number(value) : 0;
/** "100.0000" → "100", "0.1500" → "0.15": a multiplier as short as it can be written. */
const short = (text: string) => (/^\d+\.\d+$/.test(text) ? text.replace(/\.?0+$/, '') : text);
const maxOf = (values: unknown) => (Array.isArray(values) ? Math.max(0, ...values.map(numeric)) : 0);

export interface TPaytableLine {
  /** What the line is about: a bet type or risk level (`key`), a pick count, or a ball count. */
  kind: 'key' | 'picks' | 'balls';
  key: string;
  value: string;
}

/** The paytable the server publishes, summed up in a few lines (top multipliers per option). */
export function paytableLines(paytable: unknown): TPaytableLine[] {
  if (Array.isArray(paytable)) {
    return paytable.filter(isRecord).map((row) => ({
      kind: 'balls' as const,
      key: String(row.max_balls ?? ''),
      value: `×${short(String(row.multiplier ?? ''))}`,
    }));
  }
  if (!isRecord(paytable)) return [];
  return Object.entries(paytable).flatMap((entry): TPaytableLine[] => {
    const [key, value] = entry;
    // Formulas ("99 / win chance (%)") are explained by the translated rules text instead.
    if (typeof value === 'string' || typeof value === 'number') {
      if (!/^\d+(\.\d+)?$/.test(String(value)) || key === 'max_steps') return [];
      return [{ kind: 'key', key, value: key === 'lines' ? String(value) : `×${value}` }];
    }
    if (Array.isArray(value) || !isRecord(value)) return [];
    if ('hits' in value) return [{ kind: 'picks', key, value: `×${maxOf(value.hits)}` }];
    const children = Object.entries(value);
    // Slot line pays: one line per symbol, its five-of-a-kind pay.
    if (children.every(([, child]) => Array.isArray(child))) {
      return children.map(([symbol, pays]) => ({
        kind: 'key' as const,
        key: symbol,
        value: `×${maxOf(pays)}`,
      }));
    }
    // Scatter pays: the top pay; plinko: the top slot over every board size.
    const top = Math.max(
      0,
      ...children.map(([, child]) => (isRecord(child) ? maxOf(child.slots) : numeric(child))),
    );
    return top > 0 ? [{ kind: 'key', key, value: `×${top}` }] : [];
  });
}

/** The game's wide artwork (the server paints it in the page's skeleton at this same URL). */
const bannerOf = (code: string) => `/media/games/${code}-banner.svg`;

const rtpText = (rules: TOriginalRules) =>
  rules.rtp === rules.rtp_max
    ? formatPercent(rules.rtp)
    : `${formatPercent(rules.rtp)} – ${formatPercent(rules.rtp_max)}`;

/**
 * The game's rules, limits and paytable. It stands beside the board on wide screens and under the
 * bet controls on phones, where it folds; its heading keeps the RTP in view even when folded.
 */
function RulesCard({ code, rules }: { code: TOriginalCode; rules: TOriginalRules | undefined }) {
  const { t } = useTranslation();
  const lines = paytableLines(rules?.paytable);
  return (
    <details className="card original__rules" data-testid="game-rules" open>
      <summary className="original__rules-summary">
        <h2 className="card__title">{t('lobby.rules_title')}</h2>
        {rules && (
          <span className="original__rtp" data-testid="game-rtp">
            {t('lobby.rtp')} {rtpText(rules)}
          </span>
        )}
      </summary>
      {/* The game's wide artwork heads its rules where the screen has room (lazy: below the board). */}
      <img
        className="original__banner"
        src={bannerOf(code)}
        alt=""
        width="640"
        height="280"
        loading="lazy"
        decoding="async"
      />
      <p>{t(`lobby.rules.${code}`)}</p>
      {rules && (
        <dl className="original__facts">
          <div>
            <dt>{t('lobby.rtp')}</dt>
            <dd>{rtpText(rules)}</dd>
          </div>
          <div>
            <dt>{t('lobby.min_bet')}</dt>
            <dd>{formatMoney(rules.min_bet)}</dd>
          </div>
          <div>
            <dt>{t('lobby.max_bet')}</dt>
            <dd>{formatMoney(rules.max_bet)}</dd>
          </div>
          <div>
            <dt>{t('lobby.max_win')}</dt>
            <dd>{formatMoney(rules.max_win)}</dd>
          </div>
        </dl>
      )}
      {/* The RTP above as the certification pack measured it: the figures, their sizes and commit. */}
      <CertificationLink game={code} />
      {lines.length > 0 && (
        <>
          <h3 className="original__subtitle">{t('lobby.paytable')}</h3>
          <ul className="original__paytable">
            {lines.map((line) => (
              <li key={`${line.kind}-${line.key}`}>
                <span>
                  {line.kind === 'picks'
                    ? t('lobby.paytable_picks', { n: line.key })
                    : line.kind === 'balls'
                      ? t('lobby.paytable_balls', { n: line.key })
                      : t(`lobby.paytable_labels.${line.key}`, { defaultValue: line.key })}
                </span>
                <strong>{line.value}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

/**
 * An in-house game's page (/originals/<code>): the frame with the game name, the balance it plays
 * with (real or fun money), its rules, paytable, RTP and limits, and the way back to the lobby.
 */
export function OriginalGamePage({ code }: { code: TOriginalCode }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const demo = params.get('mode') === 'demo';
  const launch = useLaunch(code, demo);
  // The game's own screen (Dice, Limbo, Mines, Plinko, Keno …), its own chunk: fetched while the
  // launch call is answered.
  const Play = PLAY_COMPONENTS[code];
  useEffect(() => preloadPlay(code), [code]);
  const rules = useOriginalRules();
  const game = launch.data?.game;
  // The balance after the latest bet (the launch answer holds the one before the first).
  const [balance, setBalance] = useState<string | null>(null);
  const own = rules.data?.list.find((item) => item.game === code);
  const fromCatalogue: TOriginalRules | undefined = game
    ? {
        game: code,
        rtp: game.rtp,
        rtp_max: game.rtp_max,
        min_bet: game.min_bet,
        max_bet: game.max_bet,
        max_win: game.max_win,
        paytable: null,
      }
    : undefined;
  // The artwork the page's skeleton showed stays in the board's place until the board is ready.
  const loading = (
    <div className="original__loading">
      <img className="original__loading-art" src={bannerOf(code)} alt="" width="640" height="280" />
      <Spinner />
    </div>
  );
  return (
    <div className="original" data-testid="original-game" data-game={code}>
      <header className="original__bar">
        <Link
          to="/game"
          className="button button--ghost button--small original__back"
          data-testid="back-to-lobby"
          aria-label={t('lobby.back_to_lobby')}
        >
          <span aria-hidden="true">‹</span>
          {/* On a phone the arrow alone leaves the game name room in the bar. */}
          <span className="original__back-text">{t('lobby.back_to_lobby')}</span>
        </Link>
        <h1 className="original__title">{game?.name ?? code}</h1>
        <span className="original__balance" data-testid="game-balance">
          {launch.data ? formatMoney(balance ?? launch.data.balance) : '—'}
          {launch.data?.mode === 'demo' && <small>{t('lobby.fun_money')}</small>}
        </span>
        {launch.data?.mode !== 'demo' && (
          <Link to="/recharge" className="button button--primary button--small" data-testid="game-deposit">
            {t('nav.deposit')}
          </Link>
        )}
        <SoundToggle />
      </header>
      {launch.isPending || rules.isPending ? (
        loading
      ) : (
        // The game's screen may still be on its way: the same artwork until it is.
        <Suspense fallback={loading}>
          <main className="original__body" id="main">
            {launch.isError && (
              <p className="original__notice" role="alert" data-testid="game-launch-error">
                {launchFailureText(launch.error, t)}
              </p>
            )}
            {!Play && <p className="original__notice">{t('lobby.play_later')}</p>}
            {/* The board and bet controls come first: on a phone they fill the screen, the rules follow. */}
            {Play && launch.data && (
              <div className="original__play">
                <Play launch={launch.data} demo={launch.data.mode === 'demo'} onBalance={setBalance} />
              </div>
            )}
            {/* Beside the board on wide screens: the rules, then the latest wins. */}
            <div className="original__side">
              <RulesCard code={code} rules={own ?? fromCatalogue} />
              <RecentWins game={code} />
            </div>
          </main>
        </Suspense>
      )}
    </div>
  );
}
