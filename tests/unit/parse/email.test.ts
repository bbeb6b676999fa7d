import { describe, expect, it } from 'vitest';
import { detectFileType } from '#shared/parse/detect.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';
import type { ParsedDocument } from '#shared/parse/types.ts';
import { outline } from './docx-fixtures.ts';
import { encodeGbk, pngBytes, utf8 } from './fixtures.ts';
import { base64Part, eml, gbWord, msgBytes, multipart } from './mail-fixtures.ts';

async function parse(bytes: Uint8Array, filename: string): Promise<ParsedDocument> {
  return parseDocument({ bytes, filename }, detectFileType(bytes, filename));
}

const LOGO = pngBytes(40, 20);
const PHOTO = pngBytes(64, 48);
const CSV = utf8('项目,金额\n服务器,120000\n');

const FORWARDED = eml(['From: Ops <ops@example.com>', 'To: zhang.wei@example.cn', 'Subject: Server quote'], {
  headers: ['Content-Type: text/plain; charset=utf-8'],
  body: 'The quote is valid until April.',
});

/** A Chinese Outlook-style message: GB2312 headers and HTML body, an inline logo, three attachments. */
const GBK_MAIL = eml(
  [
    `From: ${gbWord('张伟')} <zhang.wei@example.cn>`,
    `To: ${gbWord('李娜')} <li.na@example.cn>, team@example.cn`,
    'Cc: Finance <finance@example.cn>',
    'Date: Tue, 03 Mar 2026 09:30:00 +0800',
    `Subject: ${gbWord('第三季度预算审批')}`,
  ],
  multipart('mixed', 'mix', [
    multipart('related', 'rel', [
      base64Part(
        ['Content-Type: text/html; charset="gb2312"'],
        encodeGbk(
          '<html><head><meta charset="gb2312"></head><body><h1>预算</h1><p>请在周五前审批服务器采购。</p>' +
            '<img src="cid:logo@example" alt="标志"><h2>Timeline</h2><p>Orders go out in April.</p></body></html>',
        ),
      ),
      base64Part(
        ['Content-Type: image/png', 'Content-ID: <logo@example>', 'Content-Disposition: inline'],
        LOGO,
      ),
    ]),
    base64Part(
      [
        `Content-Type: text/csv; name="${gbWord('预算.csv')}"`,
        `Content-Disposition: attachment; filename="${gbWord('预算.csv')}"`,
      ],
      CSV,
    ),
    base64Part(['Content-Type: image/png', 'Content-Disposition: attachment; filename="site.png"'], PHOTO),
    {
      headers: ['Content-Type: message/rfc822', 'Content-Disposition: attachment; filename="quote.eml"'],
      body: Buffer.from(FORWARDED).toString('latin1'),
    },
  ]),
);

