/**
 * The part of mammoth's document model this parser reads (mammoth/lib/documents.js). mammoth ships
 * no types for it, so these describe only the fields used here.
 */
export type DocxElement =
  | DocxParagraph
  | DocxTable
  | DocxContainer
  | DocxText
  | DocxImage
  | DocxNoteReference
  | DocxBreak
  | DocxCheckbox
  | DocxBookmark
  | DocxCommentReference
  | DocxOther;

export interface DocxParagraph {
  type: 'paragraph';
  children: DocxElement[];
  styleId: string | null;
  styleName: string | null;
  numbering: { level: string; isOrdered: boolean } | null;
}

export interface DocxTable {
  type: 'table';
  children: DocxElement[];
}

/** Runs, hyperlinks, table rows and cells: elements whose meaning is their children. */
export interface DocxContainer {
  type: 'run' | 'hyperlink' | 'tableRow' | 'tableCell';
  children: DocxElement[];
  colSpan?: number;
  rowSpan?: number;
}

export interface DocxText {
  type: 'text';
  value: string;
}

export interface DocxImage {
  type: 'image';
  altText?: string;
  contentType?: string;
  readAsBuffer(): Promise<Buffer>;
}

export interface DocxNoteReference {
  type: 'noteReference';
  noteType: 'footnote' | 'endnote';
  noteId: string;
}

export interface DocxBreak {
  type: 'break' | 'tab';
  breakType?: string;
}

export interface DocxCheckbox {
  type: 'checkbox';
  checked: boolean;
  children?: undefined;
}

export interface DocxBookmark {
  type: 'bookmarkStart';
  name: string;
  children?: undefined;
}

export interface DocxCommentReference {
  type: 'commentReference';
  commentId: string;
  children?: undefined;
}

export interface DocxOther {
  type: 'note' | 'comment';
  children?: undefined;
}

/** A Word comment (`word/comments.xml`). */
export interface DocxComment {
  commentId: string;
  body: DocxElement[];
  authorName: string | null;
}

export interface DocxNote {
  noteType: 'footnote' | 'endnote';
  noteId: string;
  body: DocxElement[];
}

export interface DocxDocument {
  type: 'document';
  children: DocxElement[];
  notes: { resolve(reference: DocxNoteReference): DocxNote | null };
  comments: DocxComment[];
}
