import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#shared/db/client.ts';
import { readPaged } from '#shared/db/paged-read.ts';
import { stemTerm } from '#shared/index/analyze.ts';
import { pgArray } from '#shared/search/scope.ts';

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
 * (`stemTerm`: the recorded terms are English stems). With `reuse`, the sample as last read when
 * there is one (re-scoring earlier documents right after a document is scored). `documentFrequency`
 * is to be called before the next `corpusStatistics` of the database (the sample may change then).
 */
export async function corpusStatistics(
  db: Db,
  documentId: string,
  options: { reuse?: boolean } = {},
): Promise<CorpusStatistics> {
  const sample = (options.reuse && samples.get(db)) || (await sampleOf(db));
  const { documents } = sample;
  const self = documents.find((d) => d.id === documentId);
  // The sample holds one document more than is counted, in case one is this document: left out is
  // this document, or else the last one.
  const left = self ?? (documents.length > FREQUENCY_SAMPLE ? documents.at(-1) : undefined);
  const cache = new Map<string, number>();
  return {
    corpusSize: documents.length - (left ? 1 : 0) + 1,
    documentFrequency: (tokens) => {
      const key = tokens.join(' ');
      let n = cache.get(key);
      if (n === undefined) {
        n = countHolding(sample.postings, tokens.map(stemTerm), left?.slot ?? -1);
        cache.set(key, n);
      }
      return n;
    },
  };
}

/**
 * The sampled documents (but the one in slot `left`) holding every term, counted by intersecting
 * the terms' postings (ascending slots), the shortest first.
 */
function countHolding(postings: Map<string, number[]>, terms: string[], left: number): number {
  const lists = terms.map((t) => postings.get(t) ?? []).sort((a, b) => a.length - b.length);
  const [first, ...rest] = lists;
  if (!first) return 0;
  let n = 0;
  for (const slot of first) {
    if (slot !== left && rest.every((list) => hasSlot(list, slot))) n += 1;
  }
  return n;
}

function hasSlot(list: number[], slot: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const value = list[mid] as number;
    if (value === slot) return true;
    if (value < slot) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

interface SampledDocument {
  id: string;
  version: number;
  /** Where its terms are: in `Sample.terms` and the postings. */
  slot: number;
}

interface Sample {
  at: number;
  /** In id order. */
  documents: SampledDocument[];
  /** Each slot's distinct terms. */
  terms: string[][];
  /** Each term's documents: ascending slots. */
  postings: Map<string, number[]>;
}

/** Per database: the sampled documents' tokens, read again when stale or while the corpus is small. */
const samples = new WeakMap<Db, Sample>();

const versionKey = (doc: { id: string; version: number }) => `${doc.id} ${doc.version}`;

/**
 * The live documents' current versions (one more than the sample, in case one is the document being
 * processed), ordered by their random ids: an even spread whose cost stays bounded as the corpus
 * grows. Held for `SAMPLE_TTL_MS` once full, so a burst of ingests does not read it per document;
 * while the corpus is smaller than the sample every call reads which documents it holds, so each
 * new document counts, and the terms of those it does not hold yet (a version's terms are written
 * once). When every document held is still there, the new ones are added to the postings;
 * otherwise they are built again from the terms held.
 */
async function sampleOf(db: Db): Promise<Sample> {
  const cached = samples.get(db);
  const full = (cached?.documents.length ?? 0) > FREQUENCY_SAMPLE;
  if (cached && full && Date.now() - cached.at < SAMPLE_TTL_MS) return cached;
  const held = new Map((cached?.documents ?? []).map((d) => [versionKey(d), d]));
  // Paged: a sample of long documents' terms passes the Data API's 1 MiB result.
  const rows = await readPaged<{ id: string; version: number; terms: string | null }>(db, {
    columns: sql`s.id, s.version, s.terms`,
    from: sql`(SELECT d.id, v.version, CASE WHEN d.id::text || ' ' || v.version = ANY(${pgArray([...held.keys()])}::text[])
          THEN NULL ELSE array_to_string(tsvector_to_array(v.terms), ' ') END AS terms
        FROM documents d JOIN document_versions v ON v.document_id = d.id AND v.version = d.current_version
        WHERE d.deleted_at IS NULL AND v.terms IS NOT NULL
        ORDER BY d.id LIMIT ${FREQUENCY_SAMPLE + 1}::int) s`,
    key: sql`s.id`,
    keyType: 'uuid',
    rowBytes: sql`64 + coalesce(octet_length(s.terms), 0)`,
  });
  const kept = rows.filter((row) => row.terms === null).length;
  const grown = cached && kept === cached.documents.length;
  const sample: Sample = grown
    ? { ...cached, at: Date.now(), documents: [] }
    : { at: Date.now(), documents: [], terms: [], postings: new Map() };
  for (const row of rows) {
    const doc = { id: row.id, version: Number(row.version) };
    const known = held.get(versionKey(doc));
    if (grown && known) {
      sample.documents.push(known);
      continue;
    }
    const terms =
      row.terms === null && known
        ? (cached?.terms[known.slot] ?? [])
        : [...new Set((row.terms ?? '').split(' '))];
    const slot = sample.terms.length;
    sample.terms.push(terms);
    for (const term of terms) {
      const list = sample.postings.get(term);
      if (list) list.push(slot);
      else sample.postings.set(term, [slot]);
    }
    sample.documents.push({ ...doc, slot });
  }
  samples.set(db, sample);
  return sample;
}
