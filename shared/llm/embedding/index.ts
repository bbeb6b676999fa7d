export { BatchingEmbedder, type BatchingOptions, type BatchingStats } from './batching-embedder.ts';
export { chunks, isBlank, unitLength } from './vectors.ts';
