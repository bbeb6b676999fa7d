/**
 * The words the providers' label uses for the offline parts. The web page imports them to say those
 * parts in its own language (web/src/lib/server-text.ts); a model's name stays as it is.
 */

/** The label when neither a chat model nor an embedder is configured. */
export const OFFLINE_LABEL =
  'offline (extractive answers and summaries, hashing embeddings; no language model)';

/** The chat part of a label when no chat model is configured (and the embedder is). */
export const OFFLINE_CHAT_LABEL = 'offline (extractive answers and summaries; no language model)';

/** The embedder part of a label when the embedder is the offline one (and a chat model is configured). */
export const OFFLINE_EMBEDDER_LABEL = 'hashing embeddings';
