import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface User {
  password: string;
  /** Admin-created: the first sign-in answers NEW_PASSWORD_REQUIRED. */
  mustChangePassword: boolean;
}

/** A fake Cognito user pool endpoint and the tokens it issued (what the API gate accepts). */
export interface FakeCognito {
  url: string;
  /** Every call, by its X-Amz-Target action. */
  calls: string[];
  isValid(token: string): boolean;
  /** Makes every issued token invalid, as an expiry would. */
  expireAll(): void;
  close(): Promise<void>;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A tiny local stand-in for `cognito-idp.{region}.amazonaws.com` speaking the JSON 1.1 protocol the
 * web client uses: InitiateAuth (USER_PASSWORD_AUTH) and RespondToAuthChallenge
 * (NEW_PASSWORD_REQUIRED), with CORS as the real endpoint answers a browser. Tokens are unsigned
 * JWT-shaped strings; the test's API gate checks them against `isValid`.
 */
export async function startFakeCognito(users: Record<string, User>): Promise<FakeCognito> {
  const calls: string[] = [];
  const valid = new Set<string>();
  const sessions = new Map<string, string>();
  let issued = 0;

  const token = (username: string) => {
    issued += 1;
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const jwt = `${base64url({ alg: 'none' })}.${base64url({ sub: `user-${issued}`, 'cognito:username': username, token_use: 'id', exp })}.sig${issued}`;
    valid.add(jwt);
    return {
      AuthenticationResult: {
        IdToken: jwt,
        AccessToken: `access-${issued}`,
        ExpiresIn: 3600,
        TokenType: 'Bearer',
      },
    };
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'Content-Type': 'application/x-amz-json-1.1',
      'Access-Control-Allow-Origin': '*',
    });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, type: string, message: string) =>
    answer(res, 400, { __type: type, message });

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'content-type, x-amz-target, x-amz-user-agent',
      });
      return res.end();
    }
    const target = String(req.headers['x-amz-target'] ?? '');
    if (
      req.headers['content-type'] !== 'application/x-amz-json-1.1' ||
      !target.startsWith('AWSCognitoIdentityProviderService.')
    )
      return fail(res, 'UnknownOperationException', 'Bad protocol');
    const action = target.slice(target.indexOf('.') + 1);
    calls.push(action);
    const body = JSON.parse(raw) as {
      AuthFlow?: string;
      AuthParameters?: { USERNAME?: string; PASSWORD?: string };
      ChallengeName?: string;
      Session?: string;
      ChallengeResponses?: { USERNAME?: string; NEW_PASSWORD?: string };
    };
    if (action === 'InitiateAuth') {
      const name = body.AuthParameters?.USERNAME ?? '';
      const user = users[name];
      if (body.AuthFlow !== 'USER_PASSWORD_AUTH')
        return fail(res, 'InvalidParameterException', 'Flow not enabled');
      if (!user || user.password !== body.AuthParameters?.PASSWORD)
        return fail(res, 'NotAuthorizedException', 'Incorrect username or password.');
      if (!user.mustChangePassword) return answer(res, 200, token(name));
      const session = `session-${calls.length}`;
      sessions.set(session, name);
      return answer(res, 200, {
        ChallengeName: 'NEW_PASSWORD_REQUIRED',
        Session: session,
        ChallengeParameters: {},
      });
    }
    if (action === 'RespondToAuthChallenge') {
      const name = sessions.get(body.Session ?? '');
      const user = name ? users[name] : undefined;
      const next = body.ChallengeResponses?.NEW_PASSWORD ?? '';
      if (
        !name ||
        !user ||
        body.ChallengeName !== 'NEW_PASSWORD_REQUIRED' ||
        body.ChallengeResponses?.USERNAME !== name
      )
        return fail(res, 'NotAuthorizedException', 'Invalid session for the user.');
      if (next.length < 8)
        return fail(
          res,
          'InvalidPasswordException',
          'Password does not conform to policy: Password not long enough',
        );
      user.password = next;
      user.mustChangePassword = false;
      sessions.delete(body.Session ?? '');
      return answer(res, 200, token(name));
    }
    return fail(res, 'UnknownOperationException', action);
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    calls,
    isValid: (value) => valid.has(value),
    expireAll: () => valid.clear(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
