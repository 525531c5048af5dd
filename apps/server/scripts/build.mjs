// Production build of the server: one ES module bundle, apps/server/dist/server.js (+ source map),
// run by `npm run serve` and the Dockerfile with plain `node` (no TypeScript loader at run time).
// The workspace packages (@sorte/*, TypeScript sources) are bundled in; npm dependencies stay in
// node_modules. Files found next to a source file (`new URL('…', import.meta.url)`: migrations,
// the web and admin builds, data files) keep resolving from that source file's place in the repo.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const outdir = resolve(root, 'dist');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@sorte/'));

/** `import.meta.url` of a bundled source file = that file's own URL, computed from the bundle's. */
const sourceUrls = {
  name: 'source-import-meta-url',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(outdir, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/**
 * The commit the bundle is built from, baked in as SORTE_BUILD (read by the back office's
 * certification page). Without git (the Docker build stage has no .git) it is null and the
 * Dockerfile's BUILD_COMMIT names the commit instead.
 */
function sourceCommit() {
  try {
    const git = (args) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git(['rev-parse', 'HEAD']);
    return { commit, dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '' };
  } catch {
    return { commit: null, dirty: null };
  }
}

const started = Date.now();
await build({
  entryPoints: { server: resolve(root, 'src/server.ts'), cluster: resolve(root, 'src/cluster.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  plugins: [sourceUrls],
  define: { SORTE_BUILD: JSON.stringify(sourceCommit()) },
  logLevel: 'warning',
  // Some bundled CommonJS may call require(): give the ES module bundle one.
  banner: {
    js: "import { createRequire as __sorteRequire } from 'node:module'; const require = __sorteRequire(import.meta.url);",
  },
});
console.log(`server built in ${Date.now() - started} ms: ${relative(process.cwd(), outdir)}/server.js`);
