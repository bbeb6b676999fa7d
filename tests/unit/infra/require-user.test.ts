import { generateKeyPairSync, type JsonWebKey, sign } from 'node:crypto';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { cognitoVerifier } from '../../../functions/ask/cognito-token.ts';
import {
  requireUser,
  TOKEN_COOKIE,
  TOKEN_HEADER,
  type UserVariables,
} from '../../../functions/ask/require-user.ts';

const POOL = 'eu-west-1_AbCdEf123';
const CLIENT = 'web-client-id';
const ISSUER = `https://cognito-idp.eu-west-1.amazonaws.com/${POOL}`;
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = {
  ...(publicKey.export({ format: 'jwk' }) as JsonWebKey),
  kid: 'key-1',
  alg: 'RS256',
  use: 'sig',
};

function token(claims: Record<string, unknown>, key = privateKey): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', kid: 'key-1' })}.${part(claims)}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), key).toString('base64url')}`;
}

const GRANTS = {
  hr: { read: ['hr', 'handbook'], write: ['hr'] },
  engineering: { read: [], write: ['engineering'] },
};
const valid = { sub: 'user-1', iss: ISSUER, aud: CLIENT, token_use: 'id', exp: Date.now() / 1000 + 600 };
const fetched: string[] = [];
const app = new Hono();
app.use(
  '/api/*',
  requireUser(
    cognitoVerifier({
      userPoolId: POOL,
      clientId: CLIENT,
      fetchKeys: async (url) => {
        fetched.push(url);
        return { keys: [jwk] };
      },
    }),
    GRANTS,
  ),
);
app.get('/api/documents', (c) => c.json({ ok: true }));
app.get('/api/scope', (c) =>
  c.json({ read: c.get('access' as never), write: c.get('writeAccess' as never) }),
);
app.get('/api/health', (c) => c.json({ ok: true }));

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });

describe('requireUser', () => {
  it('lets a request with a valid Cognito ID token through and fetches the pool keys once', async () => {
    expect((await get('/api/documents', { [TOKEN_HEADER]: token(valid) })).status).toBe(200);
    expect((await get('/api/documents', { cookie: `${TOKEN_COOKIE}=${token(valid)}` })).status).toBe(200);
    expect(fetched).toEqual([`${ISSUER}/.well-known/jwks.json`]);
  });

  it('accepts an access token for the client and refuses one for another client', async () => {
    const access = {
      sub: 'user-1',
      iss: ISSUER,
      client_id: CLIENT,
      token_use: 'access',
      exp: Date.now() / 1000 + 600,
    };
    expect((await get('/api/documents', { [TOKEN_HEADER]: token(access) })).status).toBe(200);
    const response = await get('/api/documents', {
      [TOKEN_HEADER]: token({ ...access, client_id: 'other' }),
    });
    expect(response.status).toBe(401);
  });

  it('puts the verified claims in the request context', async () => {
    const typed = new Hono<{ Variables: UserVariables }>();
    typed.use(
      '/api/*',
      requireUser(async () => ({ sub: 'user-9', token_use: 'id' }), {}),
    );
    typed.get('/api/me', (c) => c.json({ sub: c.get('user').sub }));
    const response = await typed.request('/api/me', { headers: { [TOKEN_HEADER]: 'x' } });
    expect(await response.json()).toEqual({ sub: 'user-9' });
  });

  it('refuses a request without a token, except the health check', async () => {
    const response = await get('/api/documents');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await get('/api/health')).status).toBe(200);
  });

  it.each([
    ['expired', token({ ...valid, exp: Date.now() / 1000 - 1 }), /expired/],
    ['for another client', token({ ...valid, aud: 'someone-else' }), /another client/],
    ['from another pool', token({ ...valid, iss: `${ISSUER}x` }), /another issuer/],
    ['signed by another key', token(valid, other.privateKey), /signature/],
    ['not a JWT', 'garbage', /not a JWT/],
    ['of an unknown kind', token({ ...valid, token_use: 'refresh' }), /neither an ID nor an access token/],
    ['without an expiry', token({ ...valid, exp: undefined }), /no expiry/],
  ])('refuses a token %s', async (_, bad, reason) => {
    const response = await get('/api/documents', { [TOKEN_HEADER]: bad });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(reason);
  });

  describe('access from Cognito groups', () => {
    const scopeOf = async (groups: unknown) => {
      const claims = groups === undefined ? valid : { ...valid, 'cognito:groups': groups };
      const response = await get('/api/scope', { [TOKEN_HEADER]: token(claims) });
      return response.json();
    };

    it('reads the collections its groups grant, writable ones included, and writes only those granted', async () => {
      expect(await scopeOf(['hr'])).toEqual({
        read: { kind: 'collections', collections: ['handbook', 'hr'] },
        write: { kind: 'collections', collections: ['hr'] },
      });
      expect(await scopeOf(['hr', 'engineering'])).toEqual({
        read: { kind: 'collections', collections: ['engineering', 'handbook', 'hr'] },
        write: { kind: 'collections', collections: ['engineering', 'hr'] },
      });
    });

    it('gives a member of admin every collection', async () => {
      expect(await scopeOf(['staff', 'admin'])).toEqual({ read: { kind: 'all' }, write: { kind: 'all' } });
    });

    it.each([
      ['no groups claim', undefined],
      ['no granting group', ['staff', 'constructor', 'toString']],
      ['a malformed claim', 'admin'],
    ])('denies everything to a user with %s', async (_, groups) => {
      const none = { kind: 'collections', collections: [] };
      expect(await scopeOf(groups)).toEqual({ read: none, write: none });
    });
  });
});
