import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '#shared/api/app.ts';
import { loadConfig } from '#shared/config/index.ts';
import { attachmentPrefix } from '#shared/documents/attachments.ts';
import { openRuntime, type Runtime } from '#shared/runtime/runtime.ts';
import { encodeGbk, utf8 } from '../../unit/parse/fixtures.ts';
import { base64Part, eml, gbWord, multipart } from '../../unit/parse/mail-fixtures.ts';

interface Detail {
  id: string;
  filename: string;
  fileType: string;
  status: string;
  attachments: { id: string; filename: string; fileType: string; status: string }[];
  message: { id: string; filename: string } | null;
}

const FORWARDED = eml(['From: ops@example.com', 'Subject: Server quote'], {
  headers: ['Content-Type: text/plain; charset=utf-8'],
  body: 'The quote for the Lisbon servers is valid until April.',
});

function mail(withTable: boolean): Uint8Array {
  const parts = [
    base64Part(['Content-Type: text/plain; charset="gb2312"'], encodeGbk('请在周五前审批服务器采购。')),
    ...(withTable
      ? [
          base64Part(
            [`Content-Type: text/csv; name="${gbWord('预算.csv')}"`, 'Content-Disposition: attachment'],
            utf8('项目,金额\n服务器,120000\n'),
          ),
        ]
      : []),
    {
      headers: ['Content-Type: message/rfc822', 'Content-Disposition: attachment; filename="quote.eml"'],
      body: Buffer.from(FORWARDED).toString('latin1'),
    },
  ];
  return eml(
    [
      `From: ${gbWord('张伟')} <zhang.wei@example.cn>`,
      'To: li.na@example.cn',
      `Subject: ${gbWord('预算审批')}`,
    ],
    multipart('mixed', 'mix', parts),
  );
}

describe('e-mail attachments as documents', () => {
  let dir: string;
  let rt: Runtime;
  let app: ReturnType<typeof createApp>;

  const detail = async (id: string) => {
    const res = await app.request(`/api/documents/${id}`);
    return { status: res.status, body: (await res.json()) as Detail };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dropqa-mail-'));
    rt = await openRuntime(loadConfig({ env: {}, overrides: { dataDir: dir } }));
    app = createApp(rt);
  });
  afterAll(async () => {
    await rt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ingests each attachment as its own document linked to the message, reports it, and deletes it with the message', async () => {
    const heard: string[] = [];
    const outcomes = await rt.ingest.ingest([{ key: 'inbox/approval.eml', bytes: mail(true) }], (o) =>
      heard.push(`${o.key.split('/').pop()}:${o.status}`),
    );
    expect(outcomes).toHaveLength(3);
    expect(heard.sort()).toEqual(['approval.eml:ready', 'quote.eml:ready', '预算.csv:ready']);
    const messageId = outcomes[0]?.documentId ?? '';

    const message = await detail(messageId);
    expect(message.body).toMatchObject({ fileType: 'eml', status: 'ready', message: null });
    expect(message.body.attachments.map((a) => [a.filename, a.fileType, a.status])).toEqual([
      ['预算.csv', 'csv', 'ready'],
      ['quote.eml', 'eml', 'ready'],
    ]);
    const [table, forwarded] = message.body.attachments;
    expect((await detail(table?.id ?? '')).body.message).toEqual({ id: messageId, filename: 'approval.eml' });

    const structure = (await (await app.request(`/api/documents/${messageId}/structure`)).json()) as {
      title: string;
      metadata: Record<string, unknown>;
    };
    expect(structure.title).toBe('预算审批');
    expect(structure.metadata).toMatchObject({
      from: '张伟 <zhang.wei@example.cn>',
      to: ['li.na@example.cn'],
    });
    const quote = (await (await app.request(`/api/documents/${forwarded?.id}/structure`)).json()) as {
      title: string;
    };
    expect(quote.title).toBe('Server quote');

    // A new version without the table drops the table's document; the forwarded message stays.
    await rt.ingest.ingest([{ key: 'inbox/approval.eml', bytes: mail(false) }]);
    expect((await detail(table?.id ?? '')).status).toBe(404);
    expect((await detail(messageId)).body.attachments.map((a) => a.filename)).toEqual(['quote.eml']);

    const res = await app.request(`/api/documents/${messageId}`, {
      method: 'DELETE',
      headers: { 'X-DropQA-Client': 'test' },
    });
    expect(res.status).toBe(200);
    expect((await detail(forwarded?.id ?? '')).status).toBe(404);
    const left: string[] = [];
    for await (const blob of rt.store.list(attachmentPrefix(messageId))) left.push(blob.key);
    expect(left).toEqual([]);
  });
});
