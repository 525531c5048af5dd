import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WALLET = import.meta.dirname;

/**
 * The wallet's layers, lowest first: a file imports only files of its own layer or below, so
 * the posting core never depends on what is built on it (bonus money, holds, accounts, reads).
 * Files not named here (bonus/, holds, accounts, balances, reconcile, fixtures) are on top.
 */
const LAYER: Record<string, number> = {
  'wallet.errors.ts': 0,
  'wallet.schema.ts': 0,
  'wallet.repo.ts': 1,
  'bonus/grants.repo.ts': 1,
  'bonus/grant-model.ts': 1,
  'posting/request.ts': 1,
  'wallet.service.ts': 2,
  'wallet.group.ts': 2,
  'posting/grant-parts.ts': 2,
  'posting/ledger.ts': 2,
  'posting/plan.ts': 2,
  'posting/statement.ts': 2,
};
const TOP = 3;

function walletFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walletFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each wallet file's imports of other wallet files (type imports too), by path from the wallet. */
function walletImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walletFiles(WALLET)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name))
      .filter((path) => path.startsWith(`${WALLET}/`))
      .map((path) => relative(WALLET, path));
    graph.set(relative(WALLET, file), [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle of a graph, each as the path that closes it (`a -> b -> a`). */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    if (path.includes(node)) {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' -> '));
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

describe('imports inside the wallet', () => {
  it('have no cycle, counting type imports', () => {
    expect(cyclesOf(walletImports())).toEqual([]);
  });

  it('go down the layers: repo, then the posting core, then bonus money, holds, accounts and reads', () => {
    const upward = [...walletImports()].flatMap(([file, targets]) =>
      targets
        .filter((target) => (LAYER[target] ?? TOP) > (LAYER[file] ?? TOP))
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('re-export nothing: a caller imports each name from the file that defines it', () => {
    const hubs = walletFiles(WALLET).filter((file) =>
      /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s/m.test(readFileSync(file, 'utf8')),
    );
    expect(hubs.map((file) => relative(WALLET, file))).toEqual([]);
  });

  it('finds a cycle through any number of files, and none in a chain', () => {
    const ring = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cyclesOf(ring)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
    expect(
      cyclesOf(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toEqual([]);
  });
});
