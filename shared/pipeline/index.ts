export type * from './asl.ts';
export { BULK_MIN_FILES, type BulkIndexWindow, createBulkIndexWindow } from './bulk-index.ts';
export {
  type ImagesCursor,
  type ImagesInput,
  type MarkFailedInput,
  type PipelineInput,
  pipelineInputSchema,
  type RegisterOutput,
  type StateError,
  type VersionRef,
} from './contract.ts';
export {
  localResources,
  pipelineDefinition,
  TASK_NAMES,
  type TaskName,
  TRANSIENT_ERRORS,
} from './definition.ts';
export { failureReason } from './failure-reason.ts';
export {
  createIngestService,
  type IngestFile,
  type IngestOutcome,
  type IngestService,
  type SubmittedFile,
} from './ingest.ts';
export { createPipelineRunner, type PipelineRunner, type PipelineRunnerOptions } from './runner.ts';
export { toStepError } from './step-error.ts';
export { STEPS } from './step-table.ts';
export * from './steps/index.ts';
export type { PipelineDeps, PipelineEvent, PipelineOutcome, Step, StepHandlers } from './types.ts';
