import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { openApiDocument } from '#shared/api/openapi.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

/**
 * Every string input of every route, with a NUL character in it, answers 400 naming the field (Postgres
 * cannot store U+0000 in text: before, several routes answered 500). The routes are the app's own
 * (each must be described in the OpenAPI document, which is generated from the routes' schemas), and
 * the inputs those schemas declare: path and query parameters, and every string leaf of a JSON body.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};
type Parameter = { name: string; in: 'path' | 'query' };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};

const NUL = 'a\u0000b';
const UUID = '00000000-0000-4000-8000-000000000000';

/** The paths (property names, `0` for an array item) of every string a JSON schema lets through. */
function stringLeaves(schema: Schema, path: (string | number)[] = []): (string | number)[][] {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const out: (string | number)[][] = types.includes('string') ? [path] : [];
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    out.push(...stringLeaves(property, [...path, name]));
  if (schema.items) out.push(...stringLeaves(schema.items, [...path, 0]));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    out.push(...stringLeaves(branch, path));
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(p.join('.')) && seen.add(p.join('.')));
}

/** A value with `leaf` set at `path` (arrays for numeric steps). */
function placed(path: (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [step, ...rest] = path;
  return typeof step === 'number' ? [placed(rest, leaf)] : { [step as string]: placed(rest, leaf) };
}

interface Case {
  route: string;
  field: string;
  request: { url: string; init: RequestInit };
}

/** One request per string input of every operation, that input holding a NUL, the rest valid. */
function cases(): Case[] {
  const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
  const out: Case[] = [];
  for (const [template, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = `${method.toUpperCase()} ${template}`;
      const params = operation.parameters ?? [];
      const pathWith = (nulIn?: string) =>
        template.replace(/\{(\w+)\}/g, (_all, name: string) =>
          encodeURIComponent(name === nulIn ? NUL : name === 'id' ? UUID : 'img_001.png'),
        );
      const init = (body?: unknown): RequestInit => ({
        method: method.toUpperCase(),
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      for (const p of params) {
        const url = p.in === 'path' ? pathWith(p.name) : `${pathWith()}?${p.name}=${encodeURIComponent(NUL)}`;
        out.push({
          route,
          field: `${p.in === 'path' ? 'path' : 'query'}.${p.name}`,
          request: { url, init: init() },
        });
      }
      const json = operation.requestBody?.content['application/json']?.schema;
      for (const leaf of json ? stringLeaves(json) : []) {
        out.push({
          route,
          field: ['body', ...leaf].join('.'),
          request: { url: pathWith(), init: init(placed(leaf, NUL)) },
        });
      }
    }
  }
  return out;
}

describe('NUL characters in requests', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-nul-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const expect400 = async (res: Response, field: string) => {
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect({ status: res.status, ...body.error }).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: expect.stringContaining(`${field}: must not contain a NUL character`),
    });
  };

  it('describes every API route of the app in the OpenAPI document (so that all are covered below)', () => {
    const described = new Set(
      Object.entries(openApiDocument().paths as Record<string, object>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const routes = app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/') && r.path !== '/api/openapi.json')
      .map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((r) => !described.has(r))).toEqual([]);
  });

  it('answers 400 naming the field for a NUL in any string input of any route', async () => {
    const all = cases();
    // The inputs the issue found answering 500, among many others.
    expect(all.map((c) => `${c.route} ${c.field}`)).toEqual(
      expect.arrayContaining([
        'GET /api/documents query.q',
        'GET /api/documents query.name',
        'GET /api/topics query.q',
        'POST /api/qa/ask body.question',
        'POST /api/qa/ask body.history.0.question',
        'GET /api/v1/documents/{id}/images/{filename} path.filename',
      ]),
    );
    const wrong: string[] = [];
    for (const c of all) {
      const res = await app.request(c.request.url, c.request.init);
      const text = await res.text();
      if (res.status !== 400 || !text.includes(`${c.field}: must not contain a NUL character`))
        wrong.push(`${c.route} ${c.field}: ${res.status} ${text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 400 for the requests the probe found answering 500', async () => {
    await expect400(await app.request('/api/documents?q=%00'), 'query.q');
    await expect400(await app.request('/api/documents?name=a%00'), 'query.name');
    await expect400(await app.request('/api/topics?q=x%00y'), 'query.q');
    await expect400(await app.request('/api/search?q=budget%00'), 'query.q');
    const ask = await app.request('/api/qa/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is the budget\u0000?' }),
    });
    await expect400(ask, 'body.question');
  });
});
