import { parse } from '#shared/pipeline/steps/parse.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state Parse: object -> document tree -> nodes; images and the Markdown rendition to the bucket. */
export const handler = stepHandler('Parse', parse);
