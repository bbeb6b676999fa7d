import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3Server {
  endpoint: string;
  close(): Promise<void>;
}

// s3rver encrypts ListObjectsV2 continuation tokens with DES, which OpenSSL 3 only offers through
// its legacy provider; a child process may enable that without touching the test process.
const SCRIPT = `
const S3rver = require('s3rver');
const [directory, names, keys] = process.argv.slice(1);
// s3rver knows one access key; callers that sign with keys of their own are registered too.
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account');
for (const key of JSON.parse(keys)) DUMMY_ACCOUNT.createKeyPair(key, key);
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory,
  configureBuckets: JSON.parse(names).map((name) => ({ name })) });
server.run().then(({ port }) => console.log(JSON.stringify({ port })));
`;

/**
 * Starts s3rver on a loopback port with the named buckets in a temporary folder. Requests may be
 * signed with its own key (`S3RVER`) or any of `accessKeys`.
 */
export async function startS3rver(buckets: string[], accessKeys: string[] = []): Promise<S3Server> {
  const dir = await mkdtemp(join(tmpdir(), 'dropqa-s3rver-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', SCRIPT, dir, JSON.stringify(buckets), JSON.stringify(accessKeys)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await readPort(child);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function readPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code} before listening`)));
  });
}
