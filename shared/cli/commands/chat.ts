import { createInterface } from 'node:readline';
import type { Config } from '../../config/index.ts';
import { askRequestSchema, QA_MODES, type QaMode } from '../../qa/request.ts';
import { type Backend, openBackend } from '../backend.ts';
import { printEvent } from './ask.ts';

const HELP = `Ask a question; follow-ups are read with what was asked before.
  /new              start a new conversation
  /mode <mode>      ${QA_MODES.join(', ')}
  /version <n>      answer from version n of the documents (/version current: each one's current)
  /exit             leave (also Ctrl-D); Ctrl-C stops the answer being written
`;

/** The settings of a chat session that its commands change. */
export interface ChatState {
  mode: QaMode;
  /** null: each document's current version. */
  version: number | null;
  conversationId?: string;
}

/**
 * What one line of a chat session does: a question to ask, or a command (`/new`, `/mode`,
 * `/version`, `/exit`, `/help`) that changes the state, with the message to print. Pure, for tests.
 *
 * @example chatLine('/mode agent', state) // { state: { ...state, mode: 'agent' }, message: 'mode agent' }
 */
export function chatLine(
  line: string,
  state: ChatState,
): { state: ChatState; message?: string; ask?: string; exit?: boolean } {
  const text = line.trim();
  if (!text) return { state };
  if (!text.startsWith('/')) return { state, ask: text };
  const [command, argument = ''] = text.slice(1).split(/\s+/, 2);
  switch (command) {
    case 'exit':
    case 'quit':
      return { state, exit: true };
    case 'new': {
      const { conversationId: _, ...rest } = state;
      return { state: rest, message: 'New conversation.' };
    }
    case 'mode':
      if (!(QA_MODES as readonly string[]).includes(argument))
        return { state, message: `Unknown mode "${argument}": use ${QA_MODES.join(', ')}.` };
      return { state: { ...state, mode: argument as QaMode }, message: `mode ${argument}` };
    case 'version': {
      if (argument === 'current') return { state: { ...state, version: null }, message: 'version: current' };
      const n = Number(argument);
      if (!Number.isInteger(n) || n < 1)
        return { state, message: `"/version ${argument}": give a version number (1, 2, …) or "current".` };
      return { state: { ...state, version: n }, message: `version ${n}` };
    }
    case 'help':
      return { state, message: HELP };
    default:
      return { state, message: `Unknown command "/${command}". ${HELP}` };
  }
}

/**
 * `dropqa chat [--mode] [--version]`: an interactive conversation on stdin. Each answer streams as
 * with `dropqa ask`; the next question continues the conversation (its id from the first `meta`), so
 * follow-ups are resolved with the earlier turns. Ctrl-C stops the answer being written, not the
 * session; Ctrl-D or /exit ends it.
 */
export async function chatCommand(
  config: Config,
  options: { mode?: string; version?: string },
): Promise<number> {
  let state: ChatState = { mode: 'auto', version: null };
  for (const line of [
    options.mode ? `/mode ${options.mode}` : '',
    options.version ? `/version ${options.version}` : '',
  ]) {
    const result = chatLine(line, state);
    if (result.message && result.state === state) {
      process.stderr.write(`${result.message}\n`);
      return 2;
    }
    state = result.state;
  }
  const backend = await openBackend(config);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  let answering: AbortController | undefined;
  const interrupt = () => {
    if (answering) answering.abort();
    else process.stderr.write('\n(/exit to leave)\n');
  };
  rl.on('SIGINT', interrupt);
  process.on('SIGINT', interrupt);
  process.stderr.write(`DropQA chat (${backend.description}). /help for commands.\n`);
  try {
    rl.setPrompt('> ');
    rl.prompt();
    for await (const line of rl) {
      const result = chatLine(line, state);
      state = result.state;
      if (result.exit) break;
      if (result.message) process.stderr.write(`${result.message}\n`);
      if (result.ask) {
        answering = new AbortController();
        state = await answer(backend, result.ask, state, answering.signal);
        answering = undefined;
      }
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', interrupt);
    rl.close();
    await backend.close();
  }
  return 0;
}

/** Asks one question of the conversation and prints the answer; returns the state with its id. */
async function answer(
  backend: Backend,
  question: string,
  state: ChatState,
  signal: AbortSignal,
): Promise<ChatState> {
  const request = askRequestSchema.parse({
    question,
    mode: state.mode,
    version: state.version,
    ...(state.conversationId ? { conversation_id: state.conversationId } : {}),
  });
  let next = state;
  try {
    for await (const event of backend.ask(request, signal)) {
      if (event.type === 'meta' && event.data.conversation_id)
        next = { ...next, conversationId: event.data.conversation_id };
      printEvent(event);
      if (signal.aborted) break;
    }
  } catch (error) {
    if (!signal.aborted)
      process.stderr.write(`\nerror: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  if (signal.aborted) process.stderr.write('\n(stopped)\n');
  process.stdout.write('\n');
  return next;
}
