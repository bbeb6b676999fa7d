import { markFailed } from '#shared/pipeline/steps/mark-failed.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state MarkFailed: record the failure on the version; the previous version stays current. */
export const handler = stepHandler('MarkFailed', markFailed);
