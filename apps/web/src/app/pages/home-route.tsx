import { CategoryGames, HomeGameRows } from '../../features/games/components/home-games.tsx';
import { HomePage } from '../../features/home/components/home-page.tsx';

/** The home route: the home page with the games feature's grids, in one chunk (one round trip). */
export default function HomeRoute() {
  return (
    <HomePage
      renderCategory={(category) => <CategoryGames key={category} category={category} />}
      gameRows={<HomeGameRows />}
    />
  );
}
