import { z } from 'zod';
import type { KeywordMode, SearchKind } from './types.ts';
import { versionNumber } from './version-number.ts';

const KINDS = ['keyword', 'fulltext', 'semantic', 'hybrid'] as const satisfies readonly SearchKind[];
const KEYWORD_MODES = ['exact', 'regex', 'fuzzy'] as const satisfies readonly KeywordMode[];

/**
 * The options of a search as a user gives them (HTTP query parameters, CLI flags; strings are
 * coerced): kind (hybrid), limit (10, at most 100), keyword mode (exact) and version. The API route
 * and the `dropqa search` command both validate with it, so they accept the same values.
 *
 * @example searchOptionsSchema.parse({ kind: 'keyword', limit: '5' }) // { kind: 'keyword', limit: 5, mode: 'exact' }
 */
export const searchOptionsSchema = z.object({
  kind: z.enum(KINDS).default('hybrid'),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  mode: z.enum(KEYWORD_MODES).default('exact'),
  version: versionNumber.optional(),
});

export type SearchOptions = z.infer<typeof searchOptionsSchema>;
