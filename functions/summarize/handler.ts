import { summarize } from '#shared/pipeline/steps/summarize.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state Summarize: section and document summaries, then embeddings. */
export const handler = stepHandler('Summarize', summarize);
