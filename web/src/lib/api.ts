import { requestHeaders, unauthorized } from './session.ts';

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

/** Fetches JSON from the API; a non-2xx answer becomes an ApiError carrying the server's message. */
export async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const body = typeof init?.body === 'string' ? init.body : undefined;
  const response = await fetch(path, {
    ...init,
    headers: {
      ...(await requestHeaders(init?.method, body)),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
  });
  if (response.status === 401) unauthorized();
  const answer = (await response.json().catch(() => ({}))) as ErrorBody;
  if (!response.ok) {
    throw apiError(response.status, answer, { message: `${response.status} ${response.statusText}` });
  }
  return answer as T;
}

/** A query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A human sentence for any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
