/** Shapes of the HTTP API (docs/api.md, docs/events.md) as the client reads them. */

export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed' | 'deleted';

export interface DocumentSummary {
  id: string;
  key: string;
  filename: string;
  fileType: string;
  status: DocumentStatus;
  statusDetail: string | null;
  currentVersion: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface VersionSummary {
  version: number;
  status: string;
  step: string | null;
  error: string | null;
  fileHash: string;
  fileSize: number;
  fileType: string;
  stats: Record<string, number>;
  createdAt: string;
  completedAt: string | null;
}

export interface TopicSummary {
  id: string;
  name: string;
  description: string | null;
  documentCount: number;
}

export interface DocumentDetail extends DocumentSummary {
  versions: VersionSummary[];
  topics: { id: string; name: string; confidence?: number }[];
}

export interface NodeCounts {
  sections: number;
  paragraphs: number;
  tables: number;
  images: number;
}

export interface StructureSection {
  id: string;
  title: string;
  summary: string | null;
  depth: number;
  position: number;
  ordinal: number;
  category: string | null;
  counts: NodeCounts;
  children: StructureSection[];
}

export interface DocumentStructure {
  documentId: string;
  filename: string;
  version: number;
  title: string;
  summary: string | null;
  counts: NodeCounts;
  sections: StructureSection[];
}

export interface StatusInfo {
  providers: { label: string; chat: string; embedder: { model: string; dimensions: number } };
  documents: { byStatus: Record<string, number>; byType: Record<string, number> };
}

export type QaMode = 'auto' | 'agent' | 'two-stage' | 'documents';
export type Confidence = 'high' | 'medium' | 'low';

export interface QaSource {
  citation: number;
  document_id: string;
  document_name: string;
  section: string;
  snippet: string;
  relevance: number;
  node_id: string;
  version: number;
  verified?: boolean;
}

/** A documents-mode reference (seed 004 §2.4.3). */
export interface DocumentReference {
  ref_id: string;
  doc_id: string;
  doc_name: string;
  chunk_type: 'text' | 'image';
  content?: string;
  image_url?: string;
  version: number;
  verified?: boolean;
}

export interface TraceStep {
  step: number;
  type: 'thought' | 'action' | 'observation';
  content: string;
  tool?: string;
}

export interface QaResponse {
  answer: string;
  confidence: Confidence;
  sources: QaSource[];
  identified_topics: string[];
  mode: string;
  requested_mode: string;
  reasoning_steps?: number;
  iterations?: number;
  unverified_quotes?: string[];
  reasoning_trace?: TraceStep[];
  provider: string;
  version?: number;
  history_id?: string;
  references?: DocumentReference[];
}

export interface HistoryItem {
  id: string;
  question: string;
  mode: string;
  answer: string;
  response: Partial<QaResponse>;
  createdAt: string;
}