describe('e-mail messages (.eml)', () => {
  it('decodes GB2312 headers and body: subject as title, people and date in metadata and a first paragraph', async () => {
    expect(detectFileType(GBK_MAIL, 'approval.eml')).toBe('eml');
    const doc = await parse(GBK_MAIL, 'approval.eml');
    expect(doc.title).toBe('第三季度预算审批');
    expect(doc.metadata).toMatchObject({
      from: '张伟 <zhang.wei@example.cn>',
      to: ['李娜 <li.na@example.cn>', 'team@example.cn'],
      cc: ['Finance <finance@example.cn>'],
      date: '2026-03-03T01:30:00.000Z',
      subject: '第三季度预算审批',
      attachments: ['预算.csv', 'quote.eml'],
    });
    expect(outline(doc.children)).toEqual([
      'paragraph:From: 张伟 <zhang.wei@example.cn>\nTo: 李娜 <li.na@example.cn>, team@example.cn\nCc: Finance <finance@example.cn>\nDate: 2026-03-03T01:30:00.000Z\nSubject: 第三季度预算审批',
      [
        'section:预算',
        [
          'paragraph:请在周五前审批服务器采购。',
          'image:img_001.png',
          ['section:Timeline', ['paragraph:Orders go out in April.']],
        ],
      ],
      'image:img_002.png',
      'paragraph:Attachments:\n预算.csv\nquote.eml',
    ]);
  });

  it('keeps inline and attached pictures as images and hands every other file on as an attachment', async () => {
    const doc = await parse(GBK_MAIL, 'approval.eml');
    expect(doc.images.map((image) => [image.name, image.width, image.height])).toEqual([
      ['img_001.png', 40, 20],
      ['img_002.png', 64, 48],
    ]);
    expect(doc.attachments?.map((a) => [a.filename, a.mime])).toEqual([
      ['预算.csv', 'text/csv'],
      ['quote.eml', 'message/rfc822'],
    ]);
    expect(doc.attachments?.[0]?.bytes).toEqual(CSV);
    const forwarded = doc.attachments?.[1]?.bytes ?? new Uint8Array();
    const inner = await parse(forwarded, 'quote.eml');
    expect(inner.title).toBe('Server quote');
    expect(outline(inner.children).at(-1)).toBe('paragraph:The quote is valid until April.');
  });

  it('reads a plain-text message without attachments', async () => {
    const doc = await parse(
      eml(['From: a@example.com', 'Subject: Lunch'], {
        headers: ['Content-Type: text/plain; charset=utf-8'],
        body: 'Noon at the canteen.\r\n\r\nBring the slides.',
      }),
      'lunch.eml',
    );
    expect(doc.title).toBe('Lunch');
    expect(outline(doc.children).slice(1)).toEqual([
      'paragraph:Noon at the canteen.',
      'paragraph:Bring the slides.',
    ]);
    expect(doc.attachments).toEqual([]);
  });

  it('fails a file named .eml that is not a message with a readable reason', async () => {
    await expect(parse(utf8('just some words\nwithout any headers\n'), 'broken.eml')).rejects.toThrow(
      'broken.eml is not an e-mail message: it has no From, To, Subject or Date header',
    );
  });
});

const MSG = {
  subject: '合同续签',
  senderName: '王芳',
  senderEmail: 'wang.fang@example.cn',
  body: '请查看附件中的合同草案。\r\n\r\nThe draft expires in May.',
  recipients: [
    { name: '陈静', email: 'chen.jing@example.cn', type: 'to' as const },
    { name: 'Legal', email: 'legal@example.cn', type: 'cc' as const },
  ],
  attachments: [
    { filename: 'draft.txt', bytes: utf8('Clause 1: the term is two years.'), mime: 'text/plain' },
  ],
};

describe('Outlook messages (.msg)', () => {
  it('reads subject, sender, recipients, body and attachments of a Unicode message', async () => {
    const bytes = msgBytes(MSG);
    expect(detectFileType(bytes, 'renewal.msg')).toBe('msg');
    const doc = await parse(bytes, 'renewal.msg');
    expect(doc.title).toBe('合同续签');
    expect(doc.metadata).toMatchObject({
      from: '王芳 <wang.fang@example.cn>',
      to: ['陈静 <chen.jing@example.cn>'],
      cc: ['Legal <legal@example.cn>'],
      attachments: ['draft.txt'],
    });
    expect(outline(doc.children).slice(1)).toEqual([
      'paragraph:请查看附件中的合同草案。',
      'paragraph:The draft expires in May.',
      'paragraph:Attachments:\ndraft.txt',
    ]);
    expect(doc.attachments?.[0]?.bytes).toEqual(MSG.attachments[0]?.bytes);
  });

  it('decodes the 8-bit strings of a GBK (code page 936) message', async () => {
    const doc = await parse(msgBytes({ ...MSG, gbk: true }), 'renewal.msg');
    expect(doc.title).toBe('合同续签');
    expect(doc.metadata).toMatchObject({
      from: '王芳 <wang.fang@example.cn>',
      to: ['陈静 <chen.jing@example.cn>'],
    });
    expect(outline(doc.children)[1]).toBe('paragraph:请查看附件中的合同草案。');
  });

  it('fails a damaged .msg with a readable reason', async () => {
    const bytes = msgBytes(MSG);
    const damaged = bytes.slice(0, 1536);
    await expect(parse(damaged, 'renewal.msg')).rejects.toThrow(/renewal\.msg/);
  });
});
