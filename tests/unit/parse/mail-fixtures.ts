import CFB from 'cfb';
import { encodeGbk } from './fixtures.ts';

/** E-mail fixtures built in code: MIME messages (.eml) and Outlook messages (.msg). */

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64');

/** An RFC 2047 encoded word of GB2312 (GBK) text. */
export function gbWord(text: string): string {
  return `=?GB2312?B?${b64(encodeGbk(text))}?=`;
}

export interface EmlPart {
  headers: string[];
  /** The body as written (already encoded as its headers say). */
  body: string;
}

/** A MIME multipart body of the given subtype. */
export function multipart(subtype: string, boundary: string, parts: EmlPart[]): EmlPart {
  const body = parts
    .map((part) => `--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n${part.body}\r\n`)
    .join('');
  return {
    headers: [`Content-Type: multipart/${subtype}; boundary="${boundary}"`],
    body: `${body}--${boundary}--`,
  };
}

/** A base64 part. */
export function base64Part(headers: string[], bytes: Uint8Array | string): EmlPart {
  return {
    headers: [...headers, 'Content-Transfer-Encoding: base64'],
    body: b64(bytes).replace(/.{76}/g, '$&\r\n'),
  };
}

/** A whole message: top-level headers, then the root part's headers and body. */
export function eml(headers: string[], root: EmlPart): Uint8Array {
  const text = `${[...headers, 'MIME-Version: 1.0', ...root.headers].join('\r\n')}\r\n\r\n${root.body}\r\n`;
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/** One MAPI property for a .msg: its id, and a string (Unicode or, with a code page, 8-bit) or bytes. */
export type MsgValue = string | Uint8Array | number;

interface MsgProps {
  strings: Record<number, string>;
  binaries?: Record<number, Uint8Array>;
  longs?: Record<number, number>;
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

/** The fixed-length property stream: a header, then 16 bytes per PT_LONG property. */
function propertyStream(headerBytes: number, longs: Record<number, number>, counts?: number[]): Uint8Array {
  const entries = Object.entries(longs);
  const out = Buffer.alloc(headerBytes + entries.length * 16);
  for (const [i, count] of (counts ?? []).entries()) out.writeUInt32LE(count, 8 + i * 4);
  entries.forEach(([id, value], i) => {
    const at = headerBytes + i * 16;
    out.writeUInt32LE(((Number(id) << 16) | 0x0003) >>> 0, at);
    out.writeUInt32LE(6, at + 4);
    out.writeInt32LE(value, at + 8);
  });
  return new Uint8Array(out);
}

function addProps(
  file: CFB.CFB$Container,
  dir: string,
  props: MsgProps,
  ansi: boolean,
  header: { bytes: number; counts?: number[] },
): void {
  for (const [id, value] of Object.entries(props.strings)) {
    const type = ansi ? '001E' : '001F';
    const bytes = ansi ? encodeGbk(value) : new Uint8Array(Buffer.from(value, 'utf16le'));
    CFB.utils.cfb_add(file, `${dir}__substg1.0_${hex4(Number(id))}${type}`, Buffer.from(bytes));
  }
  for (const [id, value] of Object.entries(props.binaries ?? {})) {
    CFB.utils.cfb_add(file, `${dir}__substg1.0_${hex4(Number(id))}0102`, Buffer.from(value));
  }
  CFB.utils.cfb_add(
    file,
    `${dir}__properties_version1.0`,
    Buffer.from(propertyStream(header.bytes, props.longs ?? {}, header.counts)),
  );
}

export interface MsgFixture {
  subject: string;
  senderName: string;
  senderEmail: string;
  body: string;
  recipients: { name: string; email: string; type: 'to' | 'cc' }[];
  attachments: { filename: string; bytes: Uint8Array; mime: string }[];
  /** Write 8-bit strings in GBK (code page 936) instead of Unicode ones. */
  gbk?: boolean;
}

const RECIPIENT_TYPE = { to: 1, cc: 2 } as const;

/** An Outlook .msg file (an OLE compound file of MAPI property streams), as Outlook writes it. */
export function msgBytes(fixture: MsgFixture): Uint8Array {
  const file = CFB.utils.cfb_new();
  const ansi = fixture.gbk === true;
  addProps(
    file,
    '/',
    {
      strings: {
        55: fixture.subject,
        3098: fixture.senderName,
        23809: fixture.senderEmail,
        4096: fixture.body,
      },
      longs: ansi ? { 16381: 936, 16350: 936 } : {},
    },
    ansi,
    {
      bytes: 32,
      counts: [
        fixture.recipients.length,
        fixture.attachments.length,
        fixture.recipients.length,
        fixture.attachments.length,
      ],
    },
  );
  fixture.recipients.forEach((recipient, i) => {
    addProps(
      file,
      `/__recip_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}/`,
      {
        strings: { 12289: recipient.name, 14846: recipient.email },
        longs: { 3093: RECIPIENT_TYPE[recipient.type] },
      },
      ansi,
      { bytes: 8 },
    );
  });
  fixture.attachments.forEach((attachment, i) => {
    addProps(
      file,
      `/__attach_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}/`,
      {
        strings: { 14087: attachment.filename, 14094: attachment.mime },
        binaries: { 14081: attachment.bytes },
        longs: { 14085: 1 },
      },
      ansi,
      { bytes: 8 },
    );
  });
  return new Uint8Array(CFB.write(file, { type: 'buffer' }) as Buffer);
}
