import { timingSafeEqual } from 'node:crypto';
import { networkInterfaces, hostname as osHostname } from 'node:os';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { CLIENT_HEADER } from './client-header.ts';

/** The cookie a browser keeps the access token in, after opening the page's `/?token=...` link once. */
export const TOKEN_COOKIE = 'dropqa_access';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The page's policy: only its own scripts, styles, images and API; never framed. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface RequestGuardOptions {
  /** Host names (no port; IPv6 in brackets) the server answers to: see `allowedHosts`. */
  hosts: readonly string[];
  /** When set, every request must carry it (`Authorization: Bearer`, or the cookie set by `/?token=`). */
  token?: string;
}

/**
 * The checks of the local server on every request (docs/security.md), before any route:
 * - the `Host` header must name one of `hosts` exactly (DNS rebinding gives another name);
 * - with a `token`, every request must carry it (a GET of the page with `?token=` sets the cookie);
 * - a request that changes data (any method but GET/HEAD/OPTIONS) must not come from another
 *   origin (`Origin`), and must carry `X-DropQA-Client` or a JSON body: neither can be sent by
 *   another page without a CORS preflight, which this server never grants;
 * - every answer gets `X-Content-Type-Options`, `X-Frame-Options: DENY`, a referrer policy and the
 *   page's Content-Security-Policy.
 * Routes added later are covered: nothing here names a route.
 */
export function requestGuard(options: RequestGuardOptions): MiddlewareHandler {
  const hosts = new Set(options.hosts.map((h) => h.toLowerCase()));
  return async (c, next) => {
    const refused = checkHost(c, hosts) ?? tokenLink(c, options.token) ?? check(c, options.token);
    if (refused) {
      secure(refused.headers);
      return refused;
    }
    await next();
    secure(c.res.headers);
  };
}

function checkHost(c: Context, hosts: Set<string>): Response | undefined {
  const host = hostOf(c.req.header('host'));
  if (host && hosts.has(host)) return undefined;
  return refuse(
    c,
    'host_not_allowed',
    `Host ${JSON.stringify(c.req.header('host') ?? '')} is not one this server answers to (server.allowedHosts)`,
  );
}

function check(c: Context, token: string | undefined): Response | undefined {
  if (token && !carriesToken(c, token)) {
    return c.json(
      {
        error: {
          code: 'unauthorized',
          message:
            'This server needs its access token: open the link it printed (/?token=...) or send Authorization: Bearer <token>',
        },
      },
      401,
    );
  }
  if (SAFE_METHODS.has(c.req.method)) return undefined;
  const origin = c.req.header('origin');
  if (origin !== undefined && !sameOrigin(origin, c.req.header('host') ?? '')) {
    return refuse(c, 'cross_origin', `Requests from ${origin} may not change data here`);
  }
  const json = /^application\/json\b/i.test(c.req.header('content-type') ?? '');
  if (!json && !c.req.header(CLIENT_HEADER)) {
    return refuse(
      c,
      'client_header_required',
      `A request that changes data must send the ${CLIENT_HEADER} header (any value) or a JSON body`,
    );
  }
  return undefined;
}

function refuse(c: Context, code: string, message: string): Response {
  return c.json({ error: { code, message } }, 403);
}

/** `GET /?token=<token>`: keeps the token in a cookie and opens the page without it in the URL. */
function tokenLink(c: Context, token: string | undefined): Response | undefined {
  const given = c.req.query('token');
  if (!token || c.req.method !== 'GET' || given === undefined || !equal(given, token)) return undefined;
  setCookie(c, TOKEN_COOKIE, token, { httpOnly: true, sameSite: 'Strict', path: '/' });
  const url = new URL(c.req.url);
  url.searchParams.delete('token');
  return c.redirect(`${url.pathname}${url.search}`, 303);
}

function carriesToken(c: Context, token: string): boolean {
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  const given = bearer ?? getCookie(c, TOKEN_COOKIE);
  return given !== undefined && equal(given, token);
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The host name of a `Host` header, lower-cased, without its port (`[::1]:8787` -> `[::1]`). */
function hostOf(header: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d+)?$/i.exec(header?.trim() ?? '');
  return match?.[1]?.toLowerCase();
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return url.host.toLowerCase() === host.toLowerCase() && url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The security headers of every answer; a route that set its own Content-Security-Policy keeps it. */
function secure(headers: Headers): void {
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('X-Frame-Options', 'DENY');
  headers.set('Referrer-Policy', 'no-referrer');
  if (!headers.has('Content-Security-Policy'))
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
}

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Whether binding to `host` keeps the server on this machine. */
export function isLoopback(host: string): boolean {
  return LOOPBACK.includes(host) || host === '::1' || /^127\./.test(host);
}

/**
 * The host names the server answers to: the loopback names, the configured host, the names in
 * `extra` (server.allowedHosts) and, when bound to every interface (0.0.0.0, ::), this machine's
 * name and addresses.
 */
export function allowedHosts(bound: string, extra: readonly string[] = []): string[] {
  const names = new Set([...LOOPBACK, ...extra]);
  const wildcard = bound === '0.0.0.0' || bound === '::' || bound === '';
  if (!wildcard) names.add(bound.includes(':') ? `[${bound}]` : bound);
  else {
    names.add(osHostname());
    for (const address of Object.values(networkInterfaces()).flat()) {
      if (address) names.add(address.family === 'IPv6' ? `[${address.address}]` : address.address);
    }
  }
  return [...names].map((n) => n.toLowerCase());
}
