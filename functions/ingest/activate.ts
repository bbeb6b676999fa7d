import { activate } from '#shared/pipeline/steps/activate.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state Activate: make the version current and the document ready, in one transaction. */
export const handler = stepHandler('Activate', activate);
