#!/usr/bin/env node
// `npm test`: every check the project has, in order, with all output shown as it happens.
// Static checks first (lockfile, types, lint, translations, module imports), then the build the
// browser journeys need, then the vitest projects one after another so that the heavy ones (PGlite,
// Chromium) never share the machine. Every step runs even after a failure, so one run shows every
// problem. The last line is the tally, "N passed, N failed": tests summed over the vitest projects,
// plus one failure for each static step that failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const resultsDir = join(root, 'test-results');
const node = process.execPath;
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

mkdirSync(resultsDir, { recursive: true });

/** Runs one command with inherited output; returns its exit status (signals count as failure). */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) console.error(result.error);
  return result.status ?? 1;
}

// The static steps are the package.json scripts of the same names, so each command is defined once.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const staticSteps = [
  'check:lockfile',
  'typecheck',
  'lint',
  'check:i18n',
  'check:modules',
  'check:docs',
  'build',
];

// The web project exists only once the app has a Vite config (see vitest.config.ts).
const vitestProjects = ['unit', 'web', 'integration', 'e2e'].filter(
  (project) => project !== 'web' || existsSync(join(root, 'apps', 'web', 'vite.config.ts')),
);

const summary = [];
let passed = 0;
let failed = 0;
let skipped = 0;

for (const step of staticSteps) {
  console.log(`\n━━ ${step} ━━`);
  const started = Date.now();
  const status = run(npm, ['run', '--silent', step]);
  const ok = status === 0;
  if (!ok) failed += 1;
  summary.push({ step, result: ok ? 'ok' : `FAILED (exit ${status})`, ms: Date.now() - started });
}

/**
 * Reads vitest's JSON report. A test file that fails outside its tests (it cannot load, or a
 * beforeAll hook throws) reports its tests as skipped: they count as failed here, at least one per
 * such file. A run that exits non-zero without any failure in the report (an unhandled error, a
 * crash, no report at all) counts as one failure too.
 */
function tally(reportPath, exitStatus) {
  if (!existsSync(reportPath)) return { passed: 0, failed: 1, skipped: 0, note: 'no report written' };
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  let failures = report.numFailedTests ?? 0;
  let skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const file of report.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    if (file.status !== 'failed' || tests.some((test) => test.status === 'failed')) continue;
    const notRun = tests.filter((test) => test.status !== 'passed').length;
    failures += Math.max(1, notRun);
    skipped -= notRun;
  }
  if (exitStatus !== 0 && failures === 0) failures = 1;
  return {
    passed: report.numPassedTests ?? 0,
    failed: failures,
    skipped,
    note: `${report.numTotalTests ?? 0} tests in ${(report.testResults ?? []).length} files`,
  };
}

/**
 * A second Node runtime the suites also run on (`.ci/run` sets it to Node 24 LTS, the production
 * image's): SORTE_TEST_EXTRA_NODE is its binary, SORTE_TEST_EXTRA_PROJECTS the vitest projects it
 * runs (default unit and integration). Its results count in the tally like the others.
 */
const extraNode = process.env.SORTE_TEST_EXTRA_NODE;
const extraRuns = extraNode
  ? (process.env.SORTE_TEST_EXTRA_PROJECTS ?? 'unit,integration')
      .split(',')
      .map((project) => project.trim())
      .filter(Boolean)
      .map((project) => ({ project, runtime: extraNode, label: `${project} (${versionOf(extraNode)})` }))
  : [];

/** `node --version` of a runtime, as the step's label shows it. */
function versionOf(runtime) {
  const result = spawnSync(runtime, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? `node ${result.stdout.trim()}` : runtime;
}

const runs = [...vitestProjects.map((project) => ({ project, runtime: node, label: project })), ...extraRuns];

for (const { project, runtime, label } of runs) {
  console.log(`\n━━ vitest ${label} ━━`);
  const reportPath = join(resultsDir, `vitest-${label.replace(/[^a-z0-9.]+/gi, '-')}.json`);
  rmSync(reportPath, { force: true });
  const started = Date.now();
  const status = run(runtime, [
    bin('vitest', 'vitest.mjs'),
    'run',
    '--project',
    project,
    '--passWithNoTests',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportPath}`,
  ]);
  const counts = tally(reportPath, status);
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  const result = counts.failed === 0 ? 'ok' : `FAILED (${counts.failed})`;
  summary.push({
    step: `vitest ${label}`,
    result: `${result}: ${counts.passed} passed, ${counts.failed} failed (${counts.note})`,
    ms: Date.now() - started,
  });
}

console.log('\n━━ summary ━━');
for (const { step, result, ms } of summary) {
  console.log(`${step.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${result}`);
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
