import { z } from 'zod';
import { askRequestSchema } from '../qa/request.ts';
import { qaTableSchema } from '../qa/response.ts';
import { summarizeRequestSchema } from '../qa/summarize/request.ts';
import { conversationListQuery } from './routes/conversations.ts';
import { historyListQuery } from './routes/history.ts';
import { imageQuery } from './routes/images.ts';
import { searchQuery } from './routes/search.ts';
import {
  diffQuery,
  documentListQuery,
  structureQuery,
  topicListQuery,
  topicMergeBody,
  uploadUrlBody,
} from './schemas/documents.ts';

type Schema = Record<string, unknown>;

const jsonSchema = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: 'input' }) as Schema;
const json = (schema: z.ZodType) => ({ 'application/json': { schema: jsonSchema(schema) } });

/** Query parameters generated from the zod schema the route validates with. */
function queryParameters(schema: z.ZodObject): Schema[] {
  const object = jsonSchema(schema) as { properties?: Record<string, Schema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) === true && property.default === undefined,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const ERROR = {
  description:
    'An error: { "error": { "code": "...", "message": "...", "reason"?: "...", "params"?: {...} } } (reason and params: docs/api.md#errors)',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            properties: {
              code: { type: 'string' },
              message: { type: 'string' },
              reason: { type: 'string' },
              params: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
            },
            required: ['code', 'message'],
          },
        },
      },
    },
  },
};
const responses = (description: string, status = 200) => ({
  [status]: { description },
  400: ERROR,
  404: ERROR,
  500: ERROR,
});
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];

