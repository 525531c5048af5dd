// The import rules of the repository, checked by `npm run check:modules` (scripts/check-modules.mjs,
// a static step of `npm test`). The layers of the server and why they run this way are in
// docs/decisions/034-module-map.md. Module-level cycles are computed by the script, not here:
// dependency-cruiser's `circular` sees cycles between files, and two modules can reach each other
// through different files without any file cycle.

/** The sandboxes stand in for outside systems; production code talks to those systems over HTTP. */
const SANDBOXES = '(psp-sandbox|game-aggregator|mail-catcher|self-exclusion-registry|kyc-sandbox)';
const TESTS = '\\.(int\\.)?test\\.ts$|\\.fixtures\\.ts$|/test/';
const SERVER = '^apps/server/src/';
const CORE = `${SERVER}(core/|db/|http/|errors\\.ts$)`;
const WALLET = `${SERVER}modules/wallet/`;
// Drizzle table files live beside their module but belong to the data layer: db/schema.ts collects
// them, so they may import nothing of the server.
const TABLES = `${SERVER}modules/[^/]+/[^/]+\\.schema\\.ts$`;
const APP = `${SERVER}(app|config|services|server|cluster)\\.ts$|${SERVER}seed/`;
const ROUTES = `${SERVER}(modules/[^/]+/[^/]+\\.routes\\.ts$|plugins/)|${APP}`;

module.exports = {
  forbidden: [
    {
      name: 'undeclared-dependency',
      severity: 'error',
      comment:
        'A package is imported that the nearest package.json does not declare: `npm ci` on a clean clone, or a build of that workspace alone, would not have it.',
      from: { pathNot: TESTS },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-sandbox-in-production',
      severity: 'error',
      comment:
        'Production server code must not run sandbox code. Only a *.connection.ts file, which starts a local sandbox when no real endpoint is configured, may import one; shared wire code lives in a package under packages/.',
      from: { path: SERVER, pathNot: `${TESTS}|\\.connection\\.ts$` },
      to: { path: `^(node_modules/@sorte|apps)/${SANDBOXES}/` },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'The core layer (core/, db/, http/, errors.ts) sits under everything: it imports no module.',
      from: { path: CORE, pathNot: TESTS },
      to: { path: `${SERVER}(modules|plugins)/|${APP}`, pathNot: TABLES },
    },
    {
      name: 'tables-import-only-core',
      severity: 'error',
      comment:
        'A *.schema.ts table file is part of the data layer (db/schema.ts collects it): it imports only core and other table files.',
      from: { path: TABLES },
      to: { path: `${SERVER}(modules|plugins)/|${APP}`, pathNot: TABLES },
    },
    {
      name: 'cashier-does-not-call-promotions',
      severity: 'error',
      comment:
        'Deposits and withdrawals emit what happened and ask what is offered through core/money-events.ts; promotions answers there. The cashier imports no promotions code, so a rule on rewards never reaches into the money path.',
      from: { path: `${SERVER}modules/(deposits|withdrawals)/`, pathNot: TESTS },
      to: { path: `${SERVER}modules/promotions/`, pathNot: TABLES },
    },
    {
      name: 'wallet-imports-only-core',
      severity: 'error',
      comment: 'The wallet sits on the core: features call it, it calls no feature.',
      from: { path: WALLET, pathNot: TESTS },
      to: {
        path: `${SERVER}(modules|plugins)/|${APP}`,
        pathNot: `${WALLET}|${TABLES}`,
      },
    },
    {
      name: 'features-below-routes',
      severity: 'error',
      comment:
        'Feature code (services, repos, jobs) must not import the routes layer: plugins, *.routes.ts, app, services, seed. Routes call features, never the other way round.',
      from: { path: `${SERVER}modules/`, pathNot: `${TESTS}|${ROUTES}` },
      to: { path: ROUTES },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    // Keep workspace packages under node_modules/ so that an import of one is judged against the
    // package.json of the importing workspace like any other package.
    preserveSymlinks: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data|test-results)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
