import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { vectorLiteral } from './vector-literal.ts';

/** Postgres `tsvector`; written from application-segmented text (see shared/text/segment.ts). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * pgvector `vector` without a fixed dimension, so one table holds any embedder's vectors; the HNSW
 * index is a partial expression index per (model, dimension), created when an embedder is first used.
 */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => 'vector',
  toDriver: vectorLiteral,
  fromDriver: (value) => JSON.parse(value) as number[],
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed' | 'deleted';
export type VersionStatus = 'processing' | 'ready' | 'failed';
export type NodeType = 'document' | 'section' | 'paragraph' | 'image' | 'table';

/** A document is identified by its key (its path in the bucket or its uploaded name). */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    filename: text('filename').notNull(),
    fileType: text('file_type').notNull().default('unknown'),
    currentVersion: integer('current_version'),
    status: text('status').$type<DocumentStatus>().notNull().default('queued'),
    /** The pipeline step in progress, or the reason of the last failure. */
    statusDetail: text('status_detail'),
    /** The kind of the last failure (`unsupported_document`, `timeout`, ...: failureCode), for clients to say in their language. */
    failureCode: text('failure_code'),
    /** Who may read it (shared/access): named by its key (`collectionOfKey`) when it is created. */
    collection: text('collection').notNull().default('default'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('documents_live_key').on(t.key).where(sql`${t.deletedAt} is null`),
    index('documents_collection').on(t.collection),
    // Crash recovery's documents left queued (see document_versions_processing).
    index('documents_queued').on(t.updatedAt).where(sql`${t.status} = 'queued' and ${t.deletedAt} is null`),
  ],
);

export const documentVersions = pgTable(
  'document_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    fileHash: text('file_hash').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    fileType: text('file_type').notNull(),
    /** The original object in the bucket. */
    objectKey: text('object_key').notNull(),
    /** The Markdown rendition written at parse time. */
    markdownKey: text('markdown_key'),
    /**
     * The version's title (its document node's), written at parse time: a question's route reads
     * every live document's name from one join instead of a document node each (~12 s at 50,000
     * documents). Null for versions parsed before it was recorded (the node is read for those).
     */
    title: text('title'),
    status: text('status').$type<VersionStatus>().notNull().default('processing'),
    step: text('step'),
    error: text('error'),
    /** The kind of `error` (failureCode), for clients to say in their language. */
    errorCode: text('error_code'),
    stats: jsonb('stats').$type<Record<string, number>>().notNull().default({}),
    /**
     * What did not stop the version but a reader should know, in words: the parser's warnings and
     * the images' (text left out below the OCR confidence floor, an image that could not be read).
     */
    warnings: text('warnings').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The order of the write that produced this content: the S3 event's `sequencer`, or the local
     * upload's, normalized to fixed-width hex so text order is write order. An event older than the
     * latest version's never creates a version.
     */
    sequencer: text('sequencer'),
    /**
     * Every distinct search token of the version (its nodes' tsvectors, without positions), written
     * at the Topics step: document frequencies for the offline topic keywords are read from one row
     * per document (of a bounded sample) instead of from every matching node.
     */
    terms: tsvector('terms'),
    /**
     * The `ANALYZER_VERSION` its nodes' search vectors were built with; null: indexed before it was
     * recorded. An older one is re-analysed when the runtime opens the database (`reanalyseStale`).
     */
    analyzerVersion: integer('analyzer_version'),
    /**
     * What changed since the previous ready version, in a few sentences: written at the Summarize
     * step by the chat model, or extracted from the version diff offline. Null for a first version.
     */
    changeSummary: text('change_summary'),
    /**
     * Offline topics: the normalised keys of the version's best key phrases (beyond the topics it is
     * linked to), so a topic a later document brings links this one too when it is among them.
     */
    topicPhrases: text('topic_phrases').array(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('document_versions_doc_version').on(t.documentId, t.version),
    // No pending list: nothing vacuums an embedded database, and every search scanned the list
    // of entries not yet merged (up to 4 MB), growing with each document's kept phrases.
    index('document_versions_topic_phrases').using('gin', t.topicPhrases).with({ fastupdate: false }),
    // Crash recovery at every start reads the versions left processing: without it, every version
    // (~0.2 s at 10,000 documents on a cold embedded database).
    index('document_versions_processing').on(t.createdAt).where(sql`${t.status} = 'processing'`),
  ],
);

