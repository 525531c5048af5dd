import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { captureInstallPrompt } from './features/pwa/pwa-state.ts';
import { warmNumberFormats } from './lib/format.ts';
import { initI18n, resolveInitialLanguage } from './lib/i18n.ts';
import './styles/global.css';

// The browser offers installation once, early: listen before React renders.
captureInstallPrompt();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The pages a player lands on (home, the lobby, a game): the page's chunk downloads while the
// translations load, not after the first render asks for it (one round trip fewer on a slow phone
// network).
const landingChunk = (path: string) =>
  path === '/'
    ? import('./app/pages/home-route.tsx')
    : path === '/game'
      ? import('./app/pages/games-route.tsx')
      : path.startsWith('/originals/')
        ? import('./features/originals/components/original-game-page.tsx')
        : undefined;
void landingChunk(window.location.pathname)?.catch(() => undefined);
// A game's page: its own game's screen too (each game is its own chunk).
const game = /^\/originals\/([a-z]+)$/.exec(window.location.pathname)?.[1];
if (game) {
  void import('./features/originals-play/play-components.ts')
    .then((module) => module.preloadPlay(game))
    .catch(() => undefined);
}

// The number formats' locale data loads in a task of its own, before the first render needs it.
const language = resolveInitialLanguage();
window.setTimeout(() => warmNumberFormats(language), 0);

initI18n(language).then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

// The worker (and workbox-window) load after the first paint; they are not needed to draw the page.
if (import.meta.env.PROD) {
  void import('./features/pwa/register-service-worker.ts').then((module) => module.registerServiceWorker());
}
