import type { Providers } from '#shared/llm/types.ts';
import type { SearchDeps } from '#shared/search/types.ts';

/** What the question-answering flows need: search over the database, and the providers in force. */
export type QaDeps = SearchDeps & { providers: Providers };
