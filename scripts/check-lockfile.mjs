#!/usr/bin/env node
// Fails when package-lock.json no longer matches the package.json files, the mistake that makes
// `npm ci` refuse to install on a clean clone (and so CI fail before any test) while everything
// still works on the machine that ran `npm install`. Checks that every workspace is in the lock,
// linked under its name, and declares the same dependencies there as in its package.json.
// Fix: `npm install --package-lock-only`, then commit package-lock.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, workspaceFolders } from './workspaces.mjs';

const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const lock = readJson('package-lock.json');
const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const folders = workspaceFolders();

const problems = [];
const same = (a = {}, b = {}) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

for (const folder of ['', ...folders]) {
  const declared = readJson(join(folder, 'package.json'));
  const locked = lock.packages?.[folder];
  const label = folder || 'the root package';
  if (!locked) {
    problems.push(`${label} is not in package-lock.json`);
    continue;
  }
  for (const field of FIELDS) {
    if (!same(declared[field], locked[field]))
      problems.push(`${label}: ${field} differ from package-lock.json`);
  }
  if (folder && !lock.packages[`node_modules/${declared.name}`]?.link) {
    problems.push(`${label}: node_modules/${declared.name} is not linked in package-lock.json`);
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`lockfile: ${problem}`);
  console.error('lockfile: run `npm install --package-lock-only` and commit package-lock.json');
  process.exit(1);
}
console.log(`lockfile: package-lock.json matches ${folders.length + 1} package.json files`);
