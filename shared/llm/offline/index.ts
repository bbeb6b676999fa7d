export { HASHING_EMBEDDER_MODEL, HashingEmbedder } from './hashing-embedder.ts';
