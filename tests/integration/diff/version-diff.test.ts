import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, HeadingLevel, Paragraph, Table, TableCell, TableRow } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_COLLECTIONS } from '#shared/access/scope.ts';
import { createApp } from '#shared/api/app.ts';
import { parseConfig } from '#shared/config/index.ts';
import { type DocumentDiff, diffVersions, writeChangeSummary } from '#shared/diff/index.ts';
import { listVersions } from '#shared/documents/index.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { promptText, scriptedChat } from '../../helpers/scripted-chat.ts';
import { docxBytes } from '../../unit/parse/docx-fixtures.ts';

/** Diffs of versions ingested by the product's own pipeline (offline providers), from .md and .docx. */

const utf8 = (text: string) => new TextEncoder().encode(text);

const GUIDE_V1 = `# Returns guide

## Refund window

Refunds are accepted within 14 days of delivery.

Items must be unused.

## Exchanges

Exchanges are free of charge.
`;

const GUIDE_V2 = `# Returns guide

## Refund window

Refunds are accepted within 30 days of delivery.

Items must be unused.

Sale items are final.

## Store credit

Store credit never expires.
`;

async function handbook(contact: string, travel: string): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  return docxBytes(
    new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Supplier handbook', heading: HeadingLevel.TITLE }),
            new Paragraph({ text: 'Contacts', heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Every supplier has one named contact person.'),
            new Table({
              rows: [
                new TableRow({ children: [cell('Supplier'), cell('Contact person')] }),
                new TableRow({ children: [cell('Nordic Steel'), cell(contact)] }),
              ],
            }),
            new Paragraph({ text: travel, heading: HeadingLevel.HEADING_1 }),
            new Paragraph('Trains are preferred over flights for trips under five hours.'),
          ],
        },
      ],
    }),
  );
}

