import { LobbyPage } from '../../features/lobby/components/lobby-page.tsx';
import { SportsEntry } from '../../features/sports/components/sports-entry.tsx';

/**
 * `/game`: the lobby, with the sportsbook's way in above the sports category's virtual-sports games
 * (the app composes the two features, as the home route does).
 */
export default function GamesRoute() {
  return (
    <LobbyPage mode="all" categoryLead={(category) => (category === 'sports' ? <SportsEntry /> : null)} />
  );
}
