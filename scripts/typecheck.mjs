#!/usr/bin/env node
// Type-checks every workspace that has a tsconfig.json, then the root tools (scripts, e2e, bench).
// Workspaces are read from the root package.json, so a new app is checked as soon as it has a
// tsconfig, and one that has none yet is reported and skipped rather than failing the run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root, workspaceFolders } from './workspaces.mjs';

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const projects = [];
for (const folder of workspaceFolders()) {
  if (existsSync(join(root, folder, 'tsconfig.json'))) projects.push(folder);
  else console.log(`typecheck: ${folder} has no tsconfig.json yet, skipped`);
}
projects.push('tsconfig.tools.json');

const failed = [];
for (const project of projects) {
  console.log(`typecheck: tsc -p ${project}`);
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) failed.push(project);
}

if (failed.length > 0) {
  console.error(`typecheck: failed in ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`typecheck: ${projects.length} projects clean`);
