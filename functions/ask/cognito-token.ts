import { CognitoJwtVerifier } from 'aws-jwt-verify';
import {
  CognitoJwtInvalidClientIdError,
  CognitoJwtInvalidTokenUseError,
  FetchError,
  JwtBaseError,
  JwtExpiredError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureAlgorithmError,
  JwtInvalidSignatureError,
  JwtParseError,
  KidNotFoundInJwksError,
  ParameterValidationError,
} from 'aws-jwt-verify/error';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';

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
  fetchKeys?: (url: string) => Promise<{ keys: object[] }>;
}

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** What a person is told for each way a token can be refused by aws-jwt-verify. */
const REASONS: [new (...args: never[]) => JwtBaseError, string][] = [
  [JwtParseError, 'the token is not a JWT'],
  [JwtInvalidSignatureAlgorithmError, 'the token is not signed with RS256'],
  [KidNotFoundInJwksError, 'the token is signed with an unknown key'],
  [JwtInvalidSignatureError, 'the token signature is invalid'],
  [JwtInvalidIssuerError, 'the token is from another issuer'],
  [CognitoJwtInvalidClientIdError, 'the token is for another client'],
  [CognitoJwtInvalidTokenUseError, 'the token is neither an ID nor an access token'],
  [JwtExpiredError, 'the token has expired'],
];

/**
 * Verifies Cognito user-pool tokens (ID or access) with aws-jwt-verify: signature against the pool's
 * published keys (fetched once, again on an unknown key id), issuer, client, token use and expiry.
 * A refused token throws `InvalidTokenError` with a readable reason; a JWKS that cannot be fetched
 * throws as is (a server problem, not the user's).
 *
 * @example const verifyToken = cognitoVerifier({ userPoolId, clientId }); await verifyToken(jwt)
 */
export function cognitoVerifier(options: CognitoVerifierOptions): (token: string) => Promise<TokenClaims> {
  const { fetchKeys } = options;
  const jwksCache = fetchKeys
    ? new SimpleJwksCache({
        fetcher: {
          fetch: async (uri) => new TextEncoder().encode(JSON.stringify(await fetchKeys(uri))).buffer,
        },
      })
    : undefined;
  const verifier = CognitoJwtVerifier.create(
    {
      userPoolId: options.userPoolId,
      clientId: options.clientId,
      tokenUse: null,
      // aws-jwt-verify checks `exp` only when present; Cognito always sets it, so its absence is forged.
      customJwtCheck: ({ payload }) => {
        if (typeof payload.exp !== 'number') throw new InvalidTokenError('the token has no expiry');
      },
    },
    jwksCache ? { jwksCache } : undefined,
  );
  return async (token) => {
    try {
      return (await verifier.verify(token)) as unknown as TokenClaims;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (!(error instanceof JwtBaseError) || error instanceof FetchError) throw error;
      // A token from another pool is refused before its claims are read, as an unconfigured issuer.
      const otherPool =
        error instanceof ParameterValidationError && /issuer not configured/.test(error.message);
      const reason = otherPool
        ? 'the token is from another issuer'
        : (REASONS.find(([type]) => error instanceof type)?.[1] ??
          `the token is not valid (${error.message})`);
      throw new InvalidTokenError(reason, { cause: error });
    }
  };
}
