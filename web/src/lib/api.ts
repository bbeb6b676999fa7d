import { apiError, type ErrorBody } from './api-error.ts';
import { requestHeaders, unauthorized } from './session.ts';

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
