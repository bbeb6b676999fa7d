import { reasonOf } from '#shared/errors.ts';
import { fillPrompt, readPromptFile, stripDelimiters } from '#shared/llm/prompt-files.ts';
import type { SearchHit } from '#shared/search/types.ts';
import { attribute, clip } from '../agent/tools/format.ts';
import { textDeltas } from '../deltas.ts';
import type { QaDeps } from '../deps.ts';
import type { QaEvent } from '../events.ts';
import { finishAnswer } from '../finish.ts';
import type { AskRequest } from '../request.ts';
import type { TraceRecorder } from '../trace.ts';
import { type Comparison, compareVersions, extractiveComparisonAnswer } from './compare.ts';
import type { VersionedDocument, VersionQuestion } from './question.ts';

/**
 * Answers a "what changed" question from the version diff (the `compare_versions` tool's work):
 * the chat model writes the answer from the changed passages of both versions when there is one,
 * else (or when its call fails) the answer quotes each change, old and new, extractively. Sources
 * carry their version.
 */
export async function* compareVersionsFlow(
  deps: QaDeps,
  request: AskRequest,
  trace: TraceRecorder,
  target: { document: VersionedDocument; question: VersionQuestion },
): AsyncGenerator<QaEvent> {
  const { document, question } = target;
  const name = document.filename;
  yield trace.thought(`The question asks what changed in ${name}: comparing its versions.`);
  yield trace.action(
    'compare_versions',
    JSON.stringify({ document: document.key, versions: question.versions }),
  );
  const comparison = await compareVersions(deps, document.id, question.versions, request.question);
  const { from, to } = comparison.diff;
  yield trace.observation(
    `Version ${from.version} → ${to.version}: ${comparison.diff.sections.length} changed section(s), ${comparison.passages.length} passage(s) of both versions.`,
    'compare_versions',
  );
  let answer = extractiveComparisonAnswer(comparison, name);
  if (deps.providers.chat && comparison.passages.length > 0) {
    try {
      answer = (await modelAnswer(deps, request, comparison, name)) || answer;
    } catch (error) {
      yield trace.observation(
        `The model could not write the answer (${reasonOf(error)}); quoting the changes.`,
      );
    }
  }
  yield* textDeltas(answer);
  yield* finishAnswer(deps, request, {
    answer,
    confidence: comparison.passages.length > 0 || comparison.diff.sections.length > 0 ? 'high' : 'medium',
    passages: comparison.passages,
    mode: 'agent',
    trace,
    iterations: 1,
    reasoningSteps: trace.steps.length,
  });
}

async function modelAnswer(
  deps: QaDeps,
  request: AskRequest,
  comparison: Comparison,
  name: string,
): Promise<string> {
  const chat = deps.providers.chat;
  if (!chat) return '';
  const { from, to } = comparison.diff;
  const result = await chat.complete({
    role: 'answer',
    messages: [
      {
        role: 'user',
        content: fillPrompt(readPromptFile('shared/qa/prompts', 'compare-versions'), {
          name: attribute(name),
          from: String(from.version),
          to: String(to.version),
          question: stripDelimiters(request.question),
          changes: stripDelimiters(extractiveComparisonAnswer(comparison, name)),
          passages: comparison.passages.map((hit, i) => passageBlock(hit, i + 1)).join('\n'),
        }),
      },
    ],
  });
  return result.text.trim();
}

function passageBlock(hit: SearchHit, index: number): string {
  return `<document index="${index}" version="${hit.version}" source="${attribute(hit.path)}">\n${clip(stripDelimiters(hit.content), 1200)}\n</document>`;
}
