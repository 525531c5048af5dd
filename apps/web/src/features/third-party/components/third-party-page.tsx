import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { USER_QUERY_KEY } from '../../../lib/query-client.ts';
import { useUser } from '../../../lib/session.ts';
import { launchFailureText } from '../../originals/launch-failure.ts';
import { useProviderLaunch } from '../api/launch-provider-game.ts';
import { readFrameMessage } from './frame-messages.ts';
import '../third-party.css';

/**
 * `/play?game=<code>`: a third-party game. The bar keeps Sorte's frame (back to the lobby, the
 * game and its provider, the balance); the game itself is the provider's page in a frame. After
 * each round the page says so, and the real-money balance is read again from our server (the
 * frame's figure is only shown for fun money, which lives at the provider).
 */
export function ThirdPartyPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const game = (params.get('game') ?? '').trim().slice(0, 64);
  const demo = params.get('mode') === 'demo';
  const launch = useProviderLaunch(game, demo);
  const { user } = useUser();
  const queryClient = useQueryClient();
  const [funBalance, setFunBalance] = useState<string | null>(null);
  const data = launch.data;

  useEffect(() => {
    if (!data) return;
    const onMessage = (event: MessageEvent) => {
      const message = readFrameMessage(event, data.game_url);
      if (message?.event !== 'balance') return;
      if (data.mode === 'demo') setFunBalance(message.balance ?? null);
      else void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [data, queryClient]);

  const balance = data?.mode === 'real' ? (user?.money ?? data.balance) : funBalance;
  const failure =
    game === '' ? t('third_party.no_game') : launch.isError ? launchFailureText(launch.error, t) : null;

  return (
    <div className="third-party" data-testid="third-party-game" data-game={game}>
      <header className="third-party__bar">
        <Link to="/game" className="button button--ghost button--small" data-testid="back-to-lobby">
          {t('lobby.back_to_lobby')}
        </Link>
        <div className="third-party__title">
          <h1>{data?.game.name ?? game}</h1>
          {data && <p>{t('third_party.by_provider', { provider: data.game.provider_name })}</p>}
        </div>
        <span className="third-party__balance" data-testid="game-balance">
          {balance !== null && balance !== undefined ? formatMoney(balance) : '—'}
          {data?.mode === 'demo' && <small>{t('third_party.fun_money')}</small>}
        </span>
      </header>
      {failure ? (
        <div className="third-party__notice" role="alert">
          <p>{failure}</p>
          <Link to="/game" className="button button--primary">
            {t('lobby.back_to_lobby')}
          </Link>
        </div>
      ) : data ? (
        <iframe
          className="third-party__frame"
          src={data.game_url}
          title={t('third_party.frame_title', { name: data.game.name, provider: data.game.provider_name })}
          data-testid="third-party-frame"
          allow="fullscreen; autoplay"
          referrerPolicy="no-referrer"
        />
      ) : (
        <div className="third-party__notice">
          <Spinner label={t('third_party.opening')} />
        </div>
      )}
    </div>
  );
}

export default ThirdPartyPage;
