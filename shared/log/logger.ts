import { inspect } from 'node:util';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * What a log line carries besides its message: identifiers, counts, durations, reasons. Never
 * document text, questions or answers: values are clipped to `MAX_VALUE_CHARS` and fields whose
 * name looks secret are masked, but what is passed is the caller's choice.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Where log lines go: the local writer (`lineSink`) or, in Lambda, Powertools' Logger. */
export type LogSink = (level: LogLevel, message: string, fields: LogFields) => void;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that appends `fields` to every line (`log.with({ documentId, version, key, step })`). */
  with(fields: LogFields): Logger;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Field names whose values are never written (`key`, the object key, is not one of them). */
const SECRET_FIELD = /(api_?key|secret|password|passwd|token|authorization|credential|cookie)/i;
const MAX_VALUE_CHARS = 300;
const MAX_STACK_CHARS = 2000;

/** The lines of the local process: one per call, on stderr, so the CLI's output stays clean. */
export function lineSink(
  options: { format?: 'pretty' | 'json'; level?: LogLevel; write?: (line: string) => void } = {},
): LogSink {
  const { format = 'pretty', level = 'info', write = (line) => process.stderr.write(line) } = options;
  return (lineLevel, message, fields) => {
    if (LEVELS[lineLevel] < LEVELS[level]) return;
    if (format === 'json') {
      write(`${JSON.stringify({ level: lineLevel, time: new Date().toISOString(), message, ...fields })}\n`);
      return;
    }
    const pairs = Object.entries(fields)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : v}`);
    write(`${lineLevel === 'info' ? '' : `${lineLevel.toUpperCase()} `}${[message, ...pairs].join(' ')}\n`);
  };
}

let sink: LogSink = lineSink();

/** Sends every later line to `next` (the CLI after reading `log.*`, a Lambda at init, tests). Returns the previous sink. */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

/** Secret-looking fields masked, passwords in URLs hidden, long values clipped, errors as their message. */
function safeFields(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (SECRET_FIELD.test(name) && typeof value === 'string') out[name] = '****';
    else if (typeof value === 'string')
      out[name] = clip(hideUrlPasswords(value), name === 'stack' ? MAX_STACK_CHARS : MAX_VALUE_CHARS);
    else out[name] = value;
  }
  return out;
}

function hideUrlPasswords(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+):([^@/\s]+)@/gi, '$1:****@');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function loggerWith(bound: LogFields): Logger {
  const line =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      try {
        sink(level, message, safeFields({ ...bound, ...fields }));
      } catch {
        // A failing sink (a closed stderr) must not fail the work it reports on.
      }
    };
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    with: (fields) => loggerWith({ ...bound, ...fields }),
  };
}

/**
 * The process's logger: diagnostics (not the CLI's user output) as structured lines.
 *
 * @example log.with({ documentId, version, key, step: 'Parse' }).warn('fell back', { reason })
 */
export const log: Logger = loggerWith({});

/**
 * An error as log fields: its name and message, never its cause (a failed query's cause holds its
 * SQL and parameters); with `stack`, the call frames of an unexpected error (not its message again).
 */
export function errorFields(error: unknown, options: { stack?: boolean } = {}): LogFields {
  if (!(error instanceof Error))
    return { reason: typeof error === 'string' ? error : inspect(error, { depth: 1 }) };
  const frames = options.stack
    ? error.stack
        ?.split('\n')
        .filter((line) => line.trimStart().startsWith('at '))
        .slice(0, 8)
        .map((line) => line.trim())
        .join(' | ')
    : undefined;
  return { errorName: error.name, reason: error.message, stack: frames };
}
