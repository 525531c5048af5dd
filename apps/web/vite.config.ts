import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The API server the dev server and `vite preview` forward /api and /media to. */
const API_TARGET = process.env.SORTE_API ?? 'http://localhost:3000';
const proxy = {
  '/api': { target: API_TARGET, changeOrigin: false },
  '/media': { target: API_TARGET, changeOrigin: false },
};

/**
 * The home page is the usual first screen, and its chunk is lazy (other routes must not pay for
 * it). A modulepreload link lets the browser fetch it, and what it imports, while the entry script
 * downloads, instead of after the entry has run: one round trip fewer before the home page fills in.
 */
function preloadHomeRoute(): Plugin {
  return {
    name: 'sorte:preload-home-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle = context.bundle;
        if (!bundle) return [];
        const home = Object.values(bundle).find(
          (output) =>
            output.type === 'chunk' && output.facadeModuleId?.endsWith('/src/app/pages/home-route.tsx'),
        );
        if (home?.type !== 'chunk') return [];
        const entryFiles = new Set(
          Object.values(bundle).flatMap((output) =>
            output.type === 'chunk' && output.isEntry ? [output.fileName, ...output.imports] : [],
          ),
        );
        const files = [home.fileName, ...home.imports].filter((file) => !entryFiles.has(file));
        const styles = new Set(
          files.flatMap((file) => {
            const output = bundle[file];
            return output?.type === 'chunk' ? [...(output.viteMetadata?.importedCss ?? [])] : [];
          }),
        );
        return [
          ...files.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
          // Fetched early but not render-blocking: the chunk applies it when it loads.
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    preloadHomeRoute(),
    VitePWA({
      // We register the worker ourselves (src/features/pwa/register-service-worker.ts) so we control
      // the 60 s update check, the waiting notice and the reload on controller change.
      injectRegister: false,
      registerType: 'prompt',
      strategies: 'generateSW',
      filename: 'service-worker.js',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Sorte',
        short_name: 'Sorte',
        description: 'Sorte — casino, live games and sports',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#0b0f1a',
        theme_color: '#0b0f1a',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // The app shell: every built script, style, locale chunk and icon.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        // API and media paths are never answered by the shell.
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//, /^\/admin/, /^\/ws/],
        cleanupOutdatedCaches: true,
        clientsClaim: false,
        skipWaiting: false,
        runtimeCaching: [
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
    rolldownOptions: {
      treeshake: {
        // The contract package only declares schemas and constants: a module of it whose exports
        // are unused can be dropped, which keeps zod out of the home route.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
});
