import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '#shared/db/client.ts';
import { stemTerm } from '#shared/index/analyze.ts';

/** Other documents whose tokens are counted: beyond this, a sample of this many. */
export const FREQUENCY_SAMPLE = 200;
/** How long a full sample is reused (a document's terms barely move the frequencies of 200). */
const SAMPLE_TTL_MS = 30_000;

/**
 * Records the version's distinct search tokens (`document_versions.terms`, from its nodes'
 * tsvectors): what `corpusStatistics` counts for the documents after it. Written for every version
 * at the Topics step, whichever provider draws its topics, so a later keyword fallback finds them.
 */
export async function recordVersionTerms(
  db: Db,
  ref: { documentId: string; version: number },
): Promise<void> {
  const { documentId, version } = ref;
  await db.execute(sql`
    UPDATE document_versions v SET terms = (
      SELECT array_to_tsvector(array_agg(DISTINCT u.lexeme)) FROM nodes n, unnest(n.search_vector) AS u
      WHERE n.document_id = v.document_id AND n.version = v.version)
    WHERE v.document_id = ${documentId}::uuid AND v.version = ${version}::int`);
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
  const others = (await sampleOf(db)).filter((d) => d.id !== documentId).slice(0, FREQUENCY_SAMPLE);
  const cache = new Map<string, number>();
  return {
    corpusSize: others.length + 1,
    documentFrequency: (tokens) => {
      const key = tokens.join(' ');
      let n = cache.get(key);
      if (n === undefined) {
        n = others.filter((d) => tokens.every((t) => d.terms.has(stemTerm(t)))).length;
        cache.set(key, n);
      }
      return n;
    },
  };
}

interface Sample {
  at: number;
  documents: { id: string; terms: Set<string> }[];
}

/** Per database: the sampled documents' tokens, read again when stale or while the corpus is small. */
const samples = new WeakMap<Db, Sample>();

/**
 * The live documents' current versions (one more than the sample, in case one is the document being
 * processed), ordered by their random ids: an even spread whose cost stays bounded as the corpus
 * grows. Held for `SAMPLE_TTL_MS` once full, so a burst of ingests does not read it per document;
 * while the corpus is smaller than the sample every call reads it, so each new document counts.
 */
async function sampleOf(db: Db): Promise<Sample['documents']> {
  const cached = samples.get(db);
  const full = (cached?.documents.length ?? 0) > FREQUENCY_SAMPLE;
  if (cached && full && Date.now() - cached.at < SAMPLE_TTL_MS) return cached.documents;
  const rows = await queryRows<{ id: string; terms: string }>(
    db,
    sql`SELECT d.id, array_to_string(tsvector_to_array(v.terms), ' ') AS terms FROM documents d
        JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
        WHERE d.deleted_at IS NULL AND v.terms IS NOT NULL
        ORDER BY d.id LIMIT ${FREQUENCY_SAMPLE + 1}::int`,
  );
  const documents = rows.map((r) => ({ id: r.id, terms: new Set(r.terms.split(' ')) }));
  samples.set(db, { at: Date.now(), documents });
  return documents;
}
