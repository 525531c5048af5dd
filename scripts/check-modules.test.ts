import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkModules, type ModuleCheck } from './check-modules.ts';

/**
 * The module check runs the repository's own rules on a small temporary tree laid out like the
 * server: it must fail on a new cycle between modules (and print it), on an import against the
 * layers, on production code running a sandbox, on an undeclared package, and on a listed cycle
 * that is gone (the list only shrinks).
 */
const configPath = join(import.meta.dirname, '..', '.dependency-cruiser.cjs');
const trees: string[] = [];

/** A tree with a wallet, two features and a routes file that import nothing against the rules. */
const CLEAN: Record<string, string> = {
  'package.json': '{ "name": "tree", "private": true }',
  'apps/server/package.json': '{ "name": "@sorte/server", "private": true }',
  'apps/server/src/errors.ts': 'export class AppError extends Error {}\n',
  'apps/server/src/db/client.ts':
    "import { accounts } from '../modules/wallet/wallet.schema.ts';\nexport const db = { accounts };\n",
  'apps/server/src/modules/wallet/wallet.schema.ts': 'export const accounts = 1;\n',
  'apps/server/src/modules/wallet/wallet.service.ts':
    "import { db } from '../../db/client.ts';\nexport const transfer = () => db;\n",
  'apps/server/src/modules/sites/sites.service.ts':
    "import { transfer } from '../wallet/wallet.service.ts';\nexport const site = transfer;\n",
  'apps/server/src/modules/deposits/deposits.service.ts':
    "import { site } from '../sites/sites.service.ts';\nexport const deposit = site;\n",
  'apps/server/src/modules/deposits/deposits.routes.ts':
    "import { deposit } from './deposits.service.ts';\nexport const routes = deposit;\n",
  'apps/server/src/app.ts':
    "import { routes } from './modules/deposits/deposits.routes.ts';\nexport const app = routes;\n",
  'node_modules/@sorte/psp-sandbox/package.json':
    '{ "name": "@sorte/psp-sandbox", "exports": { ".": "./src/index.ts" } }',
  'node_modules/@sorte/psp-sandbox/src/index.ts': 'export const createSandbox = () => 1;\n',
};

async function check(changes: Record<string, string>, knownEdges: string[] = []): Promise<ModuleCheck> {
  const root = mkdtempSync(join(tmpdir(), 'module-check-'));
  trees.push(root);
  for (const [path, text] of Object.entries({ ...CLEAN, ...changes })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const result = await checkModules({ baseDir: root, paths: ['apps'], configPath, knownEdges });
  console.log(`cycles: ${JSON.stringify(result.cycles)}; violations: ${JSON.stringify(result.violations)}`);
  return result;
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('module check', () => {
  it('passes a tree whose imports follow the layers', async () => {
    const result = await check({});
    expect(result.violations).toEqual([]);
    expect(result.cycles).toEqual([]);
    expect(result.edges.has('deposits -> sites')).toBe(true);
  });

  it('fails on a new cycle between two features, through files that form no file cycle', async () => {
    const result = await check({
      'apps/server/src/modules/sites/site-rules.ts':
        "import { deposit } from '../deposits/deposits.service.ts';\nexport const rule = deposit;\n",
    });
    expect(result.cycles).toEqual([['deposits', 'sites']]);
    expect(result.newEdges).toEqual(['deposits -> sites', 'sites -> deposits']);
  });

  it('lets a listed cycle pass and fails once the listed edge no longer closes one', async () => {
    const cycle = {
      'apps/server/src/modules/sites/site-rules.ts':
        "import { deposit } from '../deposits/deposits.service.ts';\nexport const rule = deposit;\n",
    };
    const known = ['deposits -> sites', 'sites -> deposits'];
    expect((await check(cycle, known)).newEdges).toEqual([]);
    expect((await check({}, known)).staleEdges).toEqual(known);
  });

  it('fails on imports against the layers', async () => {
    const result = await check({
      'apps/server/src/modules/wallet/wallet.bonus.ts':
        "import { site } from '../sites/sites.service.ts';\nexport const bonus = site;\n",
      'apps/server/src/modules/sites/sites.jobs.ts':
        "import { routes } from '../deposits/deposits.routes.ts';\nexport const job = routes;\n",
      'apps/server/src/db/keyset.ts':
        "import { site } from '../modules/sites/sites.service.ts';\nexport const k = site;\n",
      'apps/server/src/modules/promotions/promotions.service.ts': 'export const gift = 1;\n',
      'apps/server/src/modules/withdrawals/withdrawals.service.ts':
        "import { gift } from '../promotions/promotions.service.ts';\nexport const owed = gift;\n",
    });
    expect(result.violations.sort()).toEqual([
      'cashier-does-not-call-promotions: apps/server/src/modules/withdrawals/withdrawals.service.ts -> apps/server/src/modules/promotions/promotions.service.ts',
      'core-imports-only-core: apps/server/src/db/keyset.ts -> apps/server/src/modules/sites/sites.service.ts',
      'features-below-routes: apps/server/src/modules/sites/sites.jobs.ts -> apps/server/src/modules/deposits/deposits.routes.ts',
      'wallet-imports-only-core: apps/server/src/modules/wallet/wallet.bonus.ts -> apps/server/src/modules/sites/sites.service.ts',
    ]);
  });

  it('fails on production code running a sandbox and on a package the workspace does not declare', async () => {
    const result = await check({
      'apps/server/src/modules/deposits/deposits.service.ts':
        "import { createSandbox } from '@sorte/psp-sandbox';\nexport const deposit = createSandbox;\n",
    });
    const sandbox =
      'apps/server/src/modules/deposits/deposits.service.ts -> node_modules/@sorte/psp-sandbox/src/index.ts';
    expect(result.violations.sort()).toEqual([
      `no-sandbox-in-production: ${sandbox}`,
      `undeclared-dependency: ${sandbox}`,
    ]);
  });

  it('lets a *.connection.ts file start a declared sandbox', async () => {
    const result = await check({
      'apps/server/package.json':
        '{ "name": "@sorte/server", "private": true, "dependencies": { "@sorte/psp-sandbox": "*" } }',
      'apps/server/src/modules/deposits/psp.connection.ts':
        "import { createSandbox } from '@sorte/psp-sandbox';\nexport const start = createSandbox;\n",
    });
    expect(result.violations).toEqual([]);
  });
});
