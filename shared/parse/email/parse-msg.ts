import msgreader, { type FieldsData } from '@kenjiuno/msgreader';
import { reasonOf, UnsupportedDocumentError } from '#shared/errors.ts';
import { codepageLabel } from '../codepage.ts';
import { decodeHtml } from '../html/charset.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { isoDate, type MailMessage, type MailPart, mailbox, messageDocument } from './message.ts';
import { partFilename } from './part-filename.ts';

/** The CommonJS package's class, under Node's ESM interop (`default.default`) and bundlers' alike. */
const MsgReader: typeof msgreader =
  (msgreader as unknown as { default?: typeof msgreader }).default ?? msgreader;

/** Code pages whose 8-bit strings the reader's default decoding already gets right. */
const UNICODE_CODEPAGES = new Set([1200, 1201, 65001]);

function read(bytes: Uint8Array, ansiEncoding?: string): { reader: msgreader; fields: FieldsData } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = new MsgReader(view);
  if (ansiEncoding) reader.parserConfig = { ansiEncoding };
  const fields = reader.getFileData();
  if (fields.error) throw new Error(fields.error);
  return { reader, fields };
}

/** Reads the message, again in its own code page when it stores 8-bit strings in one (GBK, Big5). */
function readInCodepage(bytes: Uint8Array): { reader: msgreader; fields: FieldsData; label?: string } {
  const first = read(bytes);
  const codepage = first.fields.internetCodepage ?? first.fields.messageCodepage;
  const label = codepageLabel(codepage);
  if (!label || codepage === undefined || UNICODE_CODEPAGES.has(codepage))
    return { ...first, ...(label ? { label } : {}) };
  return { ...read(bytes, `cp${codepage}`), label };
}

function recipients(fields: FieldsData, kind: 'to' | 'cc'): string[] {
  return (fields.recipients ?? [])
    .filter((recipient) => (recipient.recipType ?? 'to') === kind)
    .map((recipient) => mailbox(recipient.name, recipient.smtpAddress ?? recipient.email));
}

function htmlOf(fields: FieldsData, label: string | undefined, filename: string): string | undefined {
  if (fields.bodyHtml?.trim()) return fields.bodyHtml;
  if (!fields.html || fields.html.length === 0) return undefined;
  return label ? new TextDecoder(label).decode(fields.html) : decodeHtml(fields.html, filename);
}

/**
 * Reads an Outlook message (.msg, an OLE compound file) with `@kenjiuno/msgreader`: subject, sender,
 * recipients, date, the HTML or text body, and the attachments (an attached message comes back as a
 * .msg file of its own). 8-bit strings are decoded in the message's code page (GBK for Chinese
 * Outlook); a damaged file fails with the reader's reason.
 */
export async function parseMsg(input: ParseInput): Promise<ParsedDocument> {
  let opened: ReturnType<typeof readInCodepage>;
  try {
    opened = readInCodepage(input.bytes);
  } catch (error) {
    throw new UnsupportedDocumentError(`${input.filename} is a damaged Outlook message: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  const { reader, fields, label } = opened;
  const parts: MailPart[] = (fields.attachments ?? []).map((attachment, index) => {
    const data = reader.getAttachment(attachment);
    const mime =
      attachment.attachMimeTag ??
      (attachment.innerMsgContent ? 'application/vnd.ms-outlook' : 'application/octet-stream');
    const given = attachment.innerMsgContent
      ? data.fileName
      : (attachment.fileName ?? attachment.fileNameShort);
    return {
      filename: partFilename(given, mime, index),
      mime,
      bytes: data.content,
      ...(attachment.pidContentId ? { contentId: attachment.pidContentId.replace(/^<|>$/g, '') } : {}),
    };
  });
  const html = htmlOf(fields, label, input.filename);
  const date = isoDate(fields.messageDeliveryTime ?? fields.clientSubmitTime ?? fields.creationTime);
  const message: MailMessage = {
    subject: fields.subject ?? '',
    from: mailbox(fields.senderName, fields.senderSmtpAddress ?? fields.senderEmail),
    to: recipients(fields, 'to'),
    cc: recipients(fields, 'cc'),
    ...(date ? { date } : {}),
    ...(fields.body !== undefined ? { text: fields.body } : {}),
    ...(html !== undefined ? { html } : {}),
    parts,
  };
  input.signal?.throwIfAborted();
  return messageDocument(message, input);
}

/** The .msg parser of the registry. */
export const msgParser: Parser = { type: 'msg', parse: parseMsg };
