// The CLI's prebuilt entry: shared/cli/main.ts bundled by esbuild (npm packages stay external) into
// node_modules/.cache/dropqa-cli/, so a command loads one file instead of transpiling hundreds of
// TypeScript modules through tsx on every run (--help 1.2 -> 0.2 s of CPU). The bundle records the
// size and mtime of every source file it was built from and is rebuilt when any of them changed;
// without esbuild (a production install) the CLI runs through tsx as before.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'dropqa-cli');
const CURRENT = join(CACHE, 'current.json');
const ENTRY = join(ROOT, 'shared', 'cli', 'main.ts');
const WORKER_HOST = join(ROOT, 'shared', 'db', 'pglite-worker', 'host.ts');
/** Builds older than this are removed by the next build (a running CLI may still load their chunks). */
const KEEP_OLD_MS = 60 * 60 * 1000;

/** `[mtimeMs, size]` of a file, or undefined when it is gone. */
function stamp(path) {
  try {
    const stat = statSync(path);
    return [stat.mtimeMs, stat.size];
  } catch {
    return undefined;
  }
}

/** The current build's entry when it is there and every file it was built from is unchanged. */
export function freshBundle() {
  let current;
  try {
    current = JSON.parse(readFileSync(CURRENT, 'utf8'));
  } catch {
    return undefined;
  }
  if (current.root !== ROOT || !existsSync(current.entry)) return undefined;
  for (const [file, [mtimeMs, size]] of Object.entries(current.inputs)) {
    const now = stamp(join(ROOT, file));
    if (!now || now[0] !== mtimeMs || now[1] !== size) return undefined;
  }
  return current.entry;
}

/**
 * Each source keeps its own location: `import.meta.url` (prompt files, migrations, the PGlite worker,
 * web/dist) is replaced by the URL of the file it was written in.
 */
const ownLocation = {
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined;
      const url = pathToFileURL(args.path).href;
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(url))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Pure-JavaScript packages that only DropQA's own sources import, bundled in: loading them from
 * node_modules cost a module load each (zod 95 files with every locale, drizzle-orm 107, diff 19 for
 * `status`; yaml 73 for every command that reads the configuration, regexp-tree 45 for `search`,
 * picomatch 7), and the bundle keeps only what is used. A package another external package imports
 * too would be two copies; only picomatch is (the web build's tools), and it keeps no state.
 */
const INLINE_PACKAGES = /^(?:zod|drizzle-orm|diff|yaml|regexp-tree|picomatch)(?:\/|$)/;

/**
 * Inlined packages whose Node entry cannot be bundled as ESM, with the entry bundled instead: yaml's
 * is CommonJS that requires `process`; its ESM build is the same code.
 */
const ESM_ENTRIES = { yaml: 'browser/index.js' };

/**
 * Other npm packages stay external (loaded from node_modules at run time), except those whose entry
 * is a JSON file (stopwords-iso): Node imports JSON only with an import attribute, which tsx adds itself.
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./#]/ }, (args) => {
      if (Object.hasOwn(ESM_ENTRIES, args.path)) {
        const manifest = createRequire(join(args.resolveDir, 'index.js')).resolve(
          `${args.path}/package.json`,
        );
        return { path: join(dirname(manifest), ESM_ENTRIES[args.path]) };
      }
      if (args.kind === 'entry-point' || INLINE_PACKAGES.test(args.path)) return undefined;
      try {
        const resolved = createRequire(join(args.resolveDir, 'index.js')).resolve(args.path);
        if (resolved.endsWith('.json')) return { path: resolved };
      } catch {
        // ESM-only exports: Node resolves them at run time.
      }
      return { path: args.path, external: true };
    });
  },
};

/**
 * zod re-exports every locale's messages (64 files, three quarters of its code) as `z.locales`;
 * DropQA uses none but the English default, which zod imports by itself. The bundle keeps English only.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!args.importer.includes(`${join('node_modules', 'zod', '')}`)) return undefined;
      return { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/** Builds the bundle into a folder of its own and makes it current; returns its entry, or undefined without esbuild. */
export async function buildBundle() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const id = `${Date.now().toString(36)}-${process.pid}`;
  const outdir = join(CACHE, id);
  const result = await esbuild.build({
    // The embedded database's worker thread starts from its own entry in the same folder
    // (`workerEntry` in shared/db/pglite-worker/client.ts), sharing the chunks.
    entryPoints: { main: ENTRY, 'pglite-host': WORKER_HOST },
    define: { 'process.env.DROPQA_CLI_BUNDLE': JSON.stringify(outdir) },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'error',
    plugins: [englishOnlyZod, externalPackages, ownLocation],
    // Relative imports of npm packages resolve from the bundle's folder inside node_modules/.cache.
    outExtension: { '.js': '.mjs' },
  });
  const inputs = {};
  for (let file of [...Object.keys(result.metafile.inputs), relative(ROOT, fileURLToPath(import.meta.url))]) {
    // A bundled-in package counts by its package.json, which an install rewrites with its version.
    const packageJson = file.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (file.startsWith('node_modules/') && !packageJson) continue;
    if (packageJson) file = `node_modules/${packageJson[1]}/package.json`;
    if (inputs[file]) continue;
    const now = stamp(join(ROOT, file));
    if (now) inputs[file] = now;
  }
  const entry = join(outdir, 'main.mjs');
  mkdirSync(CACHE, { recursive: true });
  const next = `${CURRENT}.${id}`;
  writeFileSync(next, JSON.stringify({ root: ROOT, entry, inputs }));
  renameSync(next, CURRENT);
  removeOldBuilds(id);
  return entry;
}

function removeOldBuilds(keep) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (name === keep || name === 'current.json') continue;
    const old = stamp(path);
    if (old && Date.now() - old[0] > KEEP_OLD_MS) rmSync(path, { recursive: true, force: true });
  }
}
