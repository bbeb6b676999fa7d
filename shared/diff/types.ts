import type { NodeType } from '#shared/db/schema.ts';

export type LeafKind = Exclude<NodeType, 'document' | 'section'>;

/** A paragraph, table or image of one version, as the diff sees it. */
export interface OutlineLeaf {
  nodeId: string;
  ordinal: number;
  kind: LeafKind;
  /** The paragraph text, the table's Markdown, or the image's alt text. */
  text: string;
  /** What must be equal for the leaf to be unchanged (an image adds its name, size and dimensions). */
  signature: string;
}

/** A section of one version (the root stands for the document, its path is empty). */
export interface OutlineSection {
  nodeId: string;
  title: string;
  ordinal: number;
  /** Section titles from the top of the document down to this one. */
  path: string[];
  /** Its own leaves, in reading order (not those of its subsections). */
  leaves: OutlineLeaf[];
  children: OutlineSection[];
}

export interface VersionOutline {
  version: number;
  title: string;
  root: OutlineSection;
}

/** One side of a changed leaf: where it is in its version and what it says. */
export interface LeafSide {
  nodeId: string;
  ordinal: number;
  text: string;
}

/** A run of words that is the same in both versions, only in the new one, or only in the old one. */
export interface WordChange {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

export interface LeafChange {
  change: 'added' | 'removed' | 'changed';
  kind: LeafKind;
  from?: LeafSide;
  to?: LeafSide;
  /** Word-level changes of a changed paragraph or table (CJK split into jieba words). */
  words?: WordChange[];
}

export type SectionStatus = 'added' | 'removed' | 'renamed' | 'moved' | 'modified';

export interface SectionChange {
  status: SectionStatus;
  /** The section's path in the new version (in the old one when removed); empty for the document's own leaves. */
  path: string[];
  /** The path in the old version, when renamed or moved. */
  fromPath?: string[];
  /** A renamed section that also sits elsewhere (another parent, or another place among its siblings). */
  moved?: boolean;
  /** Its own paragraphs, tables and images that changed (all of them when added or removed). */
  leaves: LeafChange[];
}

export interface ChangeCounts {
  added: number;
  removed: number;
  changed: number;
}

export interface DiffSummary {
  sections: { added: number; removed: number; renamed: number; moved: number; modified: number };
  paragraphs: ChangeCounts;
  tables: ChangeCounts;
  images: ChangeCounts;
}

/** What changed between two versions of a document, keyed by section path, in the new version's order. */
export interface DocumentDiff {
  documentId: string;
  key: string;
  from: { version: number; title: string };
  to: { version: number; title: string };
  summary: DiffSummary;
  sections: SectionChange[];
}
