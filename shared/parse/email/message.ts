import { parseHtmlText } from '../html/parse-html.ts';
import { createImageCollector, type ImageCollector } from '../image-collector.ts';
import { readImageInfo } from '../image-info.ts';
import { textParagraphs } from '../text.ts';
import { titleFromFilename } from '../title.ts';
import type { DocumentAttachment, ParsedDocument, ParseInput, TreeNode } from '../types.ts';

/** A file a message carries, as its reader found it. */
export interface MailPart {
  filename: string;
  mime: string;
  bytes: Uint8Array;
  /** The `Content-ID` an HTML body refers to it by (`cid:...`), without angle brackets. */
  contentId?: string;
}

/** What DropQA keeps of an e-mail, whichever format (.eml, .msg) it came in. */
export interface MailMessage {
  subject: string;
  from: string;
  to: string[];
  cc: string[];
  /** ISO 8601 when the message's date could be read, else as written. */
  date?: string;
  text?: string;
  html?: string;
  parts: MailPart[];
}

/** "Name <address>", or whichever of the two there is. */
export function mailbox(name: string | undefined, address: string | undefined): string {
  const n = name?.trim() ?? '';
  const a = address?.trim() ?? '';
  if (n && a && n !== a) return `${n} <${a}>`;
  return n || a;
}

/** A date as ISO 8601 when it parses, else as written (never dropped). */
export function isoDate(value: string | Date | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

function headerLines(message: MailMessage): string {
  const lines = [
    ['From', message.from],
    ['To', message.to.join(', ')],
    ['Cc', message.cc.join(', ')],
    ['Date', message.date ?? ''],
    ['Subject', message.subject],
  ];
  return lines
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

const CID = /\bsrc\s*=\s*(["']?)cid:([^"'\s>]+)\1/gi;

/** `cid:` image references of an HTML body as `data:` URIs of the parts they name. */
function inlineCidImages(html: string, parts: MailPart[], used: Set<MailPart>): string {
  return html.replace(CID, (match, quote: string, id: string) => {
    const wanted = decodeURIComponent(id).replace(/^<|>$/g, '');
    const part = parts.find((candidate) => candidate.contentId === wanted);
    if (!part) return match;
    used.add(part);
    const uri = `data:${part.mime};base64,${Buffer.from(part.bytes).toString('base64')}`;
    return `src=${quote || '"'}${uri}${quote || '"'}`;
  });
}

async function bodyOf(
  message: MailMessage,
  input: ParseInput,
  images: ImageCollector,
  used: Set<MailPart>,
): Promise<TreeNode[]> {
  if (!message.html?.trim()) return textParagraphs(message.text ?? '');
  return (await parseHtmlText(inlineCidImages(message.html, message.parts, used), input, images)).children;
}

/**
 * An e-mail as a document: the subject as its title; from, to, cc and date in its metadata and in a
 * first paragraph (so questions about who wrote when find them); the body (HTML through the web page
 * reader, `cid:` images included, else the text) as the tree; attached pictures as images at the end;
 * every other attached file in `attachments`, to be ingested as a document of its own.
 */
export async function messageDocument(message: MailMessage, input: ParseInput): Promise<ParsedDocument> {
  const used = new Set<MailPart>();
  const images = createImageCollector(input);
  const body = await bodyOf(message, input, images, used);
  const children: TreeNode[] = [];
  const header = headerLines(message);
  if (header) children.push({ type: 'paragraph', text: header, metadata: { kind: 'mail-headers' } });
  children.push(...body);

  const attachments: DocumentAttachment[] = [];
  for (const part of message.parts) {
    if (used.has(part)) continue;
    if (readImageInfo(part.bytes)) {
      const dataUri = `data:${part.mime};base64,${Buffer.from(part.bytes).toString('base64')}`;
      const node = await images.collect(dataUri, part.filename);
      if (node) children.push(node);
      continue;
    }
    attachments.push({ filename: part.filename, bytes: part.bytes, mime: part.mime });
  }
  if (attachments.length > 0) {
    const list = attachments.map((attachment) => attachment.filename).join('\n');
    children.push({
      type: 'paragraph',
      text: `Attachments:\n${list}`,
      metadata: { kind: 'mail-attachments' },
    });
  }
  return {
    title: message.subject.trim() || titleFromFilename(input.filename),
    metadata: {
      from: message.from,
      to: message.to,
      cc: message.cc,
      ...(message.date ? { date: message.date } : {}),
      subject: message.subject,
      attachments: attachments.map((attachment) => attachment.filename),
    },
    children,
    images: images.images,
    warnings: images.warnings,
    attachments,
  };
}
