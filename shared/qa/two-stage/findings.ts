import { stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { SearchHit } from '#shared/search/types.ts';
import type { SubQueryAnalysis } from './types.ts';

/** The passages the analyses extract from, each once, in order of first extraction: `[n]` is `passages[n - 1]`. */
export function extractedPassages(analyses: SubQueryAnalysis[]): SearchHit[] {
  const seen = new Map<string, SearchHit>();
  for (const analysis of analyses)
    for (const e of analysis.extracts) if (!seen.has(e.hit.nodeId)) seen.set(e.hit.nodeId, e.hit);
  return [...seen.values()];
}

/**
 * The analyses as the sufficiency judge and the report writer read them: per sub-query its
 * sub-answer, confidence, missing aspects and the verbatim extracts with `[n]` and 《document》, each
 * sub-query in a `<document>` block so that document text stays data.
 */
export function findingsBlock(analyses: SubQueryAnalysis[], passages: SearchHit[]): string {
  const number = new Map(passages.map((hit, i) => [hit.nodeId, i + 1]));
  return analyses
    .map((a) => {
      const extracts = a.extracts.map(
        (e) =>
          `[${number.get(e.hit.nodeId) ?? '?'}] 《${stripDelimiters(e.hit.documentName)}》 “${stripDelimiters(e.text)}”`,
      );
      const lines = [
        `Sub-query ${a.subquery.id}: ${a.subquery.text} (focus: ${a.subquery.focus})`,
        `Sub-answer (confidence ${a.confidence}): ${stripDelimiters(a.answer) || '(none)'}`,
        a.missing.length ? `Missing: ${a.missing.join('; ')}` : '',
        'Extracts:',
        ...(extracts.length ? extracts : ['(none)']),
      ].filter(Boolean);
      return `<document index="${a.subquery.id}">\n${lines.join('\n')}\n</document>`;
    })
    .join('\n');
}
