import { and, eq, isNull, sql } from 'drizzle-orm';
import { collectionOfKey } from '../../access/collection-of-key.ts';
import { schema } from '../../db/index.ts';
import { normalizeSequencer } from '../../documents/sequencer.ts';
import { getVersion, startStep } from '../../documents/versions.ts';
import { findOrCreateDocument, latestVersion, settleDocumentStatus } from '../../documents/write.ts';
import { NotFoundError, UnsupportedDocumentError } from '../../errors.ts';
import { detectFileType } from '../../parse/detect.ts';
import { assertSafeKey } from '../../storage/keys.ts';
import { formatBytes } from '../../text/format-bytes.ts';
import { type PipelineInput, parseStepInput, pipelineInputSchema, type RegisterOutput } from '../contract.ts';
import type { PipelineDeps } from '../types.ts';
import { contentHash, sameContent } from '../unchanged.ts';

const { documents, documentVersions } = schema;

/** Versions are numbered per document; two writers racing for n+1 retry this often at most. */
const MAX_VERSION_ATTEMPTS = 5;

/**
 * Register: reads the object, hashes it, detects its real type and finds or creates its live
 * document. Same bytes as the latest version: `unchanged`, nothing written. Otherwise version n+1,
 * `processing` (`created`) or, for a file that cannot be ingested (too large, empty, binary, not
 * UTF-8), `failed` with the reason (`rejected`): each bad file gets its error on its own document.
 * Duplicate or concurrent registrations of the same bytes yield one version; an execution whose
 * `sequencer` is older than the latest version's creates nothing (`unchanged`, `stale`), so a late
 * S3 event never puts older content over newer. With `resumeVersion` (crash recovery) the existing
 * `processing` version goes on.
 *
 * @example await register({ key: 'uploads/a.md' }, deps) // { documentId, version: 1, outcome: 'created' }
 */
export async function register(raw: unknown, deps: PipelineDeps): Promise<RegisterOutput> {
  const input: PipelineInput = parseStepInput(pipelineInputSchema, raw, 'Register');
  assertSafeKey(input.key);
  const { db, store, config } = deps;
  if (input.resumeVersion !== undefined) return resume(input, deps);
  const filename = input.key.slice(input.key.lastIndexOf('/') + 1);
  // Checked first: an event for an object deleted since must not create a document.
  const head = await store.head(input.key);
  if (!head) throw new NotFoundError(`${filename}: the object ${input.key} does not exist`);
  const doc = await findOrCreateDocument(db, {
    key: input.key,
    filename,
    collection: collectionOfKey(input.key, config.collections),
    documentId: input.documentId,
  });
  let bytes: Uint8Array | undefined;
  let hash = '';
  let fileType = 'unknown';
  let reason: string | undefined;
  /** The kind of `reason` (docs/lifecycle.md): the file is over the limit, or not a readable type. */
  let kind: 'file_too_large' | 'unsupported_document' | undefined;
  const limit = config.limits.maxFileBytes;
  if (head.size > limit) {
    // Too large to read: no hash, so a later upload under this key is never mistaken for it.
    reason = `${doc.filename}: the file is ${formatBytes(head.size)}, above the ${formatBytes(limit)} limit (limits.maxFileBytes)`;
    kind = 'file_too_large';
  } else {
    bytes = await store.get(input.key);
    hash = contentHash(bytes);
    try {
      fileType = detectFileType(bytes, doc.filename);
    } catch (error) {
      if (!(error instanceof UnsupportedDocumentError)) throw error;
      reason = error.message;
      kind = 'unsupported_document';
    }
  }

  const sequencer = input.sequencer === undefined ? undefined : normalizeSequencer(input.sequencer);
  // A lost race for number n+1 (unique per document) re-reads the latest version: so the sequencer
  // check and the insert act as one, even across connections.
  let latest = doc.latest;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) latest = await latestVersion(db, doc.id);
    if (latest && sequencer && latest.sequencer && sequencer < latest.sequencer) {
      // S3 delivers unordered: the write this event announces was overtaken by a newer one, whose
      // own event brings (or brought) the newer content. Nothing older may become a new version.
      await settleDocumentStatus(db, doc.id);
      return { documentId: doc.id, version: latest.version, outcome: 'unchanged', stale: true };
    }
    if (latest && sameContent(latest, hash) && !input.force) {
      await settleDocumentStatus(db, doc.id);
      // Resubmitting the bytes of a failed version does not hide its failure behind "unchanged".
      const reason = latest.status === 'failed' ? (latest.error ?? 'the previous attempt failed') : undefined;
      return {
        documentId: doc.id,
        version: latest.version,
        outcome: 'unchanged',
        ...(reason ? { reason } : {}),
      };
    }
    const version = (latest?.version ?? 0) + 1;
    const now = new Date();
    const inserted = db.$with('inserted').as(
      db
        .insert(documentVersions)
        .values({
          documentId: doc.id,
          version,
          fileHash: hash,
          fileSize: head.size,
          fileType,
          objectKey: input.key,
          sequencer: sequencer ?? null,
          status: reason ? 'failed' : 'processing',
          step: 'register',
          error: reason ?? null,
          errorCode: kind ?? null,
          completedAt: reason ? now : null,
        })
        .onConflictDoNothing()
        .returning({ version: documentVersions.version }),
    );
    // In the same statement, a version that goes on marks its document `processing`.
    const processing = db.$with('processing').as(
      db
        .update(documents)
        .set({ status: 'processing', statusDetail: 'register', failureCode: null, fileType, updatedAt: now })
        .where(and(eq(documents.id, doc.id), sql`${!reason} AND EXISTS (SELECT 1 FROM ${inserted})`)),
    );
    const [created] = await db.with(inserted, processing).select().from(inserted);
    if (!created) {
      if (attempt >= MAX_VERSION_ATTEMPTS)
        throw new Error(`Could not create a new version of ${input.key}: too many concurrent writers`);
      continue;
    }
    if (reason) {
      await settleDocumentStatus(db, doc.id);
      return { documentId: doc.id, version, outcome: 'rejected', reason };
    }
    return { documentId: doc.id, version, outcome: 'created' };
  }
}

/**
 * Crash recovery: the version left `processing` goes on from Parse (every later step replaces what
 * an interrupted attempt wrote). A version that settled meanwhile is reported `unchanged`.
 */
async function resume(input: PipelineInput, deps: PipelineDeps): Promise<RegisterOutput> {
  const [doc] = await deps.db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        input.documentId ? eq(documents.id, input.documentId) : eq(documents.key, input.key),
        eq(documents.key, input.key),
        isNull(documents.deletedAt),
      ),
    );
  if (!doc) throw new NotFoundError(`No live document for key ${input.key} to resume`);
  const ref = { documentId: doc.id, version: input.resumeVersion ?? 0 };
  const version = await getVersion(deps.db, ref);
  if (version.status !== 'processing') return { ...ref, outcome: 'unchanged' };
  await startStep(deps.db, ref, 'register');
  return { ...ref, outcome: 'created' };
}
