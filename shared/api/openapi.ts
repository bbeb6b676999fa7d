import { z } from 'zod';
import { askRequestSchema } from '../qa/request.ts';

const json = (schema: z.ZodType) => ({
  'application/json': { schema: z.toJSONSchema(schema, { io: 'input' }) },
});
const ok = (description: string) => ({ 200: { description } });
const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];

/** The OpenAPI 3.1 description served at `/api/openapi.json`. */
export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'DropQA API',
      version: '0.1.0',
      description: 'Errors are JSON: { "error": { "code": "...", "message": "..." } }.',
    },
    paths: {
      '/api/documents/upload': {
        post: {
          summary: 'Upload one or more documents (multipart field "files")',
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
          responses: ok('The documents created or updated, each with id and status'),
        },
      },
      '/api/documents': {
        get: {
          summary: 'List documents',
          parameters: ['limit', 'offset', 'status', 'q'].map((name) => ({
            name,
            in: 'query',
            schema: { type: 'string' },
          })),
          responses: ok('{ items, total }'),
        },
      },
      '/api/documents/{id}': {
        get: { summary: 'Document detail with versions', parameters: idParam, responses: ok('The document') },
        delete: { summary: 'Delete a document', parameters: idParam, responses: ok('Deleted') },
      },
      '/api/documents/{id}/versions': {
        get: {
          summary: 'Versions with status, hash, size, dates and stats',
          parameters: idParam,
          responses: ok('{ versions }'),
        },
      },
      '/api/documents/{id}/structure': {
        get: {
          summary: 'The section tree of a version (default: current)',
          parameters: idParam,
          responses: ok('The tree'),
        },
      },
      '/api/search': {
        get: {
          summary: 'Search paragraphs',
          parameters: [
            { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'kind', in: 'query', schema: { enum: ['keyword', 'fulltext', 'semantic', 'hybrid'] } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'version', in: 'query', schema: { type: 'integer' } },
            {
              name: 'document_ids',
              in: 'query',
              schema: { type: 'string', description: 'comma-separated uuids' },
            },
            { name: 'mode', in: 'query', schema: { enum: ['exact', 'regex', 'fuzzy'] } },
          ],
          responses: ok('{ query, kind, took_ms, results: SearchHit[] }'),
        },
      },
      '/api/qa/ask': {
        post: {
          summary: 'Ask a question; the answer streams as Server-Sent Events (see docs/events.md)',
          requestBody: { content: json(askRequestSchema) },
          responses: {
            200: {
              description:
                'text/event-stream of meta, progress, trace, delta, references, usage, done, error',
            },
          },
        },
      },
      '/api/qa/history': { get: { summary: 'Past questions and answers', responses: ok('{ items }') } },
      '/api/status': { get: { summary: 'Providers in force and document counts', responses: ok('Status') } },
      '/api/health': { get: { summary: 'Liveness', responses: ok('{ ok: true }') } },
    },
  };
}
