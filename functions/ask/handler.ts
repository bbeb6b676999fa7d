import { streamHandle } from 'hono/aws-lambda';
import { createApp } from '#shared/api/app.ts';
import { lambdaRuntime } from './runtime.ts';

/**
 * The HTTP API behind a Function URL in RESPONSE_STREAM mode: the Hono app of the local server, its
 * Server-Sent Events streamed as they are written. CloudFront (origin access control) is the only
 * caller the URL's AWS_IAM auth lets in.
 */
export const handler = streamHandle(createApp(await lambdaRuntime()));
