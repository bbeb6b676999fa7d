import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { stemTerm } from '#shared/index/analyze.ts';

/** Other documents whose tokens are counted: beyond this, a sample of this many. */
export const FREQUENCY_SAMPLE = 200;
/** How long a full sample is reused (a document's terms barely move the frequencies of 200). */
const SAMPLE_TTL_MS = 30_000;

/**
 * The version's distinct search tokens (from its nodes' tsvectors), as an expression for
 * `document_versions.terms`: what `corpusStatistics` counts for the documents after it. Written for
 * every version at the Topics step, whichever provider draws its topics, so a later keyword
 * fallback finds them.
 */
export function versionTerms(ref: { documentId: string; version: number }): SQL {
  return sql`(SELECT array_to_tsvector(array_agg(DISTINCT u.lexeme)) FROM nodes n, unnest(n.search_vector) AS u
      WHERE n.document_id = ${ref.documentId}::uuid AND n.version = ${ref.version}::int)`;
}

/** Document frequencies over the corpus, for scoring one document's key phrases. */
export interface CorpusStatistics {
  /** Documents counted, this one included. */
  corpusSize: number;
  /** Other documents that contain every one of the tokens. */
  documentFrequency: (tokens: string[]) => number;
}

/**
 * The corpus a document's key phrases are scored against: the other live documents' current
 * versions (at most `FREQUENCY_SAMPLE` of them, their recorded terms: counting matching nodes
 * instead grew with the corpus, ~200 ms a document at 150 documents). A phrase's frequency is the
 * number of those documents holding all its tokens, each token looked up by its search term
 * (`stemTerm`: the recorded terms are English stems).
 */
export async function corpusStatistics(db: Db, documentId: string): Promise<CorpusStatistics> {
  const sample = await sampleOf(db);
  const self = sample.documents.findIndex((d) => d.id === documentId);
  // The sample holds one document more than is counted, in case one is this document.
  const counted =
    self >= 0 ? sample.documents.length - 1 : Math.min(sample.documents.length, FREQUENCY_SAMPLE);
  const last = self >= 0 ? sample.documents.length : counted;
  const cache = new Map<string, number>();
  return {
    corpusSize: counted + 1,
    documentFrequency: (tokens) => {
      const key = tokens.join(' ');
      let n = cache.get(key);
      if (n === undefined) {
        n = countHolding(sample.postings, tokens.map(stemTerm), last, self);
        cache.set(key, n);
      }
      return n;
    },
  };
}

/**
 * The documents (of the first `last` of the sample, `self` left out) holding every term, counted by
 * intersecting the terms' postings (ascending document positions), the shortest first.
 */
function countHolding(postings: Map<string, number[]>, terms: string[], last: number, self: number): number {
  const lists = terms.map((t) => postings.get(t) ?? []).sort((a, b) => a.length - b.length);
  const [first, ...rest] = lists;
  if (!first) return 0;
  let n = 0;
  for (const position of first) {
    if (position >= last) break;
    if (position !== self && rest.every((list) => hasPosition(list, position))) n += 1;
  }
  return n;
}

function hasPosition(list: number[], position: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = list[mid] as number;
    if (value === position) return true;
    if (value < position) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

interface Sample {
  at: number;
  documents: { id: string }[];
  /** Each term's documents: ascending positions in `documents`. */
  postings: Map<string, number[]>;
}

/** Per database: the sampled documents' tokens, read again when stale or while the corpus is small. */
const samples = new WeakMap<Db, Sample>();

/**
 * The live documents' current versions (one more than the sample, in case one is the document being
 * processed), ordered by their random ids: an even spread whose cost stays bounded as the corpus
 * grows. Held for `SAMPLE_TTL_MS` once full, so a burst of ingests does not read it per document;
 * while the corpus is smaller than the sample every call reads it, so each new document counts.
 */
async function sampleOf(db: Db): Promise<Sample> {
  const cached = samples.get(db);
  const full = (cached?.documents.length ?? 0) > FREQUENCY_SAMPLE;
  if (cached && full && Date.now() - cached.at < SAMPLE_TTL_MS) return cached;
  const rows = await queryRows<{ id: string; terms: string }>(
    db,
    sql`SELECT d.id, array_to_string(tsvector_to_array(v.terms), ' ') AS terms FROM documents d
        JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
        WHERE d.deleted_at IS NULL AND v.terms IS NOT NULL
        ORDER BY d.id LIMIT ${FREQUENCY_SAMPLE + 1}::int`,
  );
  const postings = new Map<string, number[]>();
  for (const [position, row] of rows.entries()) {
    for (const term of new Set(row.terms.split(' '))) {
      const list = postings.get(term);
      if (list) list.push(position);
      else postings.set(term, [position]);
    }
  }
  const sample = { at: Date.now(), documents: rows.map((r) => ({ id: r.id })), postings };
  samples.set(db, sample);
  return sample;
}
