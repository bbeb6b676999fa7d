import { removeObject } from '#shared/documents/remove-object.ts';
import { queueReindex } from '#shared/documents/write.ts';
import { ValidationError } from '#shared/errors.ts';
import type { IngestOutcome, IngestService } from '#shared/pipeline/ingest.ts';
import { objectEventAction } from '#shared/pipeline/object-events.ts';
import { submitFiles } from '#shared/pipeline/submit.ts';
import type { PipelineDeps } from '#shared/pipeline/types.ts';
import { withDecodedKey } from '../lib/s3-event-key.ts';
import type { StartPipeline } from '../lib/start-execution.ts';

/**
 * Ingestion as the HTTP function sees it in AWS: the deployed state machine does the work, so
 * nothing here runs a pipeline (nor bundles one). An upload only writes the object and queues its
 * document: the object's S3 event starts the execution. A reindex, which writes nothing, starts
 * its execution itself. Outcomes are never awaited here: an execution outlives the request, and
 * the document's status reports it (`done` and event results say `unchanged` for "not known here").
 */
export function lambdaIngestService(deps: PipelineDeps, start: StartPipeline): IngestService {
  const notAwaited = (key: string, documentId: string): IngestOutcome => ({
    key,
    documentId,
    status: 'unchanged',
  });
  return {
    // Every file is queued: its S3 event starts the execution, whose Register tells "unchanged".
    submit: async (files) => (await submitFiles(deps, files)).submitted,
    async ingest() {
      throw new ValidationError(
        'In AWS, files are ingested by their S3 events: use submit and poll the documents',
      );
    },
    async reindex(documentId) {
      const doc = await queueReindex(deps.db, deps.store, documentId);
      await start({ key: doc.key, documentId, force: true });
      return {
        submitted: { key: doc.key, documentId, status: 'queued' },
        done: Promise.resolve(notAwaited(doc.key, documentId)),
      };
    },
    async handleObjectEvent(event) {
      const action = objectEventAction(withDecodedKey(event));
      if (action.kind === 'remove') return removeObject(deps.db, deps.store, action);
      await start(action.input);
      return { status: 'unchanged' };
    },
    // Step Functions owns executions in AWS: a stopped one ends by its timeout and Catch.
    recover: async () => ({ resumed: [], failed: [], requeued: [] }),
    idle: async () => {},
    // Executions run in Step Functions: the document's status is all this function knows.
    activity: () => null,
  };
}
