import { streamHandle } from 'hono/aws-lambda';
import '../lib/log.ts';
import { ConfigError } from '#shared/errors.ts';
import { readLambdaEnv } from '../lib/env.ts';
import { lambdaApp } from './app.ts';
import { cognitoVerifier } from './cognito-token.ts';
import { lambdaRuntime } from './runtime.ts';

const { USER_POOL_ID, USER_POOL_CLIENT_ID } = process.env;
if (!USER_POOL_ID || !USER_POOL_CLIENT_ID)
  throw new ConfigError('USER_POOL_ID and USER_POOL_CLIENT_ID must be set');

const app = lambdaApp(
  await lambdaRuntime(),
  cognitoVerifier({ userPoolId: USER_POOL_ID, clientId: USER_POOL_CLIENT_ID }),
  readLambdaEnv().ACCESS_GRANTS,
);

/**
 * The HTTP API behind a Function URL in RESPONSE_STREAM mode: the Hono app of the local server, its
 * Server-Sent Events streamed as they are written, every /api route but the health check behind a
 * Cognito user token. CloudFront (origin access control) is the only caller the URL's AWS_IAM auth
 * lets in.
 */
export const handler = streamHandle(app);
