/** Values a reason's sentence is filled with (`{ field: 'body.question', maximum: 2000 }`). */
export type ReasonParams = Record<string, string | number>;

/**
 * What an error's English message says, as a stable `reason` and its `params`, so that a client can
 * say it in its own language (docs/api.md#errors): `{ reason: 'too_big', params: { field, maximum } }`.
 */
export interface ErrorReason {
  reason: string;
  params?: ReasonParams;
}

/**
 * Typed errors of the core. Each carries a stable `code` (and, where a client shows it, a `reason`
 * with its `params`); the HTTP layer maps them to statuses in one place (`shared/api/errors.ts`),
 * the CLI prints their messages.
 */
export class DropQAError extends Error {
  readonly code: string;
  readonly reason?: ErrorReason;
  constructor(code: string, message: string, options?: { cause?: unknown; reason?: ErrorReason }) {
    super(message, options);
    this.name = 'DropQAError';
    this.code = code;
    if (options?.reason) this.reason = options.reason;
  }
}

/** A setting is missing or has a bad value; the message names the setting. */
export class ConfigError extends DropQAError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('config_invalid', message, options);
    this.name = 'ConfigError';
  }
}

/** Input from a user (request body, query, pattern) is invalid. */
export class ValidationError extends DropQAError {
  constructor(message: string, options?: { cause?: unknown; reason?: ErrorReason }) {
    super('validation_failed', message, options);
    this.name = 'ValidationError';
  }
}

/** A thing asked for by id or key does not exist. */
export class NotFoundError extends DropQAError {
  constructor(message: string, options?: { reason?: ErrorReason }) {
    super('not_found', message, options);
    this.name = 'NotFoundError';
  }
}

/** The reason of a NotFoundError for a document without a ready version (its only attempts failed, or are running). */
export const NO_READY_VERSION: { reason: ErrorReason } = { reason: { reason: 'no_ready_version' } };

/** The asker may read the thing but not change it (write on its collection: docs/collections.md). */
export class ForbiddenError extends DropQAError {
  constructor(message: string) {
    super('forbidden', message);
    this.name = 'ForbiddenError';
  }
}

/** A document's bytes cannot be ingested (wrong type, empty, not UTF-8, too large, corrupt). */
export class UnsupportedDocumentError extends DropQAError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('unsupported_document', message, options);
    this.name = 'UnsupportedDocumentError';
  }
}

/** A model, embedder or OCR provider failed; the message names the provider, model and role. */
export class ProviderError extends DropQAError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('provider_failed', message, options);
    this.name = 'ProviderError';
  }
}

/** A user asked more often than `limits.askRate` allows; may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DropQAError {
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number) {
    super('rate_limited', message, {
      reason: { reason: 'retry_after', params: { seconds: retryAfterSeconds } },
    });
    this.name = 'RateLimitedError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * The disk (the data folder, the staging folder or the local bucket) is full: what was being written
 * is not stored, what was stored before is intact.
 */
export class OutOfSpaceError extends DropQAError {
  constructor(options?: { cause?: unknown }) {
    super(
      'insufficient_storage',
      'The server is out of disk space: nothing was stored (documents stored before are intact); free some space and try again',
      options,
    );
    this.name = 'OutOfSpaceError';
  }
}

/** Whether an error, or one of its causes, is the file system reporting a full disk or quota. */
export function isOutOfSpace(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}

/** An error's `{ code, message }` with its reason and params when it has them: the API's error body. */
export function errorBody(error: DropQAError): {
  code: string;
  message: string;
  reason?: string;
  params?: ReasonParams;
} {
  return { code: error.code, message: error.message, ...error.reason };
}

/** A readable one-line reason for any thrown value, for status fields and logs. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
