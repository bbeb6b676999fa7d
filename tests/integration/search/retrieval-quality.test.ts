import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#shared/config/index.ts';
import { loadBeirSet } from '../../../bench/eval/beir.ts';
import {
  buildConversations,
  type ConversationScore,
  scoreConversations,
} from '../../../bench/eval/conversations.ts';
import { type EvalResult, type IngestedSet, runEval } from '../../../bench/eval/run.ts';

/**
 * Retrieval quality on fixed slices of the dev sets (tests/fixtures/eval), through the eval harness:
 * the real pipeline ingests the documents with the offline providers, `search` answers the queries.
 * Offline results are deterministic, so the floors are quality floors a regression in analysis,
 * BM25 or fusion breaks (a little below the measured values, noted beside each).
 */
const FIXTURES = join(import.meta.dirname, '../../fixtures/eval');
const dirs: string[] = [];

async function measure(
  set: string,
  whileOpen?: (ingested: IngestedSet) => Promise<void>,
): Promise<EvalResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-quality-'));
  dirs.push(dataDir);
  // The widest HNSW search (ef_search 1000 over a few thousand vectors) is in effect exact, so the
  // semantic floors measure the embedder and not the graph, which depends on the order concurrent
  // ingestion inserts the vectors (the default ef_search 64 varied scifact semantic by ~0.02).
  const config = loadConfig({
    env: {},
    overrides: { dataDir, search: { hnsw: { efSearch: 1000 } } },
  });
  // 100 leaves a search, not the eval's 300: every hit is loaded, and the floors are on nDCG@10.
  return runEval(
    loadBeirSet(join(FIXTURES, set)),
    config,
    ['fulltext', 'semantic', 'hybrid'],
    undefined,
    whileOpen,
    { leaves: 100 },
  );
}

function ndcg(result: EvalResult, kind: string): number {
  const found = result.kinds.find((k) => k.kind === kind);
  if (!found) throw new Error(`no ${kind} result`);
  return found.ndcg10;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('retrieval quality on dev-set slices', () => {
  it('English claims over 400 abstracts: full-text, hybrid at least full-text', {
    timeout: 1_200_000,
  }, async () => {
    const result = await measure('scifact-slice');
    expect(result.ingest.failed).toBe(0);
    expect(result.ingest.documents).toBe(400);
    expect(ndcg(result, 'fulltext')).toBeGreaterThanOrEqual(FLOORS.scifact.fulltext);
    expect(ndcg(result, 'semantic')).toBeGreaterThanOrEqual(FLOORS.scifact.semantic);
    expect(ndcg(result, 'hybrid')).toBeGreaterThanOrEqual(FLOORS.scifact.hybrid);
    expect(ndcg(result, 'hybrid')).toBeGreaterThanOrEqual(ndcg(result, 'fulltext') - 0.001);
  });

  it('Chinese questions over 100 paragraphs: segmentation keeps full-text near perfect', {
    timeout: 1_200_000,
  }, async () => {
    const result = await measure('cmrc-slice');
    expect(result.ingest.failed).toBe(0);
    expect(ndcg(result, 'fulltext')).toBeGreaterThanOrEqual(FLOORS.cmrc.fulltext);
    expect(ndcg(result, 'semantic')).toBeGreaterThanOrEqual(FLOORS.cmrc.semantic);
    expect(ndcg(result, 'hybrid')).toBeGreaterThanOrEqual(FLOORS.cmrc.hybrid);
    expect(ndcg(result, 'hybrid')).toBeGreaterThanOrEqual(ndcg(result, 'fulltext') - 0.001);
  });

  it('Chinese questions over one site with hard negatives: full-text, hybrid equal to it, follow-ups helped by the conversation', {
    timeout: 1_200_000,
  }, async () => {
    const set = loadBeirSet(join(FIXTURES, 'domainrag-slice'));
    let conversation: ConversationScore | undefined;
    const result = await measure('domainrag-slice', async (ingested) => {
      conversation = await scoreConversations(set, ingested, buildConversations(set));
    });
    expect(result.ingest.failed).toBe(0);
    expect(ndcg(result, 'fulltext')).toBeGreaterThanOrEqual(FLOORS.domainrag.fulltext);
    expect(ndcg(result, 'hybrid')).toBeGreaterThanOrEqual(ndcg(result, 'fulltext'));
    expect(conversation?.conversations).toBeGreaterThanOrEqual(10);
    expect(conversation?.withConversation ?? 0).toBeGreaterThanOrEqual(
      (conversation?.alone ?? 1) + FLOORS.domainrag.conversationGain,
    );
  });
});

/**
 * nDCG@10 floors, just under what the current method scores (measured values in the comments;
 * `DROPQA_SEARCH__HNSW__EF_SEARCH=1000 npm run eval -- tests/fixtures/eval/<slice>` prints them): a
 * change that costs a few queries a place breaks them.
 */
const FLOORS = {
  // Measured 0.825, 0.651, 0.825 with title coverage 1, the default (hybrid ranks as full-text since
  // the offline semantic weight is 0; 0.820 while feedback learned from the coverage's order, 0.825
  // without title coverage, 0.829 then at semantic weight 0.05; plain BM25 0.817, 0.821). Semantic
  // searched with ef_search 1000 (see `measure`): at the default 64 the graph's insertion order
  // moved it between 0.631 and 0.651.
  scifact: { fulltext: 0.82, semantic: 0.64, hybrid: 0.82 },
  // Measured 0.995, 0.750, 0.995 with title coverage (1.000 full-text without it).
  cmrc: { fulltext: 0.99, semantic: 0.74, hybrid: 0.99 },
  // Measured full-text 0.801 = hybrid with title coverage (0.808 without it, where the full set
  // scores 0.470 against 0.501 with it: docs/quality.md, ninth and tenth rounds; equal scores ordered
  // by document key); 30 built conversations, follow-up alone 0.660, with the conversation 0.783
  // (+0.123; without title coverage 0.623 -> 0.780, +0.157).
  domainrag: { fulltext: 0.8, conversationGain: 0.12 },
};
