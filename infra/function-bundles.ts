import { cpSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSync, type Metafile } from 'esbuild';
import { REPO_ROOT } from './paths.ts';
import { promptTexts } from './prompt-texts.ts';

/** Every Lambda handler of the deployment: all of them are bundled by one esbuild build. */
export const FUNCTION_ENTRIES = [
  'functions/ask/handler.ts',
  'functions/ingest/events.ts',
  'functions/ingest/register.ts',
  'functions/parse/handler.ts',
  'functions/images/handler.ts',
  'functions/summarize/handler.ts',
  'functions/topics/handler.ts',
  'functions/ingest/activate.ts',
  'functions/ingest/mark-failed.ts',
  'functions/ingest/execution-ended.ts',
  'functions/migrate/handler.ts',
] as const;
export type FunctionEntry = (typeof FUNCTION_ENTRIES)[number];

/** Where the build and the per-function folders go (inside the repository: externals resolve from node_modules). */
export const BUNDLES_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'dropqa-functions');
const BUILD_DIR = join(BUNDLES_DIR, 'build');

/**
 * Modules only a local process loads, each behind an `import()` that never runs in Lambda: the
 * embedded and the TCP database drivers (Lambda uses the Data API) and offline OCR (the deployment
 * configures Textract, or none). Left out of every package.
 */
const LOCAL_ONLY = ['@electric-sql/*', 'pg', 'tesseract.js', '@tesseract.js-data/*'];

/** Native modules (never bundled: their linux-arm64 builds are copied beside the code). */
const NATIVE = ['@node-rs/jieba', 'sharp'];
/** The modules that load them: jieba segments text, sharp resizes images for the chat model. */
const NATIVE_USERS = ['shared/text/segment.ts', 'shared/llm/chat/images.ts'];

/**
 * pdf.js reads its standard fonts, CMaps (CJK text), wasm decoders and colour profiles from its
 * package folder, found by resolving `pdfjs-dist/package.json` (shared/parse/pdf/pdfjs.ts): a
 * function that can open PDFs gets those files as `node_modules/pdfjs-dist` beside its code.
 */
const PDFJS_USER = 'shared/parse/pdf/pdfjs.ts';
const PDFJS_FILES = ['package.json', 'standard_fonts', 'cmaps', 'wasm', 'iccs'];

export interface FunctionBundle {
  /** The folder deployed as the function's code. */
  dir: string;
  /** `ask/handler.handler`: the entry's module (relative to `dir`) and its export. */
  handler: string;
  /** The entry module and its static imports: what the function loads at initialization. */
  initBytes: number;
  /** Everything it can load, lazily imported chunks included (source maps and node_modules excluded). */
  bytes: number;
  /** Whether the function can reach a native module (their linux-arm64 builds are copied beside it). */
  needsNative: boolean;
  /** The source modules (repository paths) evaluated at initialization. */
  initModules: string[];
  /** The source modules it can load at all. */
  modules: string[];
  /** Packages left out of the bundle that its initialization imports (they must be in the folder). */
  initExternals: string[];
}

export interface BundleOptions {
  /** Copy shared/db/migrations beside the entry module (the migration function). */
  withMigrations?: boolean;
  /** A node_modules tree holding the native modules for the target platform, copied if needed. */
  nativeModules?: string;
}

