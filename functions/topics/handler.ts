import { topics } from '#shared/pipeline/steps/topics.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state Topics: extract topics and link the document. */
export const handler = stepHandler('Topics', topics);
