import { register } from '#shared/pipeline/steps/register.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state Register: hash the object, find or create its document, create version n+1 unless unchanged. */
export const handler = stepHandler('Register', register);
