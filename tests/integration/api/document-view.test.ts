import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';

/** What the document view and the upload form read from the API (besides the document itself). */
describe('document view API', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  const get = async <T>(path: string) => {
    const res = await app.request(path);
    return { status: res.status, body: (await res.json()) as T };
  };
  const upload = async (name: string, content: string) => {
    const body = new FormData();
    body.append('files', new Blob([content]), name);
    const res = await app.request('/api/documents/upload', { method: 'POST', body });
    await rt.ingest.idle();
    return ((await res.json()) as { documents: { id: string }[] }).documents[0]?.id ?? '';
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-api-view-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the file types it reads in the status, e-mail, RTF and OpenDocument text included', async () => {
    const { body } = await get<{ readableTypes: { type: string; extensions: string[] }[] }>('/api/status');
    const extensions = body.readableTypes.flatMap((t) => t.extensions);
    for (const ext of ['.md', '.docx', '.eml', '.msg', '.rtf', '.odt']) expect(extensions).toContain(ext);
  });

  it("gives a section's own paragraph text, and nothing of a section of another document", async () => {
    const id = await upload(
      'plan.md',
      '# Plan\n\nIntro.\n\n## Budget\n\nThe budget is 300 euros.\n\nIt covers travel.\n',
    );
    const other = await upload('other.md', '# Other\n\nElsewhere.\n');
    const structure = await get<{
      sections: { id: string; title: string; children: { id: string; title: string }[] }[];
    }>(`/api/documents/${id}/structure`);
    const budget = structure.body.sections[0]?.children.find((s) => s.title === 'Budget');
    const leaves = await get<{ items: { kind: string; content: string }[] }>(
      `/api/documents/${id}/sections/${budget?.id}/leaves`,
    );
    expect(leaves.status).toBe(200);
    expect(leaves.body.items.map((l) => [l.kind, l.content])).toEqual([
      ['paragraph', 'The budget is 300 euros.'],
      ['paragraph', 'It covers travel.'],
    ]);
    expect((await get(`/api/documents/${other}/sections/${budget?.id}/leaves`)).status).toBe(404);
  });

  it("keeps the parser's warnings in words with the version, apart from its counters", async () => {
    const id = await upload('notes.txt', '{\\rtf1\\ansi The meeting is on Friday.\\par}');
    const { body } = await get<{ versions: { stats: Record<string, unknown>; warnings: string[] }[] }>(
      `/api/documents/${id}/versions`,
    );
    const [version] = body.versions;
    expect(version?.warnings).toEqual(['notes.txt is named .txt but is an RTF document; it was read as one']);
    expect(version?.stats.warnings).toBe(1);
    expect(Object.values(version?.stats ?? {}).every((n) => typeof n === 'number')).toBe(true);
  });
});
