import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server the dev server forwards /api to. */
const API_TARGET = process.env.SORTE_API ?? 'http://localhost:3000';

/**
 * The back office: served by the API server under /admin (apps/server/src/plugins/static-admin.ts),
 * so every asset URL starts with /admin/.
 */
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  server: { port: 5174, proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      treeshake: {
        // The contract package only declares schemas and constants: unused modules of it are dropped.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
});