describe('version diffs', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  const ingest = async (key: string, bytes: Uint8Array) => {
    const [outcome] = await rt.ingest.ingest([{ key, bytes }]);
    expect(outcome?.status).toBe('ready');
    return outcome?.documentId ?? '';
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-diff-'));
    rt = await openRuntime(parseConfig({ dataDir: dir, providers: { ocr: { kind: 'none' } } }));
    app = createApp(rt);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('diffs two Markdown versions section by section (previous vs current by default)', async () => {
    const id = await ingest('uploads/guide.md', utf8(GUIDE_V1));
    await ingest('uploads/guide.md', utf8(GUIDE_V2));
    const diff = await diffVersions(rt.db, ALL_COLLECTIONS, id);
    expect([diff.from.version, diff.to.version]).toEqual([1, 2]);
    expect(diff.sections.map((s) => [s.status, s.path.join(' > ')])).toEqual([
      ['modified', 'Returns guide > Refund window'],
      ['removed', 'Returns guide > Exchanges'],
      ['added', 'Returns guide > Store credit'],
    ]);
    const window = diff.sections[0]?.leaves ?? [];
    expect(window.map((l) => [l.change, l.from?.text, l.to?.text])).toEqual([
      [
        'changed',
        'Refunds are accepted within 14 days of delivery.',
        'Refunds are accepted within 30 days of delivery.',
      ],
      ['added', undefined, 'Sale items are final.'],
    ]);
    expect(window[0]?.words?.filter((w) => w.op !== 'equal')).toEqual([
      { op: 'delete', text: '14' },
      { op: 'insert', text: '30' },
    ]);
    expect(diff.summary.paragraphs).toEqual({ added: 2, removed: 1, changed: 1 });

    // Offline, each version after the first gets an extractive "changes since" at ingest.
    const versions = await listVersions(rt.db, ALL_COLLECTIONS, id);
    expect(versions.map((v) => [v.version, v.changeSummary])).toEqual([
      [
        2,
        '1 paragraph changed, 2 paragraphs added, 1 paragraph removed, 1 section added, 1 section removed. ' +
          'Refund window: "14" → "30". Refund window: added "Sale items are final.". Removed section "Exchanges". ' +
          'Added section "Store credit": "Store credit never expires.".',
      ],
      [1, null],
    ]);
  });

  it('has the chat model write the change summary from the changed passages, when there is one', async () => {
    const id = await ingest('uploads/policy.md', utf8(GUIDE_V1));
    await ingest('uploads/policy.md', utf8(GUIDE_V2));
    const chat = scriptedChat(() => 'The refund window grew from 14 to 30 days.');
    const written = await writeChangeSummary(rt.db, chat, { documentId: id, version: 2 });
    expect(written).toEqual({ summary: 'The refund window grew from 14 to 30 days.', modelCalls: 1 });
    const prompt = promptText(chat.calls[0]?.request ?? { role: 'summarize', messages: [] });
    expect(prompt).toContain('Refund window: "14" → "30".');
    expect(prompt).toContain('Removed section "Exchanges".');
    expect((await listVersions(rt.db, ALL_COLLECTIONS, id))[0]?.changeSummary).toBe(
      'The refund window grew from 14 to 30 days.',
    );

    const failing = scriptedChat(() => {
      throw new Error('model down');
    });
    const fallback = await writeChangeSummary(rt.db, failing, { documentId: id, version: 2 });
    expect(fallback.summary).toMatch(/^1 paragraph changed/);
  });

  it('diffs two .docx versions: a renamed heading and a changed table cell', async () => {
    const id = await ingest('uploads/handbook.docx', await handbook('Ingrid Halvorsen', 'Travel'));
    await ingest('uploads/handbook.docx', await handbook('Tomas Vilkas', 'Business travel'));
    const diff = await diffVersions(rt.db, ALL_COLLECTIONS, id, { from: 1, to: 2 });
    const byStatus = Object.fromEntries(diff.sections.map((s) => [s.status, s]));
    expect(byStatus.renamed?.path.at(-1)).toBe('Business travel');
    expect(byStatus.renamed?.fromPath?.at(-1)).toBe('Travel');
    expect(byStatus.renamed?.leaves).toEqual([]);
    const table = byStatus.modified?.leaves[0];
    expect(byStatus.modified?.path.at(-1)).toBe('Contacts');
    expect(table?.kind).toBe('table');
    expect(table?.change).toBe('changed');
    expect(table?.words?.filter((w) => w.op !== 'equal')).toEqual([
      { op: 'delete', text: 'Ingrid Halvorsen' },
      { op: 'insert', text: 'Tomas Vilkas' },
    ]);
    expect(diff.summary.sections).toEqual({ added: 0, removed: 0, renamed: 1, moved: 0, modified: 1 });
    expect(diff.summary.tables).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  it('serves the diff at GET /api/documents/{id}/diff and refuses what cannot be compared', async () => {
    const id = await ingest('uploads/notes.md', utf8('# Notes\n\nThe meeting is on Monday.\n'));
    const single = await app.request(`/api/documents/${id}/diff`);
    expect(single.status).toBe(400);
    expect(((await single.json()) as { error: { message: string } }).error.message).toContain(
      'no ready version before',
    );

    await ingest('uploads/notes.md', utf8('# Notes\n\nThe meeting is on Tuesday.\n'));
    const res = await app.request(`/api/documents/${id}/diff?from=1&to=2`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as DocumentDiff;
    expect(body.sections[0]?.leaves[0]?.words?.filter((w) => w.op !== 'equal').map((w) => w.text)).toEqual([
      'Monday',
      'Tuesday',
    ]);
    expect((await app.request(`/api/documents/${id}/diff?from=1&to=9`)).status).toBe(404);
    expect((await app.request(`/api/documents/${id}/diff?from=2&to=2`)).status).toBe(400);
    expect((await app.request(`/api/documents/${id}/diff?from=zero`)).status).toBe(400);
    expect((await app.request('/api/documents/00000000-0000-4000-8000-000000000000/diff')).status).toBe(404);
  });
});
