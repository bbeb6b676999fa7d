export {
  type AnswerContext,
  type AnswerSentence,
  type ExtractiveAnswer,
  type ExtractiveAnswerOptions,
  extractiveAnswer,
  formatExtractiveAnswer,
  pickAnswerSentences,
} from './answer.ts';
export { type ExtractiveSummaryInput, extractiveSummary } from './extractive-summary.ts';
export { HASHING_EMBEDDER_MODEL, HashingEmbedder } from './hashing-embedder.ts';
export { splitSentences } from './sentences.ts';
