import { z } from 'zod';
import { COLLECTION_NAME } from '../../access/collection-name.ts';
import { MAX_INT4, versionNumber } from '../../search/version-number.ts';

/** `?collection=` on lists, search and ask: the name of one collection (shared/access). */
export const collectionName = z.string().regex(COLLECTION_NAME, 'a collection name: a-z, 0-9, - and _');

/** `{id}` in every document and topic path. */
export const idParam = z.object({ id: z.uuid() });

const page = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('Page size (at most 200)'),
  offset: z.coerce.number().int().min(0).max(MAX_INT4).default(0).describe('Items to skip'),
};

/** `{id}/sections/{section}` paths: the document and one of its section nodes. */
export const sectionParam = z.object({ id: z.uuid(), section: z.uuid() });

/** `GET /api/documents`: pagination and filters. */
export const documentListQuery = z.object({
  ...page,
  status: z
    .enum(['queued', 'processing', 'ready', 'failed', 'deleted'])
    .optional()
    .describe('Only documents in this state (`deleted` lists deleted ones with their history)'),
  name: z.string().max(500).optional().describe('Part of the file name or key, any case'),
  q: z.string().max(500).optional().describe('Same as name'),
  type: z
    .string()
    .regex(/^[a-z0-9]{1,16}$/)
    .optional()
    .describe('Detected file type: md, txt, docx, pptx, xlsx, pdf, ...'),
  topic: z.uuid().optional().describe('Only documents linked to this topic'),
  collection: collectionName.optional().describe('Only documents of this collection'),
});

/** `GET /api/documents/{id}/structure`. */
export const structureQuery = z.object({
  version: versionNumber.optional().describe('A version number; default the current one'),
});

/** `GET /api/documents/{id}/diff`. */
export const diffQuery = z.object({
  from: versionNumber.optional().describe('The old version; default the ready version before `to`'),
  to: versionNumber.optional().describe('The new version; default the current one'),
});

/** `POST /api/documents/upload-url`: what the client is about to upload. */
export const uploadUrlBody = z.object({
  filename: z.string().trim().min(1).max(500),
  contentType: z.string().max(200).optional(),
  size: z.number().int().positive().describe('Bytes; checked against limits.maxFileBytes'),
  collection: collectionName
    .optional()
    .describe('Upload into this collection (stored under collections/<name>/)'),
});

/** `GET /api/topics` and `GET /api/topics/{id}/documents`. */
export const topicListQuery = z.object({
  ...page,
  q: z.string().max(200).optional().describe('Part of the topic name, any case'),
});

/** `POST /api/topics/merge`: the sources are folded into the target. */
export const topicMergeBody = z.object({
  sourceIds: z.array(z.uuid()).min(1).max(100),
  targetId: z.uuid(),
});
