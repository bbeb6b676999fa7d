import PostalMime, { type Address, type Attachment } from 'postal-mime';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { isoDate, type MailMessage, type MailPart, mailbox, messageDocument } from './message.ts';
import { partFilename } from './part-filename.ts';

/** Header names every e-mail has at least one of. */
const MAIL_HEADERS = new Set(['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'received']);

function addresses(list: Address[] | undefined): string[] {
  return (list ?? []).flatMap((address) =>
    address.group
      ? address.group.map((member) => mailbox(member.name, member.address))
      : [mailbox(address.name, address.address)],
  );
}

function partOf(attachment: Attachment, index: number): MailPart {
  const content = attachment.content;
  const bytes =
    typeof content === 'string'
      ? new Uint8Array(Buffer.from(content, attachment.encoding === 'base64' ? 'base64' : 'utf8'))
      : content instanceof Uint8Array
        ? content
        : new Uint8Array(content);
  return {
    filename: partFilename(attachment.filename, attachment.mimeType, index),
    mime: attachment.mimeType,
    bytes,
    ...(attachment.contentId ? { contentId: attachment.contentId.replace(/^<|>$/g, '') } : {}),
  };
}

/**
 * Reads an RFC 822 / MIME message (.eml) with `postal-mime`: encoded-word headers and bodies in any
 * charset the message declares (GBK and GB2312 included), forwarded messages kept as attachments
 * (each becomes a document of its own). A file without any mail header is not an e-mail.
 */
export async function parseEml(input: ParseInput): Promise<ParsedDocument> {
  const email = await PostalMime.parse(input.bytes, { rfc822Attachments: true });
  if (!email.headers.some((header) => MAIL_HEADERS.has(header.key))) {
    throw new UnsupportedDocumentError(
      `${input.filename} is not an e-mail message: it has no From, To, Subject or Date header`,
    );
  }
  const sender = email.from ? addresses([email.from])[0] : undefined;
  const message: MailMessage = {
    subject: email.subject ?? '',
    from: sender ?? '',
    to: addresses(email.to),
    cc: addresses(email.cc),
    ...(email.date ? { date: isoDate(email.date) } : {}),
    ...(email.text !== undefined ? { text: email.text } : {}),
    ...(email.html !== undefined ? { html: email.html } : {}),
    parts: email.attachments.map(partOf),
  };
  input.signal?.throwIfAborted();
  return messageDocument(message, input);
}

/** The .eml parser of the registry. */
export const emlParser: Parser = { type: 'eml', parse: parseEml };
