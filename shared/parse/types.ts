import type { ParseLimits } from './limits.ts';

/**
 * The document tree a parser produces: format-independent, before it is normalized and stored as
 * `nodes` rows. Sections nest to any depth; paragraphs, tables and images are leaves in reading order.
 */
export type TreeNode = SectionNode | ParagraphNode | TableNode | ImageNode;

export interface SectionNode {
  type: 'section';
  title: string;
  children: TreeNode[];
  metadata?: Record<string, unknown>;
}

export interface ParagraphNode {
  type: 'paragraph';
  text: string;
  /** e.g. `{ kind: 'code', lang: 'ts' }`, `{ kind: 'list' }`, `{ page: 3 }`. */
  metadata?: Record<string, unknown>;
}

export interface TableNode {
  type: 'table';
  /** A text rendition of the table (Markdown pipe table), which is what gets indexed. */
  text: string;
  rows?: string[][];
  metadata?: Record<string, unknown>;
}

export interface ImageNode {
  type: 'image';
  /** Name of the extracted image among the document's images (`ParsedDocument.images[].name`). */
  name: string;
  alt: string;
  metadata?: Record<string, unknown>;
}

/** An image extracted from (or referenced by) a document, with its bytes. */
export interface ExtractedImage {
  name: string;
  bytes: Uint8Array;
  mime: string;
  width?: number;
  height?: number;
  /** Where it came from in the source (a relative path, a zip entry). */
  source?: string;
}

export interface ParsedDocument {
  title: string;
  /** Document-level metadata (Markdown front matter, core properties). */
  metadata: Record<string, unknown>;
  children: TreeNode[];
  images: ExtractedImage[];
  /** Problems that did not stop parsing (a missing image, an unsupported image format). */
  warnings: string[];
  /**
   * Files a message carries (an e-mail's attachments): each is ingested as its own document, linked
   * to this one, rather than read into this tree.
   */
  attachments?: DocumentAttachment[];
}

/** A file attached to a document (an e-mail's attachment), with its bytes. */
export interface DocumentAttachment {
  /** The attachment's file name as the message gives it (or one made up from its type). */
  filename: string;
  bytes: Uint8Array;
  mime: string;
}

export interface ParseInput {
  bytes: Uint8Array;
  /** The document key's last segment, used for the title when the content has none. */
  filename: string;
  /**
   * Reads a file referenced by the document, by a path relative to the document. Returns undefined
   * when it does not exist or may not be read (never outside the document's own folder).
   */
  readRelative?: (relativePath: string) => Promise<Uint8Array | undefined>;
  /** Bounds on hostile input; `DEFAULT_PARSE_LIMITS` when absent. */
  limits?: ParseLimits;
  /**
   * Aborts when the parse has run out of time (`limits.parseTimeoutMs`), with the readable reason.
   * Parsers call `signal?.throwIfAborted()` between sheets, rows, pages and slides.
   */
  signal?: AbortSignal;
}

export type FileType =
  | 'md'
  | 'txt'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'pdf'
  | 'doc'
  | 'ppt'
  | 'xls'
  | 'ods'
  | 'csv'
  | 'html'
  | 'eml'
  | 'msg'
  | 'odt'
  | 'odp'
  | 'rtf'
  | 'image';

export interface Parser {
  readonly type: FileType;
  parse(input: ParseInput): Promise<ParsedDocument>;
}
