// The workspace folders of the root package.json ("apps/*", "packages/*" or plain folders) that
// have a package.json, relative to the repository root, sorted. Used by the typecheck and lockfile
// checks so a new app is covered as soon as it exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

export function workspaceFolders() {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return workspaces
    .flatMap((pattern) => {
      if (!pattern.endsWith('/*')) return [pattern];
      const parent = pattern.slice(0, -2);
      if (!existsSync(join(root, parent))) return [];
      return readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${parent}/${entry.name}`);
    })
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .sort();
}
