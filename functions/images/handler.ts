import { describeImage } from '#shared/pipeline/steps/describe-image.ts';
import { stepHandler } from '../lib/step-handler.ts';

/** Task state DescribeImage (one iteration of the Images map): OCR and a description of one image. */
export const handler = stepHandler('DescribeImage', describeImage);
