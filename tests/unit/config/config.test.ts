import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, maskSecrets, parseConfig } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';

const emptyDir = () => mkdtempSync(join(tmpdir(), 'dropqa-config-'));

describe('loadConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    const config = loadConfig({ env: {}, cwd: emptyDir() });
    expect(config.dataDir).toBe('./.dropqa');
    expect(config.server).toEqual({ host: '127.0.0.1', port: 8787, allowedHosts: [] });
    expect(config.storage.kind).toBe('local');
    expect(config.database.url).toBeUndefined();
    expect(config.providers.chat.kind).toBe('offline');
    expect(config.search.bm25).toMatchObject({ k1: 0.9, b: 0.5 });
  });

  it('reads the named and the generic environment variables', () => {
    const config = loadConfig({
      cwd: emptyDir(),
      env: {
        DROPQA_DATA_DIR: '/data/dq',
        PORT: '9000',
        DATABASE_URL: 'postgres://u:pw@db/dropqa',
        DROPQA_SEARCH__BM25__K1: '1.6',
        DROPQA_LIMITS__MAX_FILE_BYTES: '1000',
        DROPQA_PROVIDERS__ROLES__ANSWER__MAX_TOKENS: '2048',
      },
    });
    expect(config.dataDir).toBe('/data/dq');
    expect(config.server.port).toBe(9000);
    expect(config.database.url).toBe('postgres://u:pw@db/dropqa');
    expect(config.search.bm25.k1).toBe(1.6);
    expect(config.limits.maxFileBytes).toBe(1000);
    expect(config.providers.roles.answer.maxTokens).toBe(2048);
  });

  it('reads a YAML file and lets the environment override it', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'dropqa.config.yaml'), 'server:\n  port: 7000\nsearch:\n  topK: 5\n');
    const config = loadConfig({ cwd, env: { PORT: '7100' } });
    expect(config.server.port).toBe(7100);
    expect(config.search.topK).toBe(5);
  });

  it('reads no file with file: false (the configuration of a deployed function, from its variables)', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'dropqa.config.yaml'), 'search:\n  topK: 5\n');
    const config = loadConfig({ cwd, env: { DROPQA_SEARCH__HYBRID__SEMANTIC_WEIGHT: '0.3' }, file: false });
    expect(config.search.topK).toBe(10);
    expect(config.search.hybrid.semanticWeight).toBe(0.3);
  });

  it('fails with a message naming each bad setting', () => {
    const run = () => loadConfig({ cwd: emptyDir(), env: { PORT: 'eighty', DROPQA_SEARCH__BM25__B: '3' } });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/server\.port/);
    expect(run).toThrow(/search\.bm25\.b/);
  });

  it('requires a bucket for S3 storage', () => {
    expect(() => loadConfig({ cwd: emptyDir(), env: { DROPQA_STORAGE__KIND: 's3' } })).toThrow(
      /storage\.bucket/,
    );
  });

  it('refuses an unknown variable and names the nearest valid one', () => {
    const run = () => loadConfig({ cwd: emptyDir(), env: { DROPQA_SERCH__TOP_K: '3' } });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(
      /DROPQA_SERCH__TOP_K: unknown setting serch\.topK; did you mean DROPQA_SEARCH__TOP_K\?/,
    );
  });

  it('refuses an unknown key deep in the tree from the environment', () => {
    const run = () => loadConfig({ cwd: emptyDir(), env: { DROPQA_SEARCH__BM25__K: '1' } });
    expect(run).toThrow(
      /DROPQA_SEARCH__BM25__K: unknown setting search\.bm25\.k; did you mean DROPQA_SEARCH__BM25__K1\?/,
    );
  });

  it('refuses an unknown DROPQA_ variable that is not a setting', () => {
    const run = () => loadConfig({ cwd: emptyDir(), env: { DROPQA_DATADIR: '/tmp/x' } });
    expect(run).toThrow(/DROPQA_DATADIR: not a DropQA variable; did you mean DROPQA_DATA_DIR\?/);
  });

  it('accepts the variables the tools read beside the settings (DROPQA_EVAL_DIR of npm run eval)', () => {
    const env = {
      DROPQA_EVAL_DIR: '/tmp/sets',
      DROPQA_CORPUS_DIR: '/tmp/corpus',
      DROPQA_SCREENSHOTS: 'docs/x',
    };
    expect(loadConfig({ cwd: emptyDir(), env }).search.topK).toBeGreaterThan(0);
  });

  it('refuses an unknown key in the config file and names the nearest valid one', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'dropqa.config.yaml'), 'search:\n  topk: 5\nlimts:\n  maxRows: 1\n');
    const run = () => loadConfig({ cwd, env: {} });
    expect(run).toThrow(/search\.topk: unknown setting; did you mean search\.topK\?/);
    expect(run).toThrow(/limts: unknown setting; did you mean limits\?/);
  });

  it('lists the valid keys when no key is near the unknown one', () => {
    const run = () => parseConfig({ server: { zzzzzzzz: 1 } });
    expect(run).toThrow(/server\.zzzzzzzz: unknown setting; valid here: host, port/);
  });

  it('accepts every setting the schema names through its generic variable', () => {
    const config = loadConfig({
      cwd: emptyDir(),
      env: {
        DROPQA_QA__TWO_STAGE__MAX_SUB_QUERIES: '2',
        DROPQA_PROVIDERS__ROLES__DESCRIBE_IMAGE__MAX_TOKENS: '99',
      },
    });
    expect(config.qa.twoStage.maxSubQueries).toBe(2);
    expect(config.providers.roles.describeImage.maxTokens).toBe(99);
  });

  it('reads a map setting from its JSON text (the CDK app passes collection prefixes so)', () => {
    const config = loadConfig({ cwd: emptyDir(), env: { DROPQA_COLLECTIONS__PREFIXES: '{"hr/":"hr"}' } });
    expect(config.collections.prefixes).toEqual({ 'hr/': 'hr' });
    const bad = () => loadConfig({ cwd: emptyDir(), env: { DROPQA_COLLECTIONS__PREFIXES: 'hr/=hr' } });
    expect(bad).toThrow(/collections\.prefixes: not JSON/);
  });

  it('names a config file that does not exist', () => {
    expect(() => loadConfig({ cwd: emptyDir(), env: { DROPQA_CONFIG: 'missing.yaml' } })).toThrow(
      /missing\.yaml/,
    );
  });
});

describe('maskSecrets', () => {
  it('hides keys, secrets and URL passwords and keeps the rest', () => {
    const config = loadConfig({
      cwd: emptyDir(),
      env: {
        DATABASE_URL: 'postgres://user:hunter2@db:5432/dropqa',
        DROPQA_PROVIDERS__CHAT__API_KEY: 'sk-secret',
        DROPQA_STORAGE__SECRET_ACCESS_KEY: 'aws-secret',
      },
    });
    const printed = JSON.stringify(maskSecrets(config));
    expect(printed).not.toMatch(/hunter2|sk-secret|aws-secret/);
    expect(printed).toContain('postgres://user:****@db:5432/dropqa');
    expect(maskSecrets(config).providers.chat.apiKey).toBe('****');
    expect(maskSecrets(config).server.port).toBe(8787);
  });
});
