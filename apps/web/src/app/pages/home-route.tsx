import { CategoryGames, HomeGameRows } from '../../features/games/components/home-games.tsx';
import { HomePage } from '../../features/home/components/home-page.tsx';
import { SportsEntry } from '../../features/sports/components/sports-entry.tsx';

/** The home route: the home page with the games feature's grids, in one chunk (one round trip). */
export default function HomeRoute() {
  return (
    <HomePage
      renderCategory={(category) =>
        // The sports category leads to the sportsbook; its virtual-sports games stay below.
        category.toLowerCase() === 'sports' ? (
          <>
            <SportsEntry />
            <CategoryGames key={category} category={category} />
          </>
        ) : (
          <CategoryGames key={category} category={category} />
        )
      }
      gameRows={<HomeGameRows />}
    />
  );
}
