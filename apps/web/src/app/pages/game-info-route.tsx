import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { BareFrame } from './bare-frame.tsx';

/** The game relay: without a game to open it says so and leads back to the lobby. */
export default function GameInfoPage() {
  const { t } = useTranslation();
  return (
    <BareFrame title={t('pages.game_info')}>
      <EmptyState message={t('empty.game_relay')} icon="game" />
      <Link to="/game" className="button button--primary button--block">
        {t('nav.games')}
      </Link>
    </BareFrame>
  );
}
