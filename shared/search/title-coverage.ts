/**
 * A leaf's BM25 score with its title coverage fused in: `score * (1 + weight * coverage)`, where
 * `coverage` (0..1) is the share of the query's worth (each matched term's `w * idf^e`, as
 * `bm25TermWeight` gives it, over every query term some leaf in scope holds) that the leaf's title
 * and section path (tsvector weight A) hold. A page whose title names what the question is about
 * (an admissions page "中国人民大学2023年外语类保送生招生简章", a paper titled by a claim's subject)
 * is found by its best paragraph, where BM25 counts the title as a few words of the path beside a
 * paragraph's text; coverage asks instead how much of the question the title answers to, a
 * conjunctive, length-free signal BM25's per-term saturation dilutes. With weight 1 a leaf whose
 * title holds the whole question counts double; weight 0 is plain BM25 (`search.bm25.titleCoverage`).
 *
 * @example withTitleCoverage(4, 0.5, 1) // 6
 */
export function withTitleCoverage(score: number, coverage: number, weight: number): number {
  return weight > 0 ? score * (1 + weight * coverage) : score;
}
