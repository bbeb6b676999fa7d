/**
 * An API error with the server's code (`not_found`, `validation_failed`, ...), message, and the
 * `reason` and `params` the page says it in its own language with (docs/api.md#errors).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly reason?: string;
  readonly params?: Record<string, string | number>;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    detail: { reason?: string; params?: Record<string, string | number> } = {},
  ) {
    super(message);
    if (detail.reason) this.reason = detail.reason;
    if (detail.params) this.params = detail.params;
  }
}

/** The parts of a JSON error body (`{ error: { code, message, reason, params } }`), each if present. */
export interface ErrorBody {
  error?: { code?: string; message?: string; reason?: string; params?: Record<string, string | number> };
}

/** An ApiError from an answer's status and its JSON error body, with `fallback` where the body says nothing. */
export function apiError(
  status: number,
  body: ErrorBody,
  fallback: { code?: string; message: string },
): ApiError {
  const e = body.error ?? {};
  return new ApiError(status, e.code ?? fallback.code ?? 'http_error', e.message ?? fallback.message, {
    reason: e.reason,
    params: e.params,
  });
}
