import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, queryRows } from '#shared/db/index.ts';
import { deriveDocumentTopics } from '#shared/enrich/topics/index.ts';
import { parse } from '#shared/pipeline/steps/parse.ts';
import { register } from '#shared/pipeline/steps/register.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { openTestDatabase } from '../../helpers/db.ts';
import { writeXls } from '../../helpers/xls-writer.ts';
import { eml, msgBytes } from '../../unit/parse/mail-fixtures.ts';
import { testDeps, utf8 } from '../pipeline/fixtures.ts';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const LEGACY = new URL('../../fixtures/legacy/', import.meta.url);
const corpus = (path: string) => new Uint8Array(readFileSync(new URL(path, CORPUS)));
const legacy = (path: string) => new Uint8Array(readFileSync(new URL(path, LEGACY)));

/** A folder of real files of many formats (others' test documents, mail, sheets, Chinese text). */
function mixedFolder(): [string, Uint8Array][] {
  return [
    ['formulas.xlsx', corpus('exceljs/spec/integration/data/formulas.xlsx')],
    ['sld-notes.pptx', corpus('python-pptx/features/steps/test_files/sld-notes.pptx')],
    ['tbl-cell.pptx', corpus('python-pptx/features/steps/test_files/tbl-cell.pptx')],
    ['txt-text.pptx', corpus('python-pptx/features/steps/test_files/txt-text.pptx')],
    ['test.xls', corpus('markitdown/packages/markitdown/tests/test_files/test.xls')],
    ['test.odt', corpus('officeParser/test/files/test.odt')],
    ['tables.docx', corpus('mammoth.js/test/test-data/tables.docx')],
    ['handbook.rtf', legacy('handbook.rtf')],
    ['handbook.doc', legacy('handbook.doc')],
    ['review.ppt', legacy('review.ppt')],
    ['budget.xls', legacy('budget.xls')],
    [
      'flags.xls',
      writeXls([
        {
          name: 'Sheet1',
          rows: [
            [true, 'Heron survey'],
            [false, 'Egret survey'],
          ],
        },
      ]),
    ],
    [
      'fair.eml',
      eml(['From: Ops <ops@example.com>', 'To: all@example.com', 'Subject: Summer fair plans'], {
        headers: ['Content-Type: text/plain; charset=utf-8'],
        body: 'The summer fair will have face painting, a petting zoo, funnel cake and a raffle for the library fund.',
      }),
    ],
    [
      'renewal.msg',
      msgBytes({
        subject: 'Warehouse lease renewal',
        senderName: 'Li Na',
        senderEmail: 'li.na@example.cn',
        body: 'The warehouse lease renews in March. Please confirm the loading dock repairs with the landlord.',
        recipients: [{ name: 'Finance', email: 'finance@example.cn', type: 'to' }],
        attachments: [],
      }),
    ],
    ['采购.csv', utf8('项目,金额,供应商\n服务器,120000,华为\n交换机,30000,思科\n')],
    ['数据平台.md', utf8('# 数据平台年度报告\n\n数据平台今年完成了存储迁移，查询延迟下降。\n')],
    ['数据平台周报.md', utf8('# 数据平台周报\n\n本周数据平台的存储迁移顺利完成。\n')],
  ];
}

/** The format words the issue found as topics on a real folder. */
const FORMAT_WORDS = [
  'list',
  'column',
  'false',
  'true',
  'row',
  'slide',
  'note',
  'notes',
  'subject',
  'cell',
  'table',
  'body',
  'whitespace',
  'box',
  'sheet',
  'from',
  'to',
];

describe('offline topics on a mixed folder of real files', () => {
  let database: Database;
  let deps: PipelineDeps & { dispose(): Promise<void> };
  let topics: { name: string; documents: string[] }[] = [];
  /** Each document's own text: its nodes' content, without the mail header paragraph DropQA writes. */
  let prose = new Map<string, string>();
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    deps = await testDeps(database.db);
    const settings = { minPerDocument: 3, maxPerDocument: 5, mergeThreshold: 0.85, batchSize: 16 };
    for (const [name, bytes] of mixedFolder()) {
      await deps.store.put(`folder/${name}`, bytes);
      const ref = await register({ key: `folder/${name}` }, deps);
      await parse(ref, deps);
      await deriveDocumentTopics(database.db, deps.providers, ref, settings);
    }
    topics = await queryRows<{ name: string; documents: string[] }>(
      database.db,
      sql`SELECT t.name, array_agg(d.filename ORDER BY d.filename) AS documents FROM topics t
          JOIN document_topics dt ON dt.topic_id = t.id JOIN documents d ON d.id = dt.document_id
          GROUP BY t.name`,
    );
    const rows = await queryRows<{ filename: string; text: string }>(
      database.db,
      sql`SELECT d.filename, string_agg(concat_ws(' ', n.title, n.content), ' ') AS text FROM nodes n
          JOIN documents d ON d.id = n.document_id
          WHERE coalesce(n.metadata->>'kind', '') NOT IN ('mail-headers')
          GROUP BY d.filename`,
    );
    prose = new Map(rows.map((row) => [row.filename, row.text.toLowerCase()]));
  }, 240_000);
  afterAll(async () => {
    await deps?.dispose();
    await database?.close();
  });

  it('names no topic by a format word', () => {
    expect(topics.length).toBeGreaterThan(20);
    const formatNamed = topics.filter((topic) =>
      topic.name
        .toLowerCase()
        .split(/\s+/)
        .every((word) => FORMAT_WORDS.includes(word.replace(/s$/, '')) || FORMAT_WORDS.includes(word)),
    );
    expect(formatNamed).toEqual([]);
  });

  it('names every topic by words its documents write, not by labels DropQA made up', () => {
    for (const topic of topics) {
      for (const document of topic.documents) {
        const text = prose.get(document) ?? '';
        for (const word of topic.name.toLowerCase().split(/\s+/)) {
          expect(text, `${topic.name} (${document})`).toContain(word.replace(/(ie)?s$/, ''));
        }
        expect(text, `${topic.name} (${document})`).not.toMatch(/^slide \d+$/);
      }
    }
    expect(topics.map((topic) => topic.name)).not.toContain('Slide');
  });

  it('shares topics that name subjects', () => {
    const shared = topics.filter((topic) => topic.documents.length > 1).map((topic) => topic.name);
    expect(shared).toContain('数据平台');
    for (const name of shared) expect(FORMAT_WORDS).not.toContain(name.toLowerCase());
  });
});
