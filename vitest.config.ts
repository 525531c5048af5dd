import { existsSync } from 'node:fs';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

/**
 * One runner for everything. Projects:
 * - unit: pure code (contract, fairness, server units) in Node;
 * - web: React components in jsdom;
 * - integration: the real server app on PGlite and PostgreSQL through app.inject, in ONE worker
 *   without isolation so the process opens each database once (PGlite is heavy);
 * - e2e: Playwright journeys in a real Chromium against a real HTTP server.
 * scripts/test.mjs runs them one after another, in this order, and adds up the results.
 */
/** Bounds every fast-check property's time, shrinking included (see the file). */
const PROPERTIES_SETUP = './apps/server/test/properties.setup.ts';

const projects: TestProjectConfiguration[] = [
  {
    test: {
      name: 'unit',
      environment: 'node',
      include: [
        'packages/*/src/**/*.test.ts',
        'packages/*/test/**/*.test.ts',
        'apps/server/src/**/*.test.ts',
        'apps/psp-sandbox/src/**/*.test.ts',
        'apps/kyc-sandbox/src/**/*.test.ts',
        'apps/game-aggregator/src/**/*.test.ts',
        'scripts/**/*.test.ts',
        'bench/**/*.test.ts',
      ],
      exclude: ['**/*.int.test.ts', '**/node_modules/**'],
      setupFiles: [PROPERTIES_SETUP],
      // Some unit tests enumerate whole paytables (seconds of CPU); on a loaded two-core machine
      // vitest's 5 s default turned them into timing assertions.
      testTimeout: 60_000,
    },
  },
];

// The web project borrows the app's Vite config (plugins, aliases); a config that extends a file
// that is not there fails to load altogether, so the project joins once the app has one.
if (existsSync('./apps/web/vite.config.ts')) {
  projects.push({
    extends: './apps/web/vite.config.ts',
    // ES module builds first (react-router's CommonJS build would load React itself).
    resolve: { conditions: ['module', 'browser', 'development'] },
    test: {
      name: 'web',
      root: './apps/web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      // The app runs on preact/compat (the Vite config's aliases). The React libraries are bundled
      // through those aliases here too, so the tests render with the runtime that ships.
      server: {
        deps: {
          inline: [
            /@testing-library\/react/,
            /react-router/,
            /react-i18next/,
            /@tanstack\/react-query/,
            /react-hook-form/,
            /@hookform\/resolvers/,
            /sonner/,
          ],
        },
      },
      ...(existsSync('./apps/web/src/test/setup.ts') ? { setupFiles: ['./src/test/setup.ts'] } : {}),
    },
  });
}

projects.push(
  {
    test: {
      name: 'integration',
      environment: 'node',
      include: ['apps/**/*.int.test.ts', 'packages/**/*.int.test.ts'],
      exclude: ['**/node_modules/**'],
      setupFiles: [PROPERTIES_SETUP],
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
      setupFiles: ['e2e/support/failure-logs.ts'],
      pool: 'forks',
      maxWorkers: 1,
      isolate: false,
      // A journey drives a real browser against a real server on a shared two-core machine.
      testTimeout: 180_000,
      hookTimeout: 300_000,
    },
  },
);

export default defineConfig({ test: { projects } });
