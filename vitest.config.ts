import { defineConfig } from 'vitest/config';

/**
 * One runner for everything. Projects:
 * - unit: pure code (contract, fairness, server units) in Node;
 * - web: React components in jsdom;
 * - integration: the real server app on PGlite and PostgreSQL through app.inject, in ONE worker
 *   without isolation so the process opens each database once (PGlite is heavy);
 * - e2e: Playwright journeys in a real Chromium against a real HTTP server.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/psp-sandbox/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: './apps/web/vite.config.ts',
        test: {
          name: 'web',
          root: './apps/web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['apps/**/*.int.test.ts'],
          pool: 'forks',
          maxWorkers: 1,
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.e2e.test.ts'],
          pool: 'forks',
          maxWorkers: 1,
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
