/**
 * EXPERIMENT (to be cleaned): how a leaf's BM25 score takes in the share of the query's weight its
 * title and section path hold.
 */
export type CoverageMode = 'mul' | 'add' | 'sq';

export function coverageMode(): CoverageMode {
  return (process.env.DROPQA_TC_MODE as CoverageMode) || 'mul';
}

export function coverageWordsOnly(): boolean {
  return process.env.DROPQA_TC_WORDS === '1';
}

export function fuseTitleCoverage(
  score: number,
  coverage: number,
  weight: number,
  best: number,
  mode: CoverageMode,
): number {
  if (!(weight > 0)) return score;
  switch (mode) {
    case 'add':
      return score + weight * coverage * best;
    case 'sq':
      return score * (1 + weight * coverage * coverage);
    default:
      return score * (1 + weight * coverage);
  }
}

export function withTitleCoverage(score: number, coverage: number, weight: number): number {
  return weight > 0 ? score * (1 + weight * coverage) : score;
}
