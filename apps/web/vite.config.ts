import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { LANDING_PAGES, type TLandingPreloads } from './landing-pages.ts';

/** The API server the dev server and `vite preview` forward /api and /media to. */
const API_TARGET = process.env.SORTE_API ?? 'http://localhost:3000';
const proxy = {
  '/api': { target: API_TARGET, changeOrigin: false },
  '/media': { target: API_TARGET, changeOrigin: false },
};

type TBundle = Rolldown.OutputBundle;

/** `start` and every chunk it imports statically, however deep, except those in `skip`. */
function staticClosure(bundle: TBundle, start: readonly string[], skip: ReadonlySet<string>): string[] {
  const files: string[] = [];
  const visit = (file: string) => {
    const output = bundle[file];
    if (skip.has(file) || files.includes(file) || output?.type !== 'chunk') return;
    files.push(file);
    for (const imported of output.imports) visit(imported);
  };
  for (const file of start) visit(file);
  return files;
}

/** The stylesheets the chunks import (Vite loads them with the chunk). */
function importedStyles(bundle: TBundle, files: readonly string[]): string[] {
  return [
    ...new Set(
      files.flatMap((file) => {
        const output = bundle[file];
        return output?.type === 'chunk' ? [...(output.viteMetadata?.importedCss ?? [])] : [];
      }),
    ),
  ];
}

/**
 * Each landing page's chunk is lazy (other routes must not pay for it). The server announces the
 * chunk and what it imports in the head of that page only (apps/server/src/plugins/static-web.ts
 * reads `landing-preloads.json`), so the browser fetches them while the entry script downloads
 * instead of after the entry has run — one round trip fewer — and the lobby or a game does not
 * download and parse the home page's code. What the entry already loads is not announced again.
 */
function landingPreloads(): Plugin {
  return {
    name: 'sorte:landing-preloads',
    apply: 'build',
    // After Vite's own bundle passes: its CSS pass deletes the chunks that held only CSS (moving their
    // stylesheets onto the importers), so a list written before it names files that are never written.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const entry = staticClosure(
        bundle,
        chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
        new Set(),
      );
      const entryStyles = new Set(importedStyles(bundle, entry));
      const preloads = Object.fromEntries(
        Object.entries(LANDING_PAGES).map(([page, module]) => {
          const chunk = chunks.find((item) => item.facadeModuleId?.endsWith(`/${module}`));
          if (!chunk) throw new Error(`landing page ${page}: no chunk for ${module}`);
          const scripts = staticClosure(bundle, [chunk.fileName], new Set(entry));
          const styles = importedStyles(bundle, scripts).filter((file) => !entryStyles.has(file));
          return [
            page,
            { scripts: scripts.map((file) => `/${file}`), styles: styles.map((file) => `/${file}`) },
          ];
        }),
      ) as TLandingPreloads;
      this.emitFile({ type: 'asset', fileName: 'landing-preloads.json', source: JSON.stringify(preloads) });
    },
  };
}

/**
 * The app is written against React's API and type-checked with React's types, and runs on
 * preact/compat: the same components, hooks and libraries (react-router, react-query, react-i18next,
 * react-hook-form, sonner) in a fraction of React DOM's size, which is what lets the home page's
 * JavaScript before first render stay under its 100 KB budget. See docs/decisions/020.
 */
const preactCompat = [
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // react-i18next's React 17 shim (CommonJS, which would load React itself): compat has the hook.
  { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
  // For the component tests: this package has no "exports" map, so point at its ES module, which
  // the aliases above reach (its CommonJS build would load React DOM itself).
  {
    find: /^@testing-library\/react$/,
    replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
  },
];

export default defineConfig({
  resolve: { alias: preactCompat },
  plugins: [
    react(),
    landingPreloads(),
    VitePWA({
      // We register the worker ourselves (src/features/pwa/register-service-worker.ts) so we control
      // the 60 s update check, the waiting notice and the reload on controller change.
      injectRegister: false,
      registerType: 'prompt',
      strategies: 'generateSW',
      filename: 'service-worker.js',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      // The manifest is the server's, per site and language (GET /manifest.webmanifest?lang=,
      // apps/server/src/modules/sites/manifest.routes.ts); index.html links it.
      manifest: false,
      workbox: {
        // The app shell: every built script, style, locale chunk and icon (not the install-sheet
        // screenshots, which only the browser's install prompt asks for).
        globPatterns: ['**/*.{js,css,html,svg,png}'],
        globIgnores: ['screenshots/**'],
        navigateFallback: '/index.html',
        // API and media paths are never answered by the shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//, /^\/admin/, /^\/ws/],
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
        runtimeCaching: [
          {
            // The public catalogue and site data (no money, no identity: the answers are the same
            // for every player) are kept, so the lobby opens offline with the last list seen.
            urlPattern: ({ url, request }) =>
              request.method === 'GET' &&
              /^\/api\/(games\/(listsv2|apisv2|popular|promotion)|dynamicwebs\/getdata|language\/getList|socialmedialinks\/get)$/.test(
                url.pathname,
              ),
            handler: 'NetworkFirst',
            options: {
              cacheName: 'catalogue',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 200, maxAgeSeconds: 7 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
              plugins: [
                {
                  // An answer from this cache means the server was not reached: it says so
                  // (src/lib/api-client.ts FROM_CACHE_HEADER), so the offline notice stays up.
                  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
                    if (!cachedResponse) return cachedResponse;
                    const headers = new Headers(cachedResponse.headers);
                    headers.set('x-sorte-from-cache', '1');
                    return new Response(cachedResponse.body, {
                      status: cachedResponse.status,
                      statusText: cachedResponse.statusText,
                      headers,
                    });
                  },
                },
              ],
            },
          },
          {
            // Game artwork and site media: drawn by the server, the same for everyone.
            urlPattern: ({ url }) => url.pathname.startsWith('/media/'),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'artwork',
              expiration: { maxEntries: 400, maxAgeSeconds: 30 * 24 * 3600 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            // Balances, identities and sessions must never come from a cache.
            urlPattern: ({ url }) => url.pathname.startsWith('/api/'),
            handler: 'NetworkOnly',
          },
        ],
      },
    }),
  ],
  server: { port: 5173, proxy },
  preview: { port: 4173, proxy },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Vite's record of each module's chunk, imports and stylesheets: the bundle test checks the
    // landing preloads against it (bench/bundle/landing-preloads.test.ts).
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The contract package only declares schemas and constants: a module of it whose exports
        // are unused can be dropped, which keeps zod out of the home route.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
      output: {
        // The runtime, router, query and translation libraries and the app's few shared lib modules
        // in one "shell" chunk: every page needs them before its first render, and split by
        // default into seven files (some of 56 bytes) they cost a phone seven requests instead of one.
        codeSplitting: {
          groups: [
            {
              name: 'shell',
              test: /[\\/]node_modules[\\/](preact|react-router|@tanstack|i18next|react-i18next|html-parse-stringify|void-elements|cookie|set-cookie-parser)[\\/]|[\\/]src[\\/]lib[\\/](query-client|storage|store|page-reload|session|api-client)\.ts$|preload-helper/,
            },
          ],
        },
      },
    },
  },
});
