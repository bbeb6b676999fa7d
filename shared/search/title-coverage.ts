/**
 * A leaf's BM25 score with its title coverage fused in: `score * (1 + weight * coverage)`, where
 * `coverage` (0..1) is `titleShare`: how much of the leaf's title and section path (tsvector weight
 * A) the question holds. A page whose title names what the question is about (an admissions page
 * "中国人民大学2023年外语类保送生招生简章", a major's page "经济统计学") is found by its best
 * paragraph, where BM25 counts the title as a few words of the path beside a paragraph's text; title
 * coverage asks instead whether the question names the title, a length-free signal BM25's per-term
 * saturation dilutes. With weight 1 a leaf whose title the question holds whole counts double;
 * weight 0 is plain BM25 (`search.bm25.titleCoverage`).
 *
 * @example withTitleCoverage(4, 0.5, 1) // 6
 */
export function withTitleCoverage(score: number, coverage: number, weight: number): number {
  return weight > 0 ? score * (1 + weight * coverage) : score;
}

/**
 * The title coverage of a leaf: the share of its title's worth the question holds, squared. `asked`
 * is the worth of the question's own terms (feedback terms left out) its title and section path
 * hold, `title` the worth of all their distinct terms, each term's worth its `w * idf^e` at weight
 * 1 (`bm25TermWeight`). Measured from the title's side, not the question's: a paper title sharing
 * two of a claim's words ("Sudden infant death syndrome" for a claim on sudden death in
 * hypertension) is about something else, and its words the question lacks keep its share low;
 * squared, the overlap every title of a topic has with a question counts little and only a title
 * the question holds (nearly) whole counts much (docs/quality.md, issue 29, ninth round: the share
 * itself lifted such titles above scifact-train's evidence, -0.010 ± 0.004; squared -0.003 ± 0.002, and
 * -0.000 once feedback learned from BM25's order alone, eleventh round).
 *
 * @example titleShare(3, 4) // 0.5625
 */
export function titleShare(asked: number, title: number): number {
  if (!(title > 0) || !(asked > 0)) return 0;
  return Math.min(1, asked / title) ** 2;
}