export const nodes = pgTable(
  'nodes',
  {
    id: uuid('id').primaryKey(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    parentId: uuid('parent_id'),
    nodeType: text('node_type').$type<NodeType>().notNull(),
    depth: integer('depth').notNull(),
    title: text('title'),
    content: text('content'),
    summary: text('summary'),
    /** Position among siblings. */
    position: integer('position').notNull(),
    /** Position in reading order over the whole document (0 = the document node). */
    ordinal: integer('ordinal').notNull(),
    category: text('category'),
    /** The text that was segmented and embedded (content with its context). */
    indexText: text('index_text'),
    searchVector: tsvector('search_vector'),
    /** Number of word terms in the indexed text: the BM25 document length of the word field. */
    tokenCount: integer('token_count').notNull().default(0),
    /** Number of CJK character unigrams and bigrams: the BM25 document length of the gram field. */
    gramCount: integer('gram_count').notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('nodes_doc_version_ordinal').on(t.documentId, t.version, t.ordinal),
    index('nodes_parent').on(t.parentId),
    index('nodes_search_vector').using('gin', t.searchVector),
    // Keyword search matches the index text: a leaf's section path and content (exact, regex, fuzzy).
    index('nodes_index_text_trgm').using('gin', t.indexText.op('gin_trgm_ops')),
  ],
);

export const embeddings = pgTable(
  'embeddings',
  {
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    dimensions: integer('dimensions').notNull(),
    embedding: vector('embedding').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.nodeId, t.model] })],
);

export const topics = pgTable('topics', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  description: text('description'),
  embedding: vector('embedding'),
  /** The embedder of `embedding`: topics are compared only with vectors of the same model. */
  embeddingModel: text('embedding_model'),
  createdAt: createdAt(),
});

/**
 * One row counting the changes to `topics` (a trigger adds one per row written, at commit): a
 * process that mirrors the topics in memory reads it to know whether its mirror is still the table
 * (shared/enrich/topics/topic-mirror.ts).
 */
export const topicGeneration = pgTable('topic_generation', {
  id: boolean('id').primaryKey().default(true),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});

export const documentTopics = pgTable(
  'document_topics',
  {
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    confidence: doublePrecision('confidence').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.topicId] }),
    // Whether a topic still has documents (orphans, a document's weakest unshared topic).
    index('document_topics_topic').on(t.topicId),
  ],
);

export const images = pgTable('images', {
  id: uuid('id').primaryKey().defaultRandom(),
  nodeId: uuid('node_id')
    .notNull()
    .references(() => nodes.id, { onDelete: 'cascade' }),
  objectKey: text('object_key').notNull(),
  filename: text('filename').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull().default(0),
  width: integer('width'),
  height: integer('height'),
  ocrText: text('ocr_text'),
  description: text('description'),
  error: text('error'),
  createdAt: createdAt(),
});

/**
 * A conversation: the turns (`qa_history` rows) asked one after another, so that a follow-up is
 * read with what was asked before. `owner` is the signed-in user (the Cognito subject in AWS); null
 * on the local server, which has one user. `filters` are the topic, document and version filters in
 * force, carried over to the next turn until a request changes them.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    owner: text('owner'),
    title: text('title').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_owner_updated').on(t.owner, t.updatedAt)],
);

export const qaHistory = pgTable(
  'qa_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    mode: text('mode').notNull(),
    answer: text('answer').notNull(),
    response: jsonb('response').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('qa_history_conversation_created').on(t.conversationId, t.createdAt)],
);

/**
 * One token bucket per user for asking (shared/api/ask-throttle.ts): `tokens` left as of
 * `updatedMs` (epoch milliseconds), refilled continuously; `allowed` is whether the last take got one.
 */
export const askThrottle = pgTable('ask_throttle', {
  subject: text('subject').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updatedMs: bigint('updated_ms', { mode: 'number' }).notNull(),
  allowed: boolean('allowed').notNull(),
});
