import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumExecutable } from '../../e2e/support/browser.ts';
import { startServer } from '../../e2e/support/server.ts';

/**
 * Lighthouse (mobile: a mid-range phone, 4× CPU slowdown, slow 4G) on the built app served by the
 * real server, for the pages a player lands on. Prints the performance score and the load metrics
 * per page; `BENCH_RUNS` runs each page that many times and prints the median run.
 */
const RUNS = Math.min(Math.max(Number(process.env.BENCH_RUNS ?? 3), 1), 9);
/** With `BENCH_TRACES=<dir>`, each run's report and trace are written there (open in Chrome's Performance panel). */
const TRACES = process.env.BENCH_TRACES;
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'lobby', path: '/game' },
  { name: 'dice (demo)', path: '/originals/dice?mode=demo' },
];

type TAudit = { numericValue?: number };
type TMetrics = {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  bytes: number;
  /** What the largest paint was and where its time went (TTFB, load delay, load, render delay). */
  lcpElement: string;
  lcpPhases: string;
  /** What held the main thread: the longest tasks and the scripts that cost the most CPU. */
  mainThread: string;
};

type TLcpDetails = {
  items?: { items?: { node?: { selector?: string; snippet?: string }; phase?: string; timing?: number }[] }[];
};

function metricsOf(lhr: {
  categories: { performance?: { score: number | null } };
  audits: Record<string, TAudit>;
}): TMetrics {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    si: value('speed-index'),
    bytes: value('total-byte-weight'),
    ...lcpOf(lhr.audits['largest-contentful-paint-element'] as { details?: TLcpDetails } | undefined),
    mainThread: mainThreadOf(lhr.audits as unknown as Record<string, { details?: TTable }>),
  };
}

type TTable = { items?: Record<string, unknown>[] };

/** The file name of a script URL (the hashed asset), or the URL when it has none. */
const fileOf = (url: unknown) =>
  String(url ?? '?')
    .replace(/^https?:\/\/[^/]+\//, '/')
    .replace(/\?.*$/, '');

/**
 * The long tasks (start and duration, by script) and the scripts' CPU (scripting + parse), top 5 of
 * each: what Total Blocking Time is made of on this page.
 */
function mainThreadOf(audits: Record<string, { details?: TTable }>): string {
  const ms = (value: unknown) => Math.round(Number(value ?? 0));
  const tasks = (audits['long-tasks']?.details?.items ?? [])
    .slice(0, 5)
    .map((task) => `${ms(task.startTime)}+${ms(task.duration)} ${fileOf(task.url)}`);
  const scripts = (audits['bootup-time']?.details?.items ?? [])
    .slice(0, 5)
    .map((script) => `${fileOf(script.url)} ${ms(script.scripting)}+${ms(script.scriptParseCompile)}`);
  const work = (audits['mainthread-work-breakdown']?.details?.items ?? [])
    .slice(0, 5)
    .map((group) => `${group.group} ${ms(group.duration)}`);
  return `long tasks [${tasks.join(', ')}]\n    scripts (run+parse ms) [${scripts.join(', ')}]\n    main thread [${work.join(', ')}]`;
}

function lcpOf(audit: { details?: TLcpDetails } | undefined): Pick<TMetrics, 'lcpElement' | 'lcpPhases'> {
  const tables = audit?.details?.items ?? [];
  const node = tables[0]?.items?.[0]?.node;
  const phases = (tables[1]?.items ?? [])
    .filter((row) => row.phase)
    .map((row) => `${row.phase} ${Math.round(row.timing ?? 0)}`)
    .join(', ');
  return { lcpElement: node?.selector ?? node?.snippet ?? '?', lcpPhases: phases };
}

const server = await startServer('lighthouse');
const chrome = await chromeLauncher.launch({
  chromePath: await chromiumExecutable(),
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
  ],
});
const rows: string[][] = [];
const lcpNotes: string[] = [];
try {
  for (const page of PAGES) {
    const runs: TMetrics[] = [];
    for (let i = 0; i < RUNS; i++) {
      const result = await lighthouse(`${server.url}${page.path}`, {
        port: chrome.port,
        onlyCategories: ['performance'],
        output: 'json',
        logLevel: 'error',
      });
      if (!result) throw new Error(`lighthouse gave no result for ${page.path}`);
      if (TRACES) {
        mkdirSync(TRACES, { recursive: true });
        const base = join(TRACES, `${page.name.replace(/\W+/g, '-')}-${i + 1}`);
        writeFileSync(`${base}.report.json`, JSON.stringify(result.lhr));
        writeFileSync(`${base}.trace.json`, JSON.stringify(result.artifacts.Trace ?? {}));
      }
      runs.push(metricsOf(result.lhr as unknown as Parameters<typeof metricsOf>[0]));
    }
    runs.sort((a, b) => a.score - b.score || b.lcp - a.lcp);
    const m = runs[Math.floor(runs.length / 2)]!;
    rows.push([
      page.name,
      String(m.score),
      `${Math.round(m.fcp)}`,
      `${Math.round(m.lcp)}`,
      `${Math.round(m.tbt)}`,
      m.cls.toFixed(3),
      `${Math.round(m.si)}`,
      `${Math.round(m.bytes / 1024)}`,
    ]);
    lcpNotes.push(`${page.name}: LCP ${m.lcpElement} (${m.lcpPhases} ms)\n    ${m.mainThread}`);
  }
} finally {
  await chrome.kill();
  await server.stop();
}
const header = ['page', 'score', 'FCP ms', 'LCP ms', 'TBT ms', 'CLS', 'SI ms', 'KiB'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
console.log(
  `Lighthouse ${RUNS > 1 ? `median of ${RUNS} runs, ` : ''}mobile profile (4× CPU slowdown, slow 4G), built app on the real server:`,
);
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
for (const note of lcpNotes) console.log(note);
process.exit(0);
