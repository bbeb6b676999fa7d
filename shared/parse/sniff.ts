import { readImageInfo } from './image-info.ts';

/** What the first bytes of a file say it is, when they carry a known binary signature. */
export interface Sniffed {
  kind: 'pdf' | 'zip' | 'ole' | 'image' | 'binary';
  /** For messages: "a PNG image", "a ZIP archive". */
  label: string;
}

interface Signature {
  bytes: readonly number[];
  at?: number;
  sniffed: Sniffed;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly Signature[] = [
  { bytes: ascii('%PDF-'), sniffed: { kind: 'pdf', label: 'a PDF document' } },
  { bytes: [0x50, 0x4b, 0x03, 0x04], sniffed: { kind: 'zip', label: 'a ZIP archive' } },
  { bytes: [0x50, 0x4b, 0x05, 0x06], sniffed: { kind: 'zip', label: 'a ZIP archive' } },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    sniffed: { kind: 'ole', label: 'a legacy Office (OLE) file' },
  },
  { bytes: ascii('II*\u0000'), sniffed: { kind: 'image', label: 'a TIFF image' } },
  { bytes: ascii('MM\u0000*'), sniffed: { kind: 'image', label: 'a TIFF image' } },
  { bytes: [0x00, 0x00, 0x01, 0x00], sniffed: { kind: 'image', label: 'an ICO image' } },
  { bytes: ascii('ftypheic'), at: 4, sniffed: { kind: 'image', label: 'a HEIC image' } },
  { bytes: ascii('ftypavif'), at: 4, sniffed: { kind: 'image', label: 'an AVIF image' } },
  { bytes: [0x1f, 0x8b], sniffed: { kind: 'binary', label: 'a gzip archive' } },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], sniffed: { kind: 'binary', label: 'a 7-Zip archive' } },
  { bytes: ascii('Rar!\u001a\u0007'), sniffed: { kind: 'binary', label: 'a RAR archive' } },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], sniffed: { kind: 'binary', label: 'an executable' } },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], sniffed: { kind: 'binary', label: 'an executable' } },
  { bytes: ascii('ID3'), sniffed: { kind: 'binary', label: 'an MP3 audio file' } },
  { bytes: ascii('OggS'), sniffed: { kind: 'binary', label: 'an Ogg media file' } },
  { bytes: ascii('ftyp'), at: 4, sniffed: { kind: 'binary', label: 'an MP4 video' } },
  { bytes: ascii('SQLite format 3\u0000'), sniffed: { kind: 'binary', label: 'a SQLite database' } },
];

function matches(bytes: Uint8Array, signature: Signature): boolean {
  const at = signature.at ?? 0;
  if (bytes.length < at + signature.bytes.length) return false;
  return signature.bytes.every((byte, i) => bytes[at + i] === byte);
}

/**
 * Recognizes binary formats by their magic bytes (documents, archives, images, media, executables).
 * Returns undefined when no known signature matches; the bytes may still be binary.
 *
 * @example sniffBinary(pngBytes) // { kind: 'image', label: 'a PNG image' }
 */
export function sniffBinary(bytes: Uint8Array): Sniffed | undefined {
  const image = readImageInfo(bytes);
  if (image) return { kind: 'image', label: image.label };
  return SIGNATURES.find((signature) => matches(bytes, signature))?.sniffed;
}

/**
 * True when an OLE compound file holds an `EncryptedPackage` stream: a password-protected DOCX,
 * PPTX or XLSX (Office encrypts OOXML by wrapping it in OLE), as opposed to a legacy .doc/.ppt/.xls.
 */
export function isEncryptedOoxml(bytes: Uint8Array): boolean {
  const name = Buffer.from('EncryptedPackage', 'utf16le');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(name);
}
