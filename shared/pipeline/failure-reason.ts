import type { StateError } from './contract.ts';

const DESCRIPTIONS: Record<string, string> = {
  'States.Timeout': 'the step took longer than its time limit',
  'States.TaskFailed': 'the step failed',
  'States.Permissions': 'the step was not permitted to run',
  'States.Runtime': 'the state machine could not process the step input or output',
  'Lambda.TooManyRequestsException': 'the step was throttled too many times',
  'Lambda.ServiceException': 'the Lambda service failed too many times',
};

/** The kind of failure by the error's name (a Lambda's `errorType`, a States error); anything else is `failed`. */
const CODES: Record<string, string> = {
  UnsupportedDocumentError: 'unsupported_document',
  ProviderError: 'provider_failed',
  CallTimeoutError: 'provider_failed',
  OutOfSpaceError: 'insufficient_storage',
  'States.Timeout': 'timeout',
  'States.DataLimitExceeded': 'too_large',
  ExecutionHistoryLimitExceeded: 'too_large',
  DatabaseError: 'database',
  TransientError: 'database',
};

/**
 * The kind of a failure, stored beside its reason so that a client can say it in its own language
 * (docs/lifecycle.md): `unsupported_document`, `provider_failed`, `insufficient_storage`, `timeout`,
 * `too_large`, `database`, else `failed`.
 *
 * @example failureCode({ Error: 'UnsupportedDocumentError', Cause: 'a.docx: the file is empty' }) // 'unsupported_document'
 */
export function failureCode(error: StateError | undefined): string {
  return (error && CODES[error.Error]) ?? 'failed';
}

/** Status fields stay readable and bounded whatever a step threw. */
const MAX_REASON_CHARS = 2000;

/**
 * A readable reason from what a Catch put at `$.error`. Locally `Cause` is the thrown message; in
 * AWS a Lambda error's `Cause` is JSON (`{"errorType","errorMessage","trace"}`): its message is used.
 *
 * @example failureReason({ Error: 'Error', Cause: '{"errorMessage":"disk full"}' }) // 'disk full'
 */
export function failureReason(error: StateError | undefined): string {
  if (!error) return 'unknown error';
  let message = messageOf(error.Cause)?.trim();
  if (!message || message === error.Error) message = DESCRIPTIONS[error.Error] ?? error.Error;
  return message.length > MAX_REASON_CHARS ? `${message.slice(0, MAX_REASON_CHARS - 1)}…` : message;
}

function messageOf(cause: unknown): string | undefined {
  if (typeof cause === 'string') {
    if (!cause.trimStart().startsWith('{')) return cause;
    try {
      return messageOf(JSON.parse(cause)) ?? cause;
    } catch {
      return cause;
    }
  }
  if (typeof cause === 'object' && cause !== null) {
    const { errorMessage } = cause as { errorMessage?: unknown };
    if (typeof errorMessage === 'string') return errorMessage;
  }
  return undefined;
}
