// `npm run check:modules`: the import rules of .dependency-cruiser.cjs (layers, sandboxes, declared
// packages), then the cycles between server modules. A module is a folder under
// apps/server/src/modules/ or one of the server's own folders (core, db, http, plugins); the app's
// wiring files (app, config, services, server, cluster, seed) are one node, "app". Two modules are
// in a cycle when each reaches the other through any files, which dependency-cruiser's file-level
// `circular` rule does not see, so the strongly connected components are computed here from its
// output. Cycles that were there when the rule came in are listed in KNOWN_CYCLE_EDGES: the list
// can only shrink (an edge that no longer closes a cycle must be removed from it, a new one fails).
// See docs/decisions/034-module-map.md.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IModule } from 'dependency-cruiser';

/** Module edges ("from -> to") that still close a cycle; remove each one as its cycle is broken. */
export const KNOWN_CYCLE_EDGES: readonly string[] = [];

const SERVER = 'apps/server/src/';
const APP_FILES = new Set(['app', 'config', 'services', 'server', 'cluster', 'seed']);

/** The module a server file belongs to, or null for files outside the server's src. */
export function moduleOf(path: string): string | null {
  if (!path.startsWith(SERVER)) return null;
  const rest = path.slice(SERVER.length);
  // Table files sit beside their module but are the data layer: db/schema.ts collects them.
  if (/^(modules\/[^/]+|jobs)\/[^/]+\.schema\.ts$/.test(rest)) return 'db';
  // The list of every module's jobs is the app's wiring, like app.ts that runs it.
  if (rest === 'jobs/all-jobs.ts') return 'app';
  // Routes files are the layer above every feature (rule features-below-routes), one node.
  if (/^modules\/[^/]+\/[^/]+\.routes\.ts$/.test(rest)) return 'routes';
  const [first = '', second = ''] = rest.split('/');
  if (first === 'modules') return second;
  const name = first.replace(/\.ts$/, '');
  if (APP_FILES.has(name)) return 'app';
  return name === 'errors' ? 'core' : name;
}

const isTest = (path: string) => /\.(int\.)?test\.ts$|\.fixtures\.ts$|\/test\//.test(path);

/** Module graph: "from -> to" edge to the file imports that make it, tests left out. */
export function moduleEdges(modules: readonly IModule[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of modules) {
    const from = moduleOf(file.source);
    if (!from || isTest(file.source)) continue;
    for (const dependency of file.dependencies) {
      const to = moduleOf(dependency.resolved);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      const files = edges.get(key) ?? [];
      edges.set(key, files);
      files.push(`${file.source.slice(SERVER.length)} -> ${dependency.resolved.slice(SERVER.length)}`);
    }
  }
  return edges;
}

/** Strongly connected components of more than one module (Tarjan), each sorted, largest first. */
export function cyclesOf(edges: ReadonlyMap<string, unknown>): string[][] {
  const next = new Map<string, string[]>();
  for (const key of edges.keys()) {
    const [from = '', to = ''] = key.split(' -> ');
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const lowOf = (node: string) => low.get(node) ?? 0;
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.size - 1);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) visit(to);
      if (onStack.has(to)) low.set(node, Math.min(lowOf(node), lowOf(to)));
    }
    if (lowOf(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components.sort((a, b) => b.length - a.length);
}

export interface ModuleCheck {
  violations: string[];
  cycles: string[][];
  edges: Map<string, string[]>;
  newEdges: string[];
  staleEdges: string[];
}

/**
 * Runs the rules over `paths` (relative to `baseDir`) and the cycle check against `knownEdges`.
 * Answers the rule violations, the cycles, the cycle edges not on the list (new) and the listed
 * edges that no longer close a cycle (stale).
 */
export async function checkModules(options: {
  baseDir: string;
  paths: string[];
  configPath: string;
  knownEdges?: readonly string[];
}): Promise<ModuleCheck> {
  const { baseDir, paths, configPath, knownEdges = KNOWN_CYCLE_EDGES } = options;
  const config = createRequire(import.meta.url)(configPath) as {
    options: ICruiseOptions;
    forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden'];
  };
  const cruiseOptions = {
    ...config.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  };
  const output = (await cruise(paths, cruiseOptions)).output as ICruiseResult;
  const violations = output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  const edges = moduleEdges(output.modules);
  const cycles = cyclesOf(edges);
  const inCycle = new Map(cycles.flatMap((component, i) => component.map((m) => [m, i] as const)));
  const cycleEdges = [...edges.keys()].filter((key) => {
    const [from = '', to = ''] = key.split(' -> ');
    return inCycle.has(from) && inCycle.get(from) === inCycle.get(to);
  });
  const known = new Set(knownEdges);
  return {
    violations,
    cycles,
    edges,
    newEdges: cycleEdges.filter((key) => !known.has(key)).sort(),
    staleEdges: knownEdges.filter((key) => !cycleEdges.includes(key)),
  };
}

function report({ violations, cycles, edges, newEdges, staleEdges }: ModuleCheck): boolean {
  for (const violation of violations) console.error(`modules: ${violation}`);
  for (const component of cycles) {
    console.log(`modules: cycle of ${component.length}: ${component.join(', ')}`);
  }
  for (const key of newEdges) {
    console.error(`modules: new cycle edge ${key} (${(edges.get(key) ?? []).slice(0, 3).join('; ')})`);
  }
  for (const key of staleEdges) {
    console.error(`modules: ${key} no longer closes a cycle: remove it from KNOWN_CYCLE_EDGES`);
  }
  const ok = violations.length === 0 && newEdges.length === 0 && staleEdges.length === 0;
  const nodes = new Set([...edges.keys()].flatMap((key) => key.split(' -> ')));
  console.log(
    `modules: ${nodes.size} server modules, ${cycles.length} cycle(s), ${violations.length} rule violation(s)`,
  );
  return ok;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = new URL('..', import.meta.url).pathname;
  const result = await checkModules({
    baseDir: root,
    paths: ['apps', 'packages'],
    configPath: `${root}.dependency-cruiser.cjs`,
  });
  process.exit(report(result) ? 0 : 1);
}
