import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { queryClient } from '../../../lib/query-client.ts';
import { useHasToken } from '../../../lib/session.ts';
import { launchGame, launchKey } from '../api/originals-api.ts';
import { launchFailureText } from '../launch-failure.ts';
import '../originals.css';

/**
 * `/gameInfo?game=<code or id>`: asks the server where this game is played for this session
 * (day7LoginV2) and relays the player there. Without a game, or when the game cannot open, it says
 * why and leads back to the lobby.
 */
export function GameInfoPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const hasToken = useHasToken();
  const game = (params.get('game') ?? params.get('name') ?? '').trim().slice(0, 64);
  const demo = params.get('mode') === 'demo';
  const launch = useQuery({
    queryKey: ['originals', 'relay', game, demo, hasToken],
    queryFn: () => launchGame(game, demo),
    enabled: game !== '',
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    const data = launch.data;
    if (!data) return;
    // The game page reads the same answer instead of launching a second time.
    const code = data.game.code;
    queryClient.setQueryData([...launchKey(code, data.mode === 'demo'), hasToken], data);
    navigate(data.url, { replace: true });
  }, [launch.data, navigate, hasToken]);

  const failure =
    game === '' ? t('empty.game_relay') : launch.isError ? launchFailureText(launch.error, t) : null;
  return (
    <div className="relay">
      {failure ? (
        <>
          <p className="relay__message" role="alert" data-testid="game-launch-error">
            {failure}
          </p>
          <Link to="/game" className="button button--primary">
            {t('lobby.back_to_lobby')}
          </Link>
        </>
      ) : (
        <Spinner label={t('lobby.opening_game')} />
      )}
    </div>
  );
}

export default GameInfoPage;
