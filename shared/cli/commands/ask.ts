import type { Config } from '../../config/index.ts';
import type { QaEvent } from '../../qa/events.ts';
import { type AskRequest, askRequestSchema } from '../../qa/request.ts';
import type { QaResponse } from '../../qa/response.ts';
import { openBackend } from '../backend.ts';

export interface AskOptions {
  mode?: string;
  version?: string;
  /** Topic ids (repeat the flag or separate by commas). */
  topic?: string | string[];
  /** Document ids (repeat the flag or separate by commas). */
  document?: string | string[];
  showReasoning?: boolean;
  /** The conversation to continue (`--conversation <id>`). */
  conversation?: string;
  /** Answer from this collection's documents only (`--collection <name>`). */
  collection?: string;
  json: boolean;
}

function ids(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim());
  return list.filter(Boolean);
}

/** The request `dropqa ask` sends: the same schema as `POST /api/qa/ask`. */
export function askRequestFromCli(question: string, options: AskOptions): AskRequest {
  return askRequestSchema.parse({
    question,
    mode: options.mode,
    version: options.version === undefined ? undefined : Number(options.version),
    topic_filter: ids(options.topic),
    document_ids: ids(options.document),
    show_reasoning: options.showReasoning || undefined,
    conversation_id: options.conversation,
  });
}

/**
 * `dropqa ask "<question>" [--mode] [--topic id] [--document id] [--version] [--conversation id]
 * [--collection name] [--show-reasoning] [--json]`: the answer streams to stdout; meta (with the conversation's id, to
 * continue it), the rewritten follow-up, progress and the reasoning trace to stderr; then the sources
 * (with unverified quotes flagged). `--json` prints every event of the stream, one per line.
 */
export async function askCommand(config: Config, question: string, options: AskOptions): Promise<number> {
  const request = askRequestFromCli(question, options);
  const backend = await openBackend(config);
  let exitCode = 0;
  try {
    for await (const event of backend.ask(request, undefined, options.collection)) {
      if (options.json) process.stdout.write(`${JSON.stringify(event)}\n`);
      else printEvent(event);
      if (event.type === 'error') exitCode = 1;
    }
  } finally {
    await backend.close();
  }
  return exitCode;
}

/** One event of an answer as `dropqa ask` and `dropqa chat` print it (text to stdout, the rest to stderr). */
export function printEvent(event: QaEvent): void {
  switch (event.type) {
    case 'meta': {
      const conversation = event.data.conversation_id ? ` · conversation ${event.data.conversation_id}` : '';
      process.stderr.write(`mode ${event.data.mode} · ${event.data.provider}${conversation}\n\n`);
      break;
    }
    case 'rewrite':
      if (event.data.from_turns.length > 0) {
        const turns = event.data.from_turns.join(', ');
        process.stderr.write(`searched for: ${event.data.standalone_question} (with turn ${turns})\n`);
      }
      break;
    case 'progress': {
      const { stage, current, total, doc_name: doc, message } = event.data;
      const count = current !== undefined && total !== undefined ? ` ${current}/${total}` : '';
      process.stderr.write(`… ${stage}${count}${doc ? ` ${doc}` : ''}${message ? `: ${message}` : ''}\n`);
      break;
    }
    case 'trace': {
      const { step, type, tool, content } = event.data;
      process.stderr.write(`  [${step}] ${type}${tool ? ` ${tool}` : ''}: ${content}\n`);
      break;
    }
    case 'subqueries':
      for (const item of event.data.items) process.stderr.write(`  sub-query: ${item.text}\n`);
      break;
    case 'delta':
      process.stdout.write(event.data.text);
      break;
    case 'done': {
      const { response } = event.data;
      const iterations = response.iterations === undefined ? '' : ` · ${response.iterations} iteration(s)`;
      process.stdout.write(`\n\nConfidence: ${response.confidence} · ${response.mode}${iterations}\n`);
      if (response.sources.length > 0) process.stdout.write('Sources:\n');
      for (const s of response.sources) process.stdout.write(`${sourceLine(s)}\n`);
      for (const quote of response.unverified_quotes ?? []) {
        process.stdout.write(`  unverified quote: “${quote}”\n`);
      }
      if (response.identified_topics.length > 0) {
        process.stdout.write(`Topics: ${response.identified_topics.join(', ')}\n`);
      }
      break;
    }
    case 'error':
      process.stderr.write(`\nerror (${event.data.code}): ${event.data.message}\n`);
      break;
    default:
      break;
  }
}

/**
 * A source as the CLI lists it: "[1] report.docx > Budget (relevance 0.42)"; a passage outside any
 * section (a Markdown file without headings) shows its document alone, not "report.md > ".
 */
export function sourceLine(
  s: Pick<QaResponse['sources'][number], 'citation' | 'document_name' | 'section' | 'relevance' | 'verified'>,
): string {
  const where = s.section ? `${s.document_name} > ${s.section}` : s.document_name;
  const flag = s.verified === false ? ' [quote not found in this source]' : '';
  return `  [${s.citation}] ${where} (relevance ${s.relevance.toFixed(2)})${flag}`;
}
