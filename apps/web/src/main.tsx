import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { captureInstallPrompt } from './features/pwa/pwa-state.ts';
import { warmNumberFormats } from './lib/format.ts';
import { initI18n, resolveInitialLanguage } from './lib/i18n.ts';
import { restoreRememberedSession } from './lib/remembered-session.ts';
import { readSiteBootstrap, seedSiteQueries } from './lib/site-bootstrap.ts';
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

// The site the server wrote into this page: the first render has its data and speaks its language
// (a first visit to the br site opens in Portuguese, not in English until the site data returns).
const bootstrap = readSiteBootstrap();
if (bootstrap) seedSiteQueries(bootstrap);

// The number formats' locale data loads in a task of its own, before the first render needs it.
const language = resolveInitialLanguage(bootstrap?.site.languages ?? []);
window.setTimeout(() => warmNumberFormats(language), 0);

// A remembered device that lost its tab's token (the app or browser was closed) signs back in
// before the first render, so it never flashes the guest header. Guests send nothing.
Promise.all([initI18n(language), restoreRememberedSession().catch(() => false)]).then(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

/** How long after the page's load event the service worker is registered (at an idle moment then). */
const WORKER_AFTER_LOAD_MS = 3_000;

/**
 * The worker (and workbox-window) are registered once the page has settled: its install downloads
 * the whole app shell (every script, style, locale and icon, in many requests),
 * which on a first visit would compete with the first screen for the network and the phone's CPU.
 * It is not needed to draw or use the page; offline use and installation come a few seconds later.
 */
function registerWorkerWhenSettled(): void {
  const register = () =>
    void import('./features/pwa/register-service-worker.ts').then((module) => module.registerServiceWorker());
  const later = () =>
    window.setTimeout(
      () =>
        window.requestIdleCallback ? window.requestIdleCallback(register, { timeout: 2_000 }) : register(),
      WORKER_AFTER_LOAD_MS,
    );
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

if (import.meta.env.PROD) registerWorkerWhenSettled();
