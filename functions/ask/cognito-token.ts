import { createPublicKey, type JsonWebKey, verify } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  email?: string;
  token_use: 'id' | 'access';
  [claim: string]: unknown;
}

export interface CognitoVerifierOptions {
  userPoolId: string;
  /** The app client the web uses: an ID token's `aud`, an access token's `client_id`. */
  clientId: string;
  /** Where the signing keys come from; default the user pool's JWKS over HTTPS (cached). */
  fetchKeys?: (url: string) => Promise<{ keys: (JsonWebKey & { kid?: string })[] }>;
  now?: () => number;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

const b64json = (part: string | undefined): Record<string, unknown> => {
  try {
    return JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new InvalidTokenError('the token is not a JWT');
  }
};

/**
 * Verifies Cognito user-pool tokens (RS256 JWTs): signature against the pool's published keys
 * (fetched once, again on an unknown key id), issuer, audience / client, token use and expiry.
 *
 * @example const verifyToken = cognitoVerifier({ userPoolId, clientId }); await verifyToken(jwt)
 */
export function cognitoVerifier(options: CognitoVerifierOptions): (token: string) => Promise<TokenClaims> {
  const region = options.userPoolId.split('_')[0];
  const issuer = `https://cognito-idp.${region}.amazonaws.com/${options.userPoolId}`;
  const fetchKeys =
    options.fetchKeys ??
    (async (url: string) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`JWKS ${url}: HTTP ${response.status}`);
      return (await response.json()) as { keys: (JsonWebKey & { kid?: string })[] };
    });
  const now = options.now ?? (() => Date.now());
  let keys: Promise<Map<string, JsonWebKey>> | undefined;
  const loadKeys = () => {
    keys = fetchKeys(`${issuer}/.well-known/jwks.json`).then(
      (jwks) => new Map(jwks.keys.map((k) => [k.kid ?? '', k])),
    );
    keys.catch(() => {
      keys = undefined;
    });
    return keys;
  };

  return async (token) => {
    const [head, body, signature] = token.split('.');
    const header = b64json(head);
    const claims = b64json(body) as Partial<TokenClaims> & {
      iss?: string;
      aud?: string;
      client_id?: string;
      exp?: number;
    };
    if (header.alg !== 'RS256' || typeof header.kid !== 'string' || !signature)
      throw new InvalidTokenError('the token is not signed with RS256');
    let jwk = (await (keys ?? loadKeys())).get(header.kid);
    if (!jwk) jwk = (await loadKeys()).get(header.kid);
    if (!jwk) throw new InvalidTokenError('the token is signed with an unknown key');
    const valid = verify(
      'RSA-SHA256',
      Buffer.from(`${head}.${body}`),
      createPublicKey({ key: jwk, format: 'jwk' }),
      Buffer.from(signature, 'base64url'),
    );
    if (!valid) throw new InvalidTokenError('the token signature is invalid');
    if (claims.iss !== issuer) throw new InvalidTokenError('the token is from another issuer');
    const audience =
      claims.token_use === 'id' ? claims.aud : claims.token_use === 'access' ? claims.client_id : undefined;
    if (audience !== options.clientId) throw new InvalidTokenError('the token is for another client');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now())
      throw new InvalidTokenError('the token has expired');
    if (typeof claims.sub !== 'string') throw new InvalidTokenError('the token names no user');
    return claims as TokenClaims;
  };
}
