import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../errors.ts';
import { type Config, configSchema } from './schema.ts';

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

/**
 * Reads the configuration once: defaults, then the optional file (`DROPQA_CONFIG`, or
 * `dropqa.config.yaml` / `dropqa.config.json` in the working directory), then environment variables.
 * Throws a `ConfigError` naming every bad setting.
 *
 * @example loadConfig({ env: { PORT: '9000' } }).server.port // 9000
 */
export function loadConfig(options: { env?: Env; cwd?: string; overrides?: Tree } = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const tree: Tree = {};
  const file = configFilePath(env, cwd);
  if (file) merge(tree, readConfigFile(file));
  for (const [name, path] of Object.entries(NAMED_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') setPath(tree, path, value);
  }
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(GENERIC_PREFIX) || !name.includes('__') || value === undefined) continue;
    const path = name
      .slice(GENERIC_PREFIX.length)
      .split('__')
      .map((part) => camel(part.toLowerCase()))
      .join('.');
    setPath(tree, path, value);
  }
  if (options.overrides) merge(tree, options.overrides);
  return parseConfig(tree, file);
}

/** Validates a configuration object; the error lists each bad setting by its dotted path. */
export function parseConfig(input: unknown, source?: string): Config {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.') || '(root)';
    return `${path}: ${issue.message}`;
  });
  const from = source ? ` (file ${source} and environment)` : '';
  throw new ConfigError(`Invalid configuration${from}:\n  ${problems.join('\n  ')}`);
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
