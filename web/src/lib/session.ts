import { reactive } from 'vue';

const STORAGE_KEY = 'dropqa.idToken';
// functions/ask accepts the token from this cookie where no header can be sent (`<img src>`).
const COOKIE = 'dropqa_token';

/** The signed-in user, when the deployment asks for sign-in (`required`). */
export const session = reactive({
  required: false,
  token: null as string | null,
  username: '',
  /** Why the user must sign in again (an expired session): a message key the sign-in page shows. */
  notice: '',
});

/** The claims of a JWT (unverified: only to read `exp` and the user name). */
export function claimsOf(token: string): { exp?: number; 'cognito:username'?: string; email?: string } {
  try {
    const part = token.split('.')[1] ?? '';
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0))));
  } catch {
    return {};
  }
}

function expired(token: string): boolean {
  const { exp } = claimsOf(token);
  return typeof exp === 'number' && exp * 1000 <= Date.now();
}

function writeCookie(token: string | null): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and older Safari.
  document.cookie = token
    ? `${COOKIE}=${token}; Path=/api; SameSite=Strict${secure}`
    : `${COOKIE}=; Path=/api; Max-Age=0; SameSite=Strict${secure}`;
}

/** Turns sign-in on (config.json asked for it) and restores this tab's session unless it expired. */
export function requireSignIn(): void {
  session.required = true;
  const stored = sessionStorage.getItem(STORAGE_KEY);
  if (stored && !expired(stored)) acceptToken(stored);
  else signOut();
}

/** Keeps a fresh IdToken for this tab (sessionStorage, and the cookie images are fetched with). */
export function acceptToken(token: string): void {
  sessionStorage.setItem(STORAGE_KEY, token);
  writeCookie(token);
  const claims = claimsOf(token);
  session.token = token;
  session.username = claims['cognito:username'] ?? claims.email ?? '';
  session.notice = '';
}

/** Forgets the token; with `notice` (a message key), the sign-in page says why (an expired session). */
export function signOut(notice = ''): void {
  sessionStorage.removeItem(STORAGE_KEY);
  writeCookie(null);
  session.token = null;
  session.username = '';
  session.notice = notice;
}

/**
 * The headers every API call carries: `X-DropQA-Client`, which the local server requires on requests
 * that change data (another site's page cannot send it: docs/security.md), and the token when signed in.
 */
export function authHeaders(): Record<string, string> {
  return { 'x-dropqa-client': 'web', ...(session.token ? { 'x-dropqa-token': session.token } : {}) };
}

/**
 * The headers of an API call: the token and, in the AWS deployment (sign-in required), for a POST
 * or PUT the SHA-256 of its body in `x-amz-content-sha256`: CloudFront's origin access control
 * signs requests to the function URL and needs the payload hash from the client for those methods.
 */
export async function requestHeaders(method = 'GET', body?: string): Promise<Record<string, string>> {
  const headers = authHeaders();
  if (session.required && (method === 'POST' || method === 'PUT')) {
    headers['x-amz-content-sha256'] = await sha256Hex(body ?? '');
  }
  return headers;
}

/** Hex SHA-256 of a UTF-8 string (Web Crypto: the deployment is served over HTTPS). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** An API call answered 401: the token expired or was refused, so ask the user to sign in again. */
export function unauthorized(): void {
  if (session.required) signOut('signIn.expired');
}
