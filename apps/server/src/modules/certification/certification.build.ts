import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TBuildInfo } from '@sorte/contract';

/**
 * Set by the server's production build (apps/server/scripts/build.mjs, an esbuild `define`): the
 * commit `git rev-parse HEAD` gave when the bundle was made. Undeclared when running from source.
 */
declare const SORTE_BUILD: { commit: string | null; dirty: boolean | null } | undefined;

const COMMIT = /^[0-9a-f]{7,40}$/;
const REPOSITORY = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The bundle's files that identify it, best first: Vite's manifest names every asset by its hash. */
const WEB_MANIFEST_FILES = ['.vite/manifest.json', 'index.html'];

function bundledBuild(): { commit: string | null; dirty: boolean | null } | null {
  return typeof SORTE_BUILD === 'undefined' ? null : SORTE_BUILD;
}

/** The source tree's own commit (a server run from source: dev, tests). */
function sourceTreeCommit(): { commit: string; dirty: boolean } | null {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: REPOSITORY, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const commit = git(['rev-parse', 'HEAD']).trim();
    if (!COMMIT.test(commit)) return null;
    return { commit, dirty: git(['status', '--porcelain', '--untracked-files=no']).trim() !== '' };
  } catch {
    return null;
  }
}

/** The running server's commit: the environment, else the bundle's, else the source tree's. */
export function buildCommit(
  envCommit: string | undefined,
): Pick<TBuildInfo, 'commit' | 'commit_source' | 'dirty'> {
  if (envCommit) return { commit: envCommit, commit_source: 'env', dirty: null };
  const bundled = bundledBuild();
  if (bundled?.commit) return { commit: bundled.commit, commit_source: 'build', dirty: bundled.dirty };
  // A bundle built without git (the Docker build stage) has no commit of its own: asking git at
  // run time would name whatever tree happens to surround it, so only a source run asks.
  if (bundled) return { commit: null, commit_source: 'unknown', dirty: null };
  const source = sourceTreeCommit();
  return source
    ? { commit: source.commit, commit_source: 'git', dirty: source.dirty }
    : { commit: null, commit_source: 'unknown', dirty: null };
}

/** SHA-256 of the served web bundle's asset manifest (or index.html), and which file it hashed. */
export async function webManifestHash(
  webDist: string,
): Promise<Pick<TBuildInfo, 'web_manifest_sha256' | 'web_manifest_file'>> {
  for (const file of WEB_MANIFEST_FILES) {
    try {
      const bytes = await readFile(join(webDist, file));
      return {
        web_manifest_sha256: createHash('sha256').update(bytes).digest('hex'),
        web_manifest_file: file,
      };
    } catch {
      // Not in this bundle: try the next file.
    }
  }
  return { web_manifest_sha256: null, web_manifest_file: null };
}

const cache = new Map<string, Promise<TBuildInfo>>();

/** The running build, worked out once per process (neither the commit nor the bundle changes). */
export function getBuildInfo(envCommit: string | undefined, webDist: string): Promise<TBuildInfo> {
  const key = `${envCommit ?? ''}\n${webDist}`;
  let info = cache.get(key);
  if (!info) {
    info = webManifestHash(webDist).then((web) => ({ ...buildCommit(envCommit), ...web }));
    cache.set(key, info);
  }
  return info;
}
