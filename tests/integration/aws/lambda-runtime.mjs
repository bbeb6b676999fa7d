// A Lambda execution environment for one function's code folder, run as a child process (plain
// JavaScript: it loads only what Lambda's Node runtime gives a function). argv: the folder (where
// Lambda unzips the package) and the handler setting (`ingest/register.handler`). It imports the
// module once, as a cold start does, then invokes it for each { id, event, stream } message and
// answers { id, result } or { id, error }; stream: true invokes in RESPONSE_STREAM mode
// (`awslambda.streamifyResponse`), answering the response's metadata and body.
// The Cognito user pool's JWKS (env TEST_JWKS) is answered in-process for the pool's well-known URL,
// since aws-jwt-verify fetches it with https.request.
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [dir, setting] = process.argv.slice(2);
const dot = setting.lastIndexOf('.');
const modulePath = join(dir, `${setting.slice(0, dot)}.mjs`);
const exportName = setting.slice(dot + 1);

const jwks = process.env.TEST_JWKS;
if (jwks) {
  const request = https.request;
  https.request = (uri, options, callback) => {
    if (!String(uri).endsWith('/.well-known/jwks.json')) return request(uri, options, callback);
    const fake = new PassThrough();
    fake.end = () => {
      const response = Readable.from([Buffer.from(jwks)]);
      response.statusCode = 200;
      response.headers = { 'content-type': 'application/json' };
      setImmediate(() => callback(response));
      return fake;
    };
    return fake;
  };
  syncBuiltinESMExports();
}

/** Response streaming as the runtime offers it: metadata first, then the body as written. */
globalThis.awslambda = {
  streamifyResponse: (handler) => handler,
  HttpResponseStream: {
    from: (stream, metadata) => {
      stream.metadata = metadata;
      return stream;
    },
  },
};

const context = (id) => ({
  functionName: 'bundled-test',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:bundled-test',
  memoryLimitInMB: '1024',
  awsRequestId: id,
  logGroupName: '/aws/lambda/bundled-test',
  logStreamName: 'test',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 60_000,
});

let handler;
try {
  handler = (await import(pathToFileURL(modulePath).href))[exportName];
  if (typeof handler !== 'function') throw new Error(`${setting}: no handler function exported`);
  process.send({ ready: true });
} catch (error) {
  process.send({ ready: false, error: { name: error?.name, message: String(error?.stack ?? error) } });
  process.exit(1);
}

process.on('message', async ({ id, event, stream }) => {
  try {
    if (!stream) {
      process.send({ id, result: (await handler(event, context(id))) ?? null });
      return;
    }
    const chunks = [];
    const body = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const finished = new Promise((resolve) => body.on('finish', resolve));
    await handler(event, body, context(id));
    await finished;
    process.send({ id, result: { metadata: body.metadata, body: Buffer.concat(chunks).toString('utf8') } });
  } catch (error) {
    process.send({ id, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } });
  }
});
