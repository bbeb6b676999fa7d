import type { PipelineRunner } from '#shared/pipeline/runner.ts';
import type { StartPipeline } from '../lib/start-execution.ts';

/**
 * The pipeline runner of the HTTP function. In AWS an object written to the bucket starts its own
 * execution through its S3 event, so an upload starts nothing here (a second execution would race the
 * event's); a reindex (`force`), which writes nothing, starts its execution on the state machine.
 * Neither is awaited: an execution outlives the request, and the document's status reports it.
 */
export function eventDrivenRunner(start: StartPipeline): PipelineRunner {
  return {
    async run(input) {
      if (input.force) await start(input);
      return { documentId: input.documentId, status: 'unchanged' };
    },
    idle: async () => {},
  };
}
