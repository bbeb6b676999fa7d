import { Hono } from 'hono';
import { streamHandle } from 'hono/aws-lambda';
import { createApp } from '#shared/api/app.ts';
import { ConfigError } from '#shared/errors.ts';
import { cognitoVerifier } from './cognito-token.ts';
import { requireUser, type UserVariables } from './require-user.ts';
import { lambdaRuntime } from './runtime.ts';

const { USER_POOL_ID, USER_POOL_CLIENT_ID } = process.env;
if (!USER_POOL_ID || !USER_POOL_CLIENT_ID)
  throw new ConfigError('USER_POOL_ID and USER_POOL_CLIENT_ID must be set');

const app = new Hono<{ Variables: UserVariables }>();
app.use('/api/*', requireUser(cognitoVerifier({ userPoolId: USER_POOL_ID, clientId: USER_POOL_CLIENT_ID })));
app.route('/', createApp(await lambdaRuntime()));

/**
 * The HTTP API behind a Function URL in RESPONSE_STREAM mode: the Hono app of the local server, its
 * Server-Sent Events streamed as they are written, every /api route but the health check behind a
 * Cognito user token. CloudFront (origin access control) is the only caller the URL's AWS_IAM auth
 * lets in.
 */
export const handler = streamHandle(app);
