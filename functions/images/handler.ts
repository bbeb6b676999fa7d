import { describeImages } from '#shared/pipeline/steps/describe-image.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state DescribeImage (looped by the Images choice): OCR and descriptions of the next images. */
export const handler = stepHandler('DescribeImage', describeImages);