/** The OpenAPI 3.1 description served at `/api/openapi.json`, generated from the routes' schemas. */
/** Past the user's `limits.askRate` (shared/api/ask-throttle.ts). */
const RATE_LIMITED = {
  description:
    'error code rate_limited: past the per-user limits.askRate; Retry-After says how many seconds to wait',
  headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds until the next question' } },
  content: ERROR.content,
};

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'DropQA API',
      version: '0.1.0',
      description:
        'Errors are JSON: { "error": { "code": "...", "message": "..." } }. Lists answer { items, total, limit, offset }.',
    },
    paths: {
      '/api/documents/upload': {
        post: {
          summary:
            'Upload one or more documents (multipart field "files"); each is ingested in the background',
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
                },
              },
            },
          },
          responses: {
            ...responses('{ success, documents: [{ id, key, filename, status: "queued" }] }'),
            413: ERROR,
            507: {
              description: 'error code insufficient_storage: the server is out of disk space',
              content: ERROR.content,
            },
          },
        },
      },
      '/api/documents/upload-url': {
        post: {
          summary: 'A presigned direct-upload URL (S3 bucket); ingestion starts on the bucket event',
          requestBody: { content: json(uploadUrlBody) },
          responses: {
            ...responses('{ supported: true, key, url, method: "PUT", headers (send exactly), expiresAt }'),
            501: {
              description: '{ supported: false, error } when the bucket (a local folder) cannot presign',
            },
          },
        },
      },
      '/api/documents': {
        get: {
          summary:
            'List documents with their status (queued, processing + step, ready, failed + reason, deleted)',
          parameters: queryParameters(documentListQuery),
          responses: responses('{ items: Document[], total, limit, offset }'),
        },
      },
      '/api/documents/{id}': {
        get: {
          summary:
            'Document detail with versions and topics; an e-mail lists its attachments (documents of their own), an attachment names its message',
          parameters: idParam,
          responses: responses(
            'The document with versions, topics, attachments: [{ id, filename, fileType, status }] and message: { id, filename } | null',
          ),
        },
        delete: {
          summary:
            "Delete a document: out of search and topics at once, blobs removed; an e-mail's attachments are deleted with it",
          parameters: idParam,
          responses: responses('{ success, id }'),
        },
      },
      '/api/documents/{id}/versions': {
        get: {
          summary: 'Versions with status, hash, size, dates and stats',
          parameters: idParam,
          responses: responses('{ versions }'),
        },
      },
      '/api/documents/{id}/reindex': {
        post: {
          summary: 'Re-run the pipeline on the stored object; a new version only if the result differs',
          parameters: idParam,
          responses: responses('{ success, id, key, status: "queued" }', 202),
        },
      },
      '/api/documents/{id}/structure': {
        get: {
          summary:
            "The section tree of a version (default: current) with the document's metadata (an e-mail's from / to / cc / date)",
          parameters: [...idParam, ...queryParameters(structureQuery)],
          responses: responses('The tree'),
        },
      },
      '/api/documents/{id}/sections/{section}/leaves': {
        get: {
          summary: "A section's own paragraphs, tables and images (the text the document view shows)",
          parameters: [
            ...idParam,
            { name: 'section', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
          ],
          responses: responses('{ items: [{ id, kind, content }] }'),
        },
      },
      '/api/documents/{id}/diff': {
        get: {
          summary:
            'What changed between two versions (default: previous vs current), keyed by section path: sections added, removed, renamed or moved; paragraphs, tables and images added, removed or changed, with word-level changes',
          parameters: [...idParam, ...queryParameters(diffQuery)],
          responses: responses(
            '{ documentId, key, from, to, summary, sections: [{ status, path, fromPath?, leaves }] }',
          ),
        },
      },
      '/api/watch': {
        get: {
          summary: 'Watched folders (local only): document counts, pending files, last sync, last error',
          responses: responses(
            '{ running, ready, rules: { symlinks: "not followed", maxFileBytes, quietMs }, folders: [{ directory, prefix, documents, pending, lastSync, lastError }] }',
          ),
        },
        post: {
          summary:
            "Follow one more folder until the server stops (`dropqa watch`); needs the control key of the server's lock file",
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['directory'],
                  properties: { directory: { type: 'string' } },
                },
              },
            },
          },
          responses: responses('The folder as GET lists it'),
        },
      },
      '/api/topics': {
        get: {
          summary:
            'List topics by live document count (shared topics first; topics of deleted documents only are left out)',
          parameters: queryParameters(topicListQuery),
          responses: responses('{ items: [{ id, name, description, documentCount }], total, limit, offset }'),
        },
      },
      '/api/topics/{id}': {
        get: {
          summary: 'Topic detail with its documents',
          parameters: idParam,
          responses: responses('{ id, name, description, documentCount, documents }'),
        },
      },
      '/api/topics/{id}/documents': {
        get: {
          summary: "A topic's documents",
          parameters: [...idParam, ...queryParameters(topicListQuery.omit({ q: true }))],
          responses: responses('{ items: Document[], total, limit, offset }'),
        },
      },
      '/api/topics/merge': {
        post: {
          summary: 'Merge topics: the sources are folded into the target',
          requestBody: { content: json(topicMergeBody) },
          responses: responses('The target topic'),
        },
      },
      '/api/search': {
        get: {
          summary: 'Search paragraphs',
          parameters: queryParameters(searchQuery),
          responses: responses('{ query, kind, took_ms, results: SearchHit[] }'),
        },
      },
      '/api/qa/ask': {
        post: {
          summary: 'Ask a question; the answer streams as Server-Sent Events (see docs/events.md)',
          requestBody: { content: json(askRequestSchema) },
          responses: {
            ...responses(
              "text/event-stream of meta, rewrite, progress, trace, delta, references, usage, done, error (404: an unknown or another user's conversation_id); a table answer's done response carries `table` (components.schemas.QaTable), the rows it used",
            ),
            429: RATE_LIMITED,
          },
        },
      },
      '/api/qa/summarize': {
        post: {
          summary: 'Summarize a document or a topic; streams Server-Sent Events like /api/qa/ask',
          requestBody: { content: json(summarizeRequestSchema) },
          responses: {
            ...responses('text/event-stream of meta, delta, usage, done, error'),
            429: RATE_LIMITED,
          },
        },
      },
      '/api/qa/history': {
        get: {
          summary: 'Past questions with their answers, modes and sources',
          parameters: queryParameters(historyListQuery),
          responses: responses('{ items, total }'),
        },
      },
      '/api/qa/conversations': {
        get: {
          summary: "The user's conversations, latest activity first, with their turn counts",
          parameters: queryParameters(conversationListQuery),
          responses: responses(
            '{ items: [{ id, title, created_at, updated_at, turns }], total, limit, offset }',
          ),
        },
      },
      '/api/qa/conversations/{id}': {
        get: {
          summary:
            'A conversation with its turns (answers, modes, sources, rewrites) and carried-over filters',
          parameters: idParam,
          responses: responses('{ id, title, filters, created_at, updated_at, turns: HistoryEntry[] }'),
        },
        delete: {
          summary: 'Delete a conversation and its turns',
          parameters: idParam,
          responses: responses('{ success: true, id }'),
        },
      },
      '/api/qa/history/{id}': {
        get: { summary: 'One past answer', parameters: idParam, responses: responses('A history entry') },
      },
      '/api/v1/documents/{id}/images': {
        get: {
          summary:
            "A document's images (current or given version) in reading order: file name, type, size, page or slide, section (id and title path), OCR text, description and the URL serving it",
          parameters: [...idParam, ...queryParameters(imageQuery)],
          responses: responses('{ documentId, version, items: DocumentImage[] }'),
        },
      },
      '/api/v1/documents/{id}/images/{filename}': {
        get: {
          summary: "An image of a document's current (or given) version, with its media type",
          parameters: [
            ...idParam,
            {
              name: 'filename',
              in: 'path',
              required: true,
              schema: { type: 'string', example: 'img_001.png' },
            },
            ...queryParameters(imageQuery),
          ],
          responses: responses('The image bytes'),
        },
      },
      '/api/status': {
        get: {
          summary: 'Providers in force, document counts and the file types read',
          responses: responses(
            '{ providers, documents: { byStatus, byType }, readableTypes: [{ type, extensions }] }',
          ),
        },
      },
      '/api/health': { get: { summary: 'Liveness', responses: responses('{ ok: true }') } },
    },
    components: { schemas: { QaTable: jsonSchema(qaTableSchema) } },
  };
}
