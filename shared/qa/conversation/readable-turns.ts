import { sql } from 'drizzle-orm';
import { type AccessScope, collectionCondition } from '#shared/access/scope.ts';
import { type Db, queryRows } from '#shared/db/client.ts';
import { isUuid } from '#shared/search/scope.ts';

/** What a stored answer says instead, once it quoted a document its asker can no longer read. */
export const HIDDEN_ANSWER =
  'This answer quoted documents you can no longer read, so it is hidden. The question is kept.';

/** The parts of a stored response that never carry document text. */
const KEPT = ['mode', 'requested_mode', 'provider', 'confidence', 'conversation_id', 'rewrite', 'version'];

interface StoredTurn {
  answer: string;
  response: unknown;
}

type Cited = { document_id?: unknown };

function citedDocuments(response: unknown): string[] {
  const { sources, references } = (response ?? {}) as { sources?: Cited[]; references?: Cited[] };
  return [...(sources ?? []), ...(references ?? [])]
    .map((s) => s?.document_id)
    .filter((id): id is string => typeof id === 'string');
}

/**
 * Stored turns (history entries, a conversation's earlier turns) as their asker may see them now:
 * a turn whose answer cited a document outside the collections `access` reads keeps its question,
 * but its answer becomes `HIDDEN_ANSWER` and its response keeps only the sources and references
 * still readable (`hidden_sources` counts the others) and no text drawn from documents (trace,
 * topics, quotes). Collections can be taken away from a user after they asked.
 *
 * @example const rows = await hideUnreadableQuotes(db, access, await conversationEntries(db, id))
 */
export async function hideUnreadableQuotes<T extends StoredTurn>(
  db: Db,
  access: AccessScope,
  rows: T[],
): Promise<T[]> {
  if (access.kind === 'all') return rows;
  const cited = [...new Set(rows.flatMap((row) => citedDocuments(row.response)))].filter(isUuid);
  const readable = new Set(
    cited.length === 0
      ? []
      : (
          await queryRows<{ id: string }>(
            db,
            sql`SELECT id FROM documents WHERE id IN (${sql.join(
              cited.map((id) => sql`${id}::uuid`),
              sql`, `,
            )}) AND ${collectionCondition(access, sql`collection`)}`,
          )
        ).map((row) => row.id),
  );
  return rows.map((row) => {
    const ids = citedDocuments(row.response);
    if (ids.every((id) => readable.has(id))) return row;
    const stored = (row.response ?? {}) as Record<string, unknown> & {
      sources?: Cited[];
      references?: Cited[];
    };
    const keep = (items: Cited[] | undefined) =>
      (items ?? []).filter((item) => typeof item?.document_id === 'string' && readable.has(item.document_id));
    const sources = keep(stored.sources);
    const response = {
      ...Object.fromEntries(KEPT.filter((key) => key in stored).map((key) => [key, stored[key]])),
      answer: HIDDEN_ANSWER,
      sources,
      ...(stored.references ? { references: keep(stored.references) } : {}),
      hidden_sources: (stored.sources ?? []).length - sources.length,
    };
    return { ...row, answer: HIDDEN_ANSWER, response };
  });
}
