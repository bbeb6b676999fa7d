import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../errors.ts';
import { type Config, configSchema } from './schema.ts';
import { keysAt, nearest, settingPaths } from './unknown-keys.ts';

type Env = Record<string, string | undefined>;
type Tree = { [key: string]: unknown };

/** Well-known environment variables and the setting each one sets. */
const NAMED_ENV: Record<string, string> = {
  DROPQA_DATA_DIR: 'dataDir',
  PORT: 'server.port',
  HOST: 'server.host',
  DATABASE_URL: 'database.url',
  DROPQA_BUCKET: 'storage.bucket',
};

/** Prefix of the generic form: `DROPQA_SEARCH__BM25__K1=1.5` sets `search.bm25.k1`. */
const GENERIC_PREFIX = 'DROPQA_';

/** `DROPQA_` variables that are not settings: read by the loader itself or by the tests and benches. */
const OTHER_VARIABLES = ['DROPQA_CONFIG', 'DROPQA_CORPUS_DIR', 'DROPQA_EVAL_DIR', 'DROPQA_SCREENSHOTS'];

/**
 * Reads the configuration once: defaults, then the optional file (`DROPQA_CONFIG`, or
 * `dropqa.config.yaml` / `dropqa.config.json` in the working directory; none with `file: false`),
 * then environment variables. Throws a `ConfigError` naming every bad setting.
 *
 * @example loadConfig({ env: { PORT: '9000' } }).server.port // 9000
 */
export function loadConfig(
  options: { env?: Env; cwd?: string; overrides?: Tree; file?: boolean } = {},
): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const tree: Tree = {};
  const origins = new Map<string, string>();
  const file = options.file === false ? undefined : configFilePath(env, cwd);
  if (file) merge(tree, readConfigFile(file));
  for (const [name, path] of Object.entries(NAMED_ENV)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(tree, path, value);
    origins.set(path, name);
  }
  const strays: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(GENERIC_PREFIX) || value === undefined) continue;
    if (!name.includes('__')) {
      if (!(name in NAMED_ENV) && !OTHER_VARIABLES.includes(name)) strays.push(name);
      continue;
    }
    const path = name
      .slice(GENERIC_PREFIX.length)
      .split('__')
      .map((part) => camel(part.toLowerCase()))
      .join('.');
    setPath(tree, path, value);
    origins.set(path, name);
  }
  if (options.overrides) merge(tree, options.overrides);
  return parseConfig(tree, file, { origins, strays });
}

/**
 * Validates a configuration object; the error lists each bad setting by its dotted path, and each
 * unknown key (or `DROPQA_` variable) with the nearest valid one.
 */
export function parseConfig(
  input: unknown,
  source?: string,
  from: { origins?: ReadonlyMap<string, string>; strays?: readonly string[] } = {},
): Config {
  const result = configSchema.safeParse(input);
  const problems = (from.strays ?? []).map(strayProblem);
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) problems.push(unknownKeyProblem(issue.path, key, from.origins));
      } else problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
  }
  if (result.success && problems.length === 0) return result.data;
  const where = source ? ` (file ${source} and environment)` : '';
  throw new ConfigError(`Invalid configuration${where}:\n  ${problems.join('\n  ')}`);
}

function unknownKeyProblem(
  parent: readonly PropertyKey[],
  key: string,
  origins: ReadonlyMap<string, string> = new Map(),
): string {
  const path = [...parent.map(String), key].join('.');
  const suggestion = nearest(key, keysAt(configSchema, parent));
  const variable = [...origins].find(([set]) => set === path || set.startsWith(`${path}.`));
  if (variable) {
    const [setPathName, name] = variable;
    const fixed = suggestion && setPathName.replace(path, [...parent.map(String), suggestion].join('.'));
    const hint = fixed ? `; did you mean ${envName(fixed)}?` : '';
    return `${name}: unknown setting ${setPathName}${hint}`;
  }
  const hint = suggestion
    ? `; did you mean ${[...parent.map(String), suggestion].join('.')}?`
    : `; valid here: ${keysAt(configSchema, parent).join(', ')}`;
  return `${path}: unknown setting${hint}`;
}

function strayProblem(name: string): string {
  const candidates = [
    ...Object.keys(NAMED_ENV).filter((known) => known.startsWith(GENERIC_PREFIX)),
    ...OTHER_VARIABLES,
    ...settingPaths(configSchema).map(envName),
  ];
  const suggestion = nearest(name, candidates);
  const hint = suggestion ? `did you mean ${suggestion}?` : 'settings are named DROPQA_<SECTION>__<KEY>';
  return `${name}: not a DropQA variable; ${hint}`;
}

/** The generic variable for a setting: `search.bm25.k1` -> `DROPQA_SEARCH__BM25__K1`. */
export function envName(path: string): string {
  const parts = path.split('.').map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase());
  return `${GENERIC_PREFIX}${parts.join('__')}`;
}

function configFilePath(env: Env, cwd: string): string | undefined {
  if (env.DROPQA_CONFIG) {
    const path = resolve(cwd, env.DROPQA_CONFIG);
    if (!existsSync(path)) throw new ConfigError(`DROPQA_CONFIG names ${path}, which does not exist`);
    return path;
  }
  for (const name of ['dropqa.config.yaml', 'dropqa.config.yml', 'dropqa.config.json']) {
    const path = resolve(cwd, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}

function readConfigFile(path: string): Tree {
  try {
    const parsed: unknown = parseYaml(readFileSync(path, 'utf8'));
    if (parsed === null || parsed === undefined) return {};
    if (typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('the top level must be a mapping');
    return parsed as Tree;
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function camel(s: string): string {
  return s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function setPath(tree: Tree, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next !== 'object' || next === null) node[part] = {};
    node = node[part] as Tree;
  }
  node[parts[parts.length - 1] as string] = value;
}

function merge(target: Tree, source: Tree): void {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    if (isTree(value) && isTree(existing)) merge(existing, value);
    else target[key] = value;
  }
}

function isTree(v: unknown): v is Tree {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
