import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { type AccessGrants, type AccessScope, accessOfGroups } from '#shared/access/index.ts';
import { InvalidTokenError, type TokenClaims } from './cognito-token.ts';

/** The header carrying the user's token (CloudFront's origin access control owns `Authorization`). */
export const TOKEN_HEADER = 'x-dropqa-token';
/** The cookie carrying it where a header cannot be set (`<img src>` for document images). */
export const TOKEN_COOKIE = 'dropqa_token';

/**
 * What `requireUser` puts in the request context: `c.get('user')` is the verified token's claims,
 * `access` and `writeAccess` what its groups grant (read by shared/api/access.ts).
 */
export interface UserVariables {
  user: TokenClaims;
  access: AccessScope;
  writeAccess: AccessScope;
}

/** The Cognito groups a token names (`cognito:groups`, in ID and access tokens); none when absent or malformed. */
export function groupsOf(claims: TokenClaims): string[] {
  const groups = claims['cognito:groups'];
  return Array.isArray(groups) ? groups.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * Lets a request through only with a valid user token (header, or cookie for images); answers
 * 401 with the usual JSON error otherwise. `/api/health` stays open for monitoring. The token's
 * Cognito groups, through `grants`, set what the request may read and change (deny by default).
 */
export function requireUser(
  verifyToken: (token: string) => Promise<TokenClaims>,
  grants: AccessGrants,
): MiddlewareHandler<{ Variables: UserVariables }> {
  return async (c, next) => {
    if (c.req.path === '/api/health') return next();
    const token = c.req.header(TOKEN_HEADER) ?? getCookie(c, TOKEN_COOKIE);
    const refuse = (message: string) => c.json({ error: { code: 'unauthorized', message } }, 401);
    if (!token) return refuse(`Sign in first: send your token in the ${TOKEN_HEADER} header`);
    try {
      const user = await verifyToken(token);
      const { read, write } = accessOfGroups(groupsOf(user), grants);
      c.set('user', user);
      c.set('access', read);
      c.set('writeAccess', write);
    } catch (error) {
      if (error instanceof InvalidTokenError) return refuse(`Invalid token: ${error.message}`);
      throw error;
    }
    return next();
  };
}
