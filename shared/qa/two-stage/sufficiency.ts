import { fillPrompt } from '#shared/llm/prompt-files.ts';
import type { ChatModel, TokenUsage } from '#shared/llm/types.ts';
import { loadQaPrompt } from '../prompt.ts';
import { extractedPassages, findingsBlock } from './findings.ts';
import { type SubQueryAnalysis, type SufficiencyVerdict, sufficiencySchema } from './types.ts';

/**
 * The sufficiency judge (docs/spec.md#sufficiency) by the model (role `sufficiency`): whether the
 * first stage is enough and, when it is not, at most `maxExtra` additional sub-queries.
 */
export async function judgeSufficiencyWithModel(
  chat: ChatModel,
  question: string,
  analyses: SubQueryAnalysis[],
  maxExtra: number,
): Promise<{ verdict: SufficiencyVerdict; usage: TokenUsage; model: string }> {
  const prompt = fillPrompt(loadQaPrompt('two-stage-sufficiency'), {
    question,
    findings: findingsBlock(analyses, extractedPassages(analyses)),
    max_extra: String(maxExtra),
  });
  const result = await chat.structured(
    { role: 'sufficiency', messages: [{ role: 'user', content: prompt }] },
    sufficiencySchema,
  );
  const verdict = { ...result.value, additional: result.value.additional.slice(0, maxExtra) };
  // A verdict asking for more without saying what to search for cannot start a second stage.
  if (!verdict.sufficient && verdict.additional.length === 0) verdict.sufficient = true;
  return { verdict, usage: result.usage, model: result.model };
}

/**
 * The sufficiency judge without a model: enough unless a sub-query found nothing while others did;
 * then the terms those sub-queries missed become the additional sub-queries (at most `maxExtra`).
 */
export function judgeSufficiencyOffline(analyses: SubQueryAnalysis[], maxExtra: number): SufficiencyVerdict {
  const empty = analyses.filter((a) => a.extracts.length === 0);
  const found = analyses.filter((a) => a.extracts.length > 0);
  const covered = found.map((a) => a.subquery.focus);
  const missing = empty.map((a) => a.subquery.focus);
  if (empty.length === 0 || found.length === 0 || maxExtra < 1) {
    return {
      sufficient: true,
      confidence:
        found.length === 0 ? 'low' : found.every((a) => a.confidence === 'high') ? 'high' : 'medium',
      covered,
      missing,
      additional: [],
      reason:
        found.length === 0
          ? 'Nothing matched; a second search would not find more.'
          : 'Every sub-query found passages.',
    };
  }
  const terms = [...new Set(empty.flatMap((a) => (a.missing.length ? a.missing : [a.subquery.text])))];
  return {
    sufficient: false,
    confidence: 'low',
    covered,
    missing,
    additional: terms.slice(0, maxExtra).map((text) => ({ text, focus: text })),
    reason: `No passage matched: ${missing.join('; ')}.`,
  };
}