const outName = (entry: string) => entry.replace(/^functions\//, '').replace(/\.ts$/, '');

let built: Metafile | undefined;

/**
 * One esbuild build for every function (instead of one per function): ESM with code splitting, so
 * what a function imports with `import()` (a database driver, a provider's SDK, the parsers) is a
 * chunk loaded on demand, not code evaluated at initialization. Minified, source maps without
 * sources; the AWS SDK is bundled (tree-shaken ESM initializes faster than the runtime's CommonJS
 * copy); the native modules (jieba, sharp) and the local-only ones stay external; the prompt files'
 * texts are compiled in (see prompt-texts.ts).
 */
export function buildAllFunctions(): Metafile {
  if (built) return built;
  rmSync(BUNDLES_DIR, { recursive: true, force: true });
  const result = buildSync({
    absWorkingDir: REPO_ROOT,
    entryPoints: FUNCTION_ENTRIES.map((entry) => ({ in: entry, out: outName(entry) })),
    outdir: BUILD_DIR,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    mainFields: ['module', 'main'],
    // CommonJS dependencies inside an ESM bundle still call require().
    banner: {
      js: "import { createRequire as __cr } from 'node:module';const require = __cr(import.meta.url);",
    },
    external: [...NATIVE, ...LOCAL_ONLY],
    define: { DROPQA_PROMPTS: JSON.stringify(promptTexts()) },
    metafile: true,
    logLevel: 'error',
  });
  built = result.metafile;
  return built;
}

/** The output files an entry can load: its static imports, and with `dynamic` its lazy chunks too. */
function reachable(metafile: Metafile, entry: string, dynamic: boolean): string[] {
  const outputs = metafile.outputs;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !outputs[file]) return;
    seen.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.external) continue;
      if (imported.kind === 'import-statement' || (dynamic && imported.kind === 'dynamic-import'))
        visit(imported.path);
    }
  };
  visit(relative(REPO_ROOT, join(BUILD_DIR, `${outName(entry)}.mjs`)));
  return [...seen];
}

const assembled = new Map<string, FunctionBundle>();

/**
 * The code folder of one function: its entry module and exactly the chunks it can reach (so a
 * function's package holds no other function's code), their source maps, the migrations if asked,
 * and the native modules' linux-arm64 builds if the function can reach them.
 *
 * @example const { dir, handler } = functionBundle('functions/ask/handler.ts');
 */
export function functionBundle(entry: FunctionEntry, options: BundleOptions = {}): FunctionBundle {
  const cacheKey = `${entry}|${options.withMigrations ?? false}|${options.nativeModules ?? ''}`;
  const cached = assembled.get(cacheKey);
  if (cached) return cached;
  const metafile = buildAllFunctions();
  const files = reachable(metafile, entry, true);
  const dir = join(BUNDLES_DIR, 'functions', outName(entry).replace('/', '-'));
  rmSync(dir, { recursive: true, force: true });
  for (const file of files) {
    const target = join(dir, relative(BUILD_DIR, resolve(REPO_ROOT, file)));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(resolve(REPO_ROOT, file), target);
    cpSync(resolve(REPO_ROOT, `${file}.map`), `${target}.map`);
  }
  const initFiles = reachable(metafile, entry, false);
  const modulesOf = (list: string[]) =>
    [...new Set(list.flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {})))].sort();
  const modules = modulesOf(files);
  const needsNative = NATIVE_USERS.some((user) => modules.includes(user));
  if (needsNative && options.nativeModules)
    cpSync(options.nativeModules, join(dir, 'node_modules'), { recursive: true });
  if (modules.includes(PDFJS_USER)) {
    for (const name of PDFJS_FILES) {
      cpSync(
        join(REPO_ROOT, 'node_modules', 'pdfjs-dist', name),
        join(dir, 'node_modules', 'pdfjs-dist', name),
        {
          recursive: true,
        },
      );
    }
  }
  if (options.withMigrations)
    cpSync(join(REPO_ROOT, 'shared/db/migrations'), join(dir, dirname(outName(entry)), 'migrations'), {
      recursive: true,
    });
  const size = (list: string[]) =>
    list.reduce((sum, file) => sum + statSync(resolve(REPO_ROOT, file)).size, 0);
  const bundle: FunctionBundle = {
    dir,
    handler: `${outName(entry)}.handler`,
    initBytes: size(initFiles),
    bytes: size(files),
    needsNative,
    initModules: modulesOf(initFiles),
    initExternals: [
      ...new Set(
        initFiles.flatMap((file) =>
          (metafile.outputs[file]?.imports ?? [])
            .filter((i) => i.external && i.kind === 'import-statement' && !isBuiltin(i.path))
            .map((i) => i.path),
        ),
      ),
    ],
    modules,
  };
  assembled.set(cacheKey, bundle);
  return bundle;
}
