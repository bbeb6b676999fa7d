/**
 * Shapes of the HTTP API (docs/api.md, docs/events.md) as the client reads them: the server's own
 * types, imported type-only (erased from the bundle) so that the two cannot drift apart.
 */
import type { DocumentImage, DocumentImages } from '#shared/api/routes/document-images.ts';
import type { DocumentDiff, LeafChange, SectionChange, WordChange } from '#shared/diff/types.ts';
import type { AttachedDocument } from '#shared/documents/attachments.ts';
import type {
  DocumentTopic,
  DocumentSummary as ServerDocumentSummary,
  VersionSummary as ServerVersionSummary,
} from '#shared/documents/queries.ts';
import type { TopicSummary } from '#shared/documents/topics.ts';
import type { DocumentReference } from '#shared/qa/documents/references.ts';
import type { QaMode } from '#shared/qa/request.ts';
import type { Confidence, QaResponse, QaSource, QaTable, TraceStep } from '#shared/qa/response.ts';
import type { DocumentStructure, NodeCounts, StructureSection } from '#shared/search/structure.ts';
import type { WatchFolderStatus, WatchStatus } from '#shared/watch/types.ts';

export type {
  Confidence,
  DocumentDiff,
  DocumentImage,
  DocumentImages,
  DocumentReference,
  DocumentStructure,
  LeafChange,
  NodeCounts,
  QaMode,
  QaResponse,
  QaSource,
  QaTable,
  SectionChange,
  StructureSection,
  TopicSummary,
  TraceStep,
  WatchFolderStatus,
  WatchStatus,
  WordChange,
};

/** An API error as it arrives: `{ code, message, reason?, params? }` (docs/api.md#errors). */
export interface ServerError {
  code: string;
  message: string;
  reason?: string;
  params?: Record<string, string | number>;
}

/** A server type as it arrives in JSON: dates are ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

export type DocumentSummary = Json<ServerDocumentSummary>;
export type DocumentStatus = DocumentSummary['status'];
export type VersionSummary = Json<ServerVersionSummary>;

/** `GET /api/documents/{id}`. */
export interface DocumentDetail extends DocumentSummary {
  versions: VersionSummary[];
  topics: DocumentTopic[];
  /** An e-mail's attachments, each a document of its own. */
  attachments: AttachedDocument[];
  /** The e-mail this document was attached to. */
  message: { id: string; filename: string } | null;
}

/** Every paged list: `{ items, total, limit, offset }`. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/** `GET /api/status` (shared/api/routes/meta.ts). */
export interface StatusInfo {
  providers: { label: string; chat: string; embedder: { model: string; dimensions: number } };
  documents: { byStatus: Record<string, number>; byType: Record<string, number> };
  /** The file types the server reads, each with the extensions that promise it. */
  readableTypes?: ReadableType[];
  /** The collections the asker may read, with their live documents (docs/collections.md). */
  collections?: CollectionInfo[];
}

/** One collection of `GET /api/status`. */
export interface CollectionInfo {
  name: string;
  documents: number;
}

/** One type of `readableTypes`: `{ type: 'docx', extensions: ['.docx', '.docm', ...] }`. */
export interface ReadableType {
  type: string;
  extensions: readonly string[];
}

/** `GET /api/qa/conversations` items (shared/api/routes/conversations.ts). */
export interface ConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: number;
}

/** `GET /api/qa/conversations/{id}`: the conversation with its turns as history entries. */
export interface ConversationDetail {
  id: string;
  title: string;
  filters: { topic_filter?: string[]; document_ids?: string[]; version?: number };
  turns: HistoryItem[];
}

/** `GET /api/qa/history` items (shared/api/routes/history.ts): the stored row and its response. */
export interface HistoryItem {
  id: string;
  question: string;
  mode: string;
  answer: string;
  response: Partial<QaResponse>;
  createdAt: string;
}
