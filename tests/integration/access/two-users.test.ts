import { generateKeyPairSync, type JsonWebKey, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableCollections } from '#shared/access/scope.ts';
import { listDocumentImages } from '#shared/api/routes/document-images.ts';
import { loadConfig } from '#shared/config/index.ts';
import { queryRows } from '#shared/db/client.ts';
import { diffVersions } from '#shared/diff/index.ts';
import { NotFoundError } from '#shared/errors.ts';
import { HIDDEN_ANSWER } from '#shared/qa/conversation/readable-turns.ts';
import { readDocumentImage } from '#shared/qa/documents/images.ts';
import { topicsOf } from '#shared/qa/history.ts';
import { QA_MODES } from '#shared/qa/request.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { lambdaApp } from '../../../functions/ask/app.ts';
import { cognitoVerifier } from '../../../functions/ask/cognito-token.ts';
import { TOKEN_HEADER } from '../../../functions/ask/require-user.ts';
import { textPng } from '../../helpers/text-png.ts';

/**
 * Two users of the Lambda app, signed in with Cognito-shaped RS256 tokens checked against a local
 * JWKS: A in group hr, B in group engineering. Every route of the OpenAPI document is probed as A
 * with B's ids and with unknown ids: A never receives a byte of B's documents, and the answers for
 * B's ids are those for ids that do not exist.
 */

