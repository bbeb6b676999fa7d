export { summarizeVersion } from './summaries.ts';
