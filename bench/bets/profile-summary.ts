/**
 * Summarises a V8 `.cpuprofile` (`BENCH_CPU_PROFILE`): the functions with the most samples of
 * their own and the most samples in their call trees, each as a share of the profile. PGlite's
 * WASM frames (`wasm-function[N]`) are named from the module's export section, which names most
 * of PostgreSQL's functions (the module has no name section).
 *
 *   node --import tsx bench/bets/profile-summary.ts <file.cpuprofile> [rows]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

type TNode = { id: number; callFrame: { functionName: string; url: string }; children?: number[] };
type TProfile = { nodes: TNode[]; samples: number[]; timeDeltas: number[] };

/** Function index → export name, from a WASM binary's export section. */
export function wasmExportNames(bytes: Uint8Array): Map<number, string> {
  const names = new Map<number, string>();
  let at = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = bytes[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (at < bytes.length) {
    const section = bytes[at++]!;
    const size = leb();
    const end = at + size;
    if (section === 7) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const length = leb();
        const name = new TextDecoder().decode(bytes.subarray(at, at + length));
        at += length;
        const kind = bytes[at++]!;
        const index = leb();
        if (kind === 0) names.set(index, name);
      }
    }
    at = end;
  }
  return names;
}

function main(): void {
  const [file, rowsArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [rows]');
  const rows = Number(rowsArg ?? 30);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as TProfile;
  const wasm = wasmExportNames(
    readFileSync(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm')),
  );
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (node: TNode) => {
    const { functionName, url } = node.callFrame;
    const index = /^wasm-function\[(\d+)\]$/.exec(functionName)?.[1];
    const name = (index && wasm.get(Number(index))) || functionName || '(anonymous)';
    return `${name} ${url.split('/').slice(-2).join('/')}`.trim();
  };
  const own = new Map<string, number>();
  const within = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const leaf = byId.get(id)!;
    own.set(nameOf(leaf), (own.get(nameOf(leaf)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = nameOf(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      within.set(name, (within.get(name) ?? 0) + delta);
    }
  });
  const top = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  console.log(
    `${(total / 1000).toFixed(0)} ms sampled\n\nown samples:\n${top(own)}\n\nin the call tree:\n${top(within)}`,
  );
}

main();