const POOL = 'eu-west-1_TwoTeams1';
const CLIENT = 'web-client';
const ISSUER = `https://cognito-idp.eu-west-1.amazonaws.com/${POOL}`;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const JWKS = {
  keys: [{ ...(publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'k1', alg: 'RS256', use: 'sig' }],
};
const GRANTS = {
  hr: { read: ['hr'], write: ['hr'] },
  engineering: { read: ['engineering'], write: ['engineering'] },
};

function tokenFor(sub: string, groups: string[]): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = {
    sub,
    'cognito:groups': groups,
    iss: ISSUER,
    aud: CLIENT,
    token_use: 'id',
    exp: Math.floor(Date.now() / 1000) + 3600,
  };
  const unsigned = `${part({ alg: 'RS256', kid: 'k1' })}.${part(claims)}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

const A = tokenFor('user-a', ['hr']);
const B = tokenFor('user-b', ['engineering']);
const encode = (text: string) => new TextEncoder().encode(text);

/** What B's documents hold that A's do not: none of it may reach A. */
const B_TEXT = 'quokkaengmark';
const B_TOPIC = 'Quokka propulsion';
const B_IMAGE = 'img_b_001.png';
const QUESTION = 'What is the heron budget note for engineers about?';

/** The ids a probe targets: B's (must answer as unknown ones do) or fresh unknown ones. */
interface Target {
  document: string;
  section: string;
  topic: string;
  conversation: string;
  history: string;
  filename: string;
}
type Probe = (t: Target) => { path: string; init?: RequestInit };

const jsonBody = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A topic of A's document: what a merge of B's topic would fold it into. */
const aTopic = randomUUID();
/** A topic of both A's and B's documents. */
const sharedTopic = randomUUID();

/** Request bodies of the routes that take one; a route of the document without one fails the test. */
const BODIES: Record<string, (t: Target) => RequestInit> = {
  'post /api/documents/upload-url': () => jsonBody({ filename: 'x.md', size: 10, collection: 'engineering' }),
  'post /api/documents/upload': () => {
    const form = new FormData();
    form.append('files', new Blob(['# X\n\nA note.\n']), 'x.md');
    return { method: 'POST', body: form };
  },
  'post /api/documents/{id}/reindex': () => ({ method: 'POST' }),
  'post /api/watch': () => jsonBody({ directory: tmpdir() }),
  'post /api/topics/merge': (t) => jsonBody({ sourceIds: [t.topic], targetId: aTopic }),
  'post /api/qa/ask': (t) => jsonBody({ question: QUESTION, document_ids: [t.document], mode: 'standard' }),
  'post /api/qa/summarize': (t) => jsonBody({ document_id: t.document }),
};

/** Query values for the parameters a route declares (the rest keep their defaults). */
const QUERY: Record<string, string> = { q: 'heron budget engineers' };

/** Destructive routes run last, so that a leak through them cannot hide one elsewhere. */
const LAST = ['delete', 'post /api/documents/{id}/reindex', 'post /api/topics/merge'];

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

describe('two teams on the Lambda app: A (hr) never sees B (engineering)', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof lambdaApp>;
  let mine: Target;
  let aDocument: string;

  const request = (token: string, path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { ...(init.headers as object), [TOKEN_HEADER]: token } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-two-users-'));
    const config = loadConfig({
      env: {},
      overrides: { dataDir: dir, collections: { prefixes: { 'hr/': 'hr', 'eng/': 'engineering' } } },
    });
    rt = await openRuntime(config);
    app = lambdaApp(
      rt,
      cognitoVerifier({ userPoolId: POOL, clientId: CLIENT, fetchKeys: async () => JWKS }),
      GRANTS,
    );
    const outcomes = await rt.ingest.ingest([
      {
        key: 'hr/pay.md',
        filename: 'pay.md',
        bytes: encode('# Payroll\n\nThe heron salary budget is confidential.\n'),
      },
      {
        key: 'eng/design.md',
        filename: 'design.md',
        bytes: encode(
          `# Design\n\nThe heron budget note is for engineers only; code word ${B_TEXT}.\n\n## Kernel\n\nThe ${B_TEXT} kernel of the heron budget runs hot.\n`,
        ),
      },
    ]);
    const idOf = (key: string) =>
      outcomes.find((o) => o.key === key && o.status === 'ready')?.documentId ?? '';
    aDocument = idOf('hr/pay.md');
    const document = idOf('eng/design.md');
    expect(aDocument && document).toBeTruthy();
    const { db } = rt;
    const [section] = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM nodes WHERE document_id = ${document}::uuid AND node_type = 'section' LIMIT 1`,
    );
    // An image of B's document, in the database and the bucket as the pipeline stores one.
    const imageKey = `documents/${document}/v1/${B_IMAGE}`;
    await rt.store.put(imageKey, textPng('SECRET'));
    const node = randomUUID();
    await db.execute(sql`INSERT INTO nodes (id, document_id, version, node_type, depth, position, ordinal, content)
      VALUES (${node}::uuid, ${document}::uuid, 1, 'image', 1, 9, 99, ${`${B_TEXT} diagram`})`);
    await db.execute(sql`INSERT INTO images (node_id, object_key, filename, mime, ocr_text)
      VALUES (${node}::uuid, ${imageKey}, ${B_IMAGE}, 'image/png', ${B_TEXT})`);
    const topic = randomUUID();
    await db.execute(sql`INSERT INTO topics (id, name) VALUES (${topic}::uuid, ${B_TOPIC})`);
    await db.execute(sql`INSERT INTO topics (id, name) VALUES (${aTopic}::uuid, 'Payroll rules')`);
    // A topic both teams' documents are linked to: its summary for A must draw on A's only.
    await db.execute(sql`INSERT INTO topics (id, name) VALUES (${sharedTopic}::uuid, 'Heron budget')`);
    for (const id of [aDocument, document]) {
      await db.execute(sql`INSERT INTO document_topics (document_id, topic_id, confidence)
        VALUES (${id}::uuid, ${sharedTopic}::uuid, 0.8)`);
    }
    await db.execute(sql`INSERT INTO document_topics (document_id, topic_id, confidence)
      VALUES (${aDocument}::uuid, ${aTopic}::uuid, 0.9)`);
    await db.execute(sql`INSERT INTO document_topics (document_id, topic_id, confidence)
      VALUES (${document}::uuid, ${topic}::uuid, 0.9)`);
    // B asks once: a conversation and a history entry of B's.
    const asked = await (
      await request(B, '/api/qa/ask', jsonBody({ question: QUESTION, mode: 'standard' }))
    ).text();
    const conversation = /"conversation_id":"([0-9a-f-]{36})"/.exec(asked)?.[1] ?? '';
    const [history] = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM qa_history WHERE conversation_id = ${conversation}::uuid LIMIT 1`,
    );
    mine = {
      document,
      section: section?.id ?? '',
      topic,
      conversation,
      history: history?.id ?? '',
      filename: B_IMAGE,
    };
  }, 120_000);

  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const unknown = (): Target => ({
    document: randomUUID(),
    section: randomUUID(),
    topic: randomUUID(),
    conversation: randomUUID(),
    history: randomUUID(),
    filename: 'img_x_001.png',
  });

  /** B's secrets in any form: text, names, and the ids A did not send itself. */
  const secrets = (sent = '') =>
    [B_TEXT, B_TOPIC, 'design.md', ...Object.values(mine)].filter((secret) => !sent.includes(secret));

  /** A response with ids, times and durations made comparable between two runs. */
  const normalized = (text: string, t: Target) => {
    let out = text;
    for (const [name, id] of Object.entries(t)) out = out.replaceAll(id, `<${name}>`);
    return out
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      .replace(/"(\w*(?:_ms|Ms|ms))":\s*[\d.]+/g, '"$1":0');
  };

  function probes(document: OpenApi): [string, Probe][] {
    const found: [string, Probe][] = [];
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method} ${route}`;
        const query = (operation.parameters ?? [])
          .filter((p) => p.in === 'query' && p.name in QUERY)
          .map((p) => `${p.name}=${encodeURIComponent(QUERY[p.name] ?? '')}`)
          .join('&');
        found.push([
          name,
          (t) => ({
            path:
              route
                .replace(
                  `/api/documents/{id}/sections/{section}`,
                  `/api/documents/${t.document}/sections/${t.section}`,
                )
                .replace('/api/topics/{id}', `/api/topics/${t.topic}`)
                .replace('/api/qa/conversations/{id}', `/api/qa/conversations/${t.conversation}`)
                .replace('/api/qa/history/{id}', `/api/qa/history/${t.history}`)
                .replace('{id}', t.document)
                .replace('{filename}', t.filename) + (query ? `?${query}` : ''),
            init: method === 'get' ? undefined : (BODIES[name]?.(t) ?? { method: method.toUpperCase() }),
          }),
        ]);
      }
    }
    const last = (name: string) => LAST.some((l) => name.startsWith(l) || name === l);
    return [...found.filter(([n]) => !last(n)), ...found.filter(([n]) => last(n))];
  }

  it('gives every route a probe, and every route answers A for B’s ids as for unknown ones, without B’s data', async () => {
    const document = (await (await request(A, '/api/openapi.json')).json()) as OpenApi;
    const all = probes(document);
    expect(all.length).toBeGreaterThan(20);
    const missing = all
      .map(([name]) => name)
      .filter((name) => !name.startsWith('get ') && !name.startsWith('delete ') && !(name in BODIES));
    expect(missing, 'routes with a body need one in BODIES').toEqual([]);
    for (const [name, probe] of all) {
      const other = unknown();
      const asB = probe(mine);
      const asUnknown = probe(other);
      const leaked = await request(A, asB.path, asB.init);
      const text = await leaked.text();
      const sent = `${asB.path} ${typeof asB.init?.body === 'string' ? asB.init.body : ''}`;
      for (const secret of secrets(sent))
        expect(text, `${name} answers A with ${secret}`).not.toContain(secret);
      const control = await request(A, asUnknown.path, asUnknown.init);
      expect(leaked.status, `${name}: status for B's ids vs unknown ids`).toBe(control.status);
      expect(normalized(text, mine), `${name}: body for B's ids vs unknown ids`).toBe(
        normalized(await control.text(), other),
      );
    }
    // B's document is still there, and B reads it, its image and its topic.
    expect((await request(B, `/api/documents/${mine.document}`)).status).toBe(200);
    expect((await request(B, `/api/v1/documents/${mine.document}/images/${B_IMAGE}`)).status).toBe(200);
    expect(await (await request(B, `/api/topics/${mine.topic}`)).text()).toContain(B_TOPIC);
  }, 120_000);

  it('finds B’s document for B with the very searches and lists that A probes (the probes can fail)', async () => {
    for (const path of [`/api/search?q=${QUERY.q}`, '/api/documents', '/api/topics', '/api/status']) {
      const own = await (await request(B, path)).text();
      expect(own, path).toMatch(new RegExp(`${B_TEXT}|design\\.md|${B_TOPIC}|engineering`));
      expect(await (await request(A, path)).text(), path).not.toMatch(
        new RegExp(`${B_TEXT}|design\\.md|${B_TOPIC}`),
      );
    }
    expect(await (await request(A, `/api/search?q=heron`)).text()).toContain('pay.md');
  });

  it.each(QA_MODES)(
    'answers A in mode %s over SSE from A’s documents only',
    async (mode) => {
      const res = await request(A, '/api/qa/ask', jsonBody({ question: QUESTION, mode }));
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const text = await res.text();
      expect(text).toMatch(/event: done|"type":"done"/);
      for (const secret of secrets()) expect(text, secret).not.toContain(secret);
      const own = await (await request(B, '/api/qa/ask', jsonBody({ question: QUESTION, mode }))).text();
      expect(own).toContain(B_TEXT);
    },
    60_000,
  );

  it('refuses A a presigned URL or an upload into B’s collection, and B’s deletion by A', async () => {
    const presign = await request(
      A,
      '/api/documents/upload-url',
      BODIES['post /api/documents/upload-url']?.(mine),
    );
    expect(presign.status).toBe(403);
    expect(await presign.json()).toMatchObject({ error: { code: 'forbidden' } });
    const form = new FormData();
    form.append('files', new Blob(['# Planted\n\nPlanted by A.\n']), 'planted.md');
    expect(
      (await request(A, '/api/documents/upload?collection=engineering', { method: 'POST', body: form }))
        .status,
    ).toBe(400);
    const deleted = await request(A, `/api/documents/${mine.document}`, { method: 'DELETE' });
    expect([403, 404]).toContain(deleted.status);
    expect((await request(B, `/api/documents/${mine.document}`)).status).toBe(200);
    const listed = await (await request(B, '/api/documents')).text();
    expect(listed).not.toContain('planted.md');
    // A's own document stays A's to change.
    expect((await request(B, `/api/documents/${aDocument}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('summarizes a topic of both teams for A from A’s documents only', async () => {
    const text = await (await request(A, '/api/qa/summarize', jsonBody({ topic_id: sharedTopic }))).text();
    expect(text).toContain('pay.md');
    for (const secret of secrets()) expect(text, secret).not.toContain(secret);
    expect(
      await (await request(B, '/api/qa/summarize', jsonBody({ topic_id: sharedTopic }))).text(),
    ).toContain('design.md');
  });

  it('keeps the turns of a user who lost a collection, hiding the answers that quoted it', async () => {
    // The same person (one Cognito subject), first in both groups, then in hr only.
    const both = tokenFor('user-d', ['hr', 'engineering']);
    const hrOnly = tokenFor('user-d', ['hr']);
    const asked = await (
      await request(both, '/api/qa/ask', jsonBody({ question: QUESTION, mode: 'standard' }))
    ).text();
    expect(asked).toContain(B_TEXT);
    const conversation = /"conversation_id":"([0-9a-f-]{36})"/.exec(asked)?.[1] ?? '';
    const turns = await (await request(hrOnly, `/api/qa/conversations/${conversation}`)).text();
    expect(turns).toContain(QUESTION);
    expect(turns).toContain(HIDDEN_ANSWER);
    const history = await (await request(hrOnly, '/api/qa/history')).text();
    expect(history).toContain(HIDDEN_ANSWER);
    const followUp = await request(
      hrOnly,
      '/api/qa/ask',
      jsonBody({ question: 'And what else?', conversation_id: conversation }),
    );
    for (const text of [turns, history, await followUp.text()]) {
      for (const secret of [B_TEXT, 'design.md', mine.document]) expect(text).not.toContain(secret);
    }
    // Given the collection back, the answer shows again.
    expect(await (await request(both, `/api/qa/conversations/${conversation}`)).text()).toContain(B_TEXT);
  });

  it('reads versions diffs and images only within the scope given to the readers themselves', async () => {
    const hr = readableCollections(['hr']);
    await expect(diffVersions(rt.db, hr, mine.document)).rejects.toThrow(NotFoundError);
    await expect(listDocumentImages(rt.db, hr, mine.document)).rejects.toThrow(NotFoundError);
    await expect(
      readDocumentImage({ db: rt.db, store: rt.store }, hr, mine.document, B_IMAGE),
    ).rejects.toThrow(NotFoundError);
    const own = readableCollections(['engineering']);
    expect((await listDocumentImages(rt.db, own, mine.document)).items.map((i) => i.filename)).toEqual([
      B_IMAGE,
    ]);
    expect((await readDocumentImage({ db: rt.db, store: rt.store }, own, mine.document, B_IMAGE)).mime).toBe(
      'image/png',
    );
    expect(await topicsOf(rt.db, hr, [mine.document, aDocument])).not.toContain(B_TOPIC);
    expect(await topicsOf(rt.db, own, [mine.document])).toContain(B_TOPIC);
  });

  it('shows a user in no granting group nothing, and refuses an unsigned request', async () => {
    const nobody = tokenFor('user-c', ['visitors']);
    expect(await (await request(nobody, '/api/documents')).json()).toMatchObject({ items: [], total: 0 });
    expect(await (await request(nobody, `/api/search?q=heron`)).text()).not.toMatch(/pay\.md|design\.md/);
    expect((await app.request('/api/documents')).status).toBe(401);
  });
});
