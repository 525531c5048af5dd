/**
 * The pages a player lands on, by the module that draws each (src/main.tsx starts the same). The
 * build lists each one's chunks in `landing-preloads.json` (vite.config.ts), which the server
 * announces in that page's head (apps/server/src/plugins/static-web.ts).
 */
export const LANDING_PAGES = {
  home: 'src/app/pages/home-route.tsx',
  lobby: 'src/app/pages/games-route.tsx',
  game: 'src/features/originals/components/original-game-page.tsx',
} as const;

export type TLandingPage = keyof typeof LANDING_PAGES;

/** What the server announces in a landing page's head: its lazy chunks and their stylesheets. */
export type TLandingPreloads = Record<TLandingPage, { scripts: string[]; styles: string[] }>;
