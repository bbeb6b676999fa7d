import { activate } from './steps/activate.ts';
import { describeImages } from './steps/describe-image.ts';
import { markFailed } from './steps/mark-failed.ts';
import { parse } from './steps/parse.ts';
import { register } from './steps/register.ts';
import { summarize } from './steps/summarize.ts';
import { topics } from './steps/topics.ts';
import type { StepHandlers } from './types.ts';

/** The step behind each Task state of the definition (the Lambda handlers call the same functions). */
export const STEPS: StepHandlers = {
  Register: register,
  Parse: parse,
  DescribeImage: describeImages,
  Summarize: summarize,
  Topics: topics,
  Activate: activate,
  MarkFailed: markFailed,
};
