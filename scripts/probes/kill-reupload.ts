/**
 * Kill -9 probe of a re-upload (issue 28 point 6): starts the real server (`dropqa serve`) on a
 * fresh data folder, uploads a document and waits until it is ready, then in each round re-uploads it
 * with new bytes and kills the server with SIGKILL (odd rounds after a random delay, even rounds as
 * soon as the new bytes land in the bucket object), restarts it, waits until
 * nothing is queued or processing, and checks that the bucket object's SHA-256 is the latest stored
 * version's and that version is settled. Prints one line per round and a summary; exits 1 on any
 * disagreement.
 *
 * Run: node bin/run-ts.js scripts/probes/kill-reupload.ts [rounds=20] [maxDelayMs=400]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const rounds = Number(process.argv[2] ?? 20);
const maxDelayMs = Number(process.argv[3] ?? 400);
const dataDir = mkdtempSync(join(tmpdir(), 'dropqa-kill-probe-'));
const KEY = 'uploads/policy.md';
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Server {
  child: ChildProcess;
  url: string;
  log: string[];
}

async function start(): Promise<Server> {
  rmSync(join(dataDir, 'server.json'), { force: true });
  const log: string[] = [];
  const child = spawn(process.execPath, ['bin/dropqa.js', 'serve'], {
    env: { ...process.env, DROPQA_DATA_DIR: dataDir, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (d) => log.push(String(d)));
  const deadline = Date.now() + 600_000;
  while (!existsSync(join(dataDir, 'server.json'))) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`server did not start:\n${log.join('')}`);
    await sleep(100);
  }
  const { url } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { url: string };
  return { child, url, log };
}

function upload(url: string, text: string): Promise<Response> {
  const body = new FormData();
  body.append('files', new Blob([text]), 'policy.md');
  return fetch(`${url}/api/documents/upload`, {
    method: 'POST',
    body,
    headers: { 'X-DropQA-Client': 'probe' },
  });
}

interface Doc {
  id: string;
  key: string;
  status: string;
  currentVersion: number | null;
}
interface Version {
  version: number;
  status: string;
  fileHash: string;
}

/** Waits until no document is queued or processing; returns the live document of KEY and its versions. */
async function settled(url: string): Promise<{ doc: Doc; versions: Version[] }> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    const listed = await fetch(`${url}/api/documents?limit=200`).catch((error: Error) => error);
    if (listed instanceof Error) {
      if (Date.now() > deadline) throw listed;
      console.error(
        `list failed (${String((listed.cause as Error | undefined)?.message ?? listed.message)}); again`,
      );
      await sleep(500);
      continue;
    }
    const { items } = (await listed.json()) as { items: Doc[] };
    const doc = items.find((d) => d.key === KEY);
    if (doc && doc.status !== 'queued' && doc.status !== 'processing') {
      const { versions } = (await (await fetch(`${url}/api/documents/${doc.id}/versions`)).json()) as {
        versions: Version[];
      };
      if (versions.every((v) => v.status !== 'processing')) return { doc, versions };
    }
    if (Date.now() > deadline) throw new Error('the document never settled');
    await sleep(200);
  }
}

/** A few hundred paragraphs: the kill lands anywhere from the upload to the end of the pipeline. */
const content = (round: number) =>
  `# Refund policy, revision ${round}\n\n${Array.from({ length: 300 }, (_, i) => `Clause ${i} of revision ${round}: refunds take ${30 + round} days.`).join('\n\n')}\n`;

let disagreements = 0;
const recoveries = { diverged: 0, requeued: 0, resumed: 0, none: 0 };
let server = await start();
try {
  const first = await upload(server.url, content(0));
  if (!first.ok) throw new Error(`first upload: ${first.status} ${await first.text()}`);
  await settled(server.url);
  console.log(`data folder ${dataDir}; ${rounds} rounds, kill after 0-${maxDelayMs} ms`);

  for (let round = 1; round <= rounds; round++) {
    // Odd rounds: a random moment. Even rounds: the moment the new bytes replace the object (polled
    // every millisecond), the narrow window before the document is queued.
    const atWrite = round % 2 === 0;
    const delay = Math.floor(Math.random() * maxDelayMs);
    const object = join(dataDir, 'bucket', ...KEY.split('/'));
    const before = statSync(object).mtimeMs;
    const sending = upload(server.url, content(round)).catch(() => undefined);
    const since = Date.now();
    if (atWrite) {
      while (statSync(object).mtimeMs === before && Date.now() - since < 60_000) await sleep(1);
    } else await sleep(delay);
    const killedAfter = Date.now() - since;
    server.child.kill('SIGKILL');
    await sending;
    await new Promise((r) => (server.child.exitCode === null ? server.child.once('exit', r) : r(null)));
    server = await start();
    const { doc, versions } = await settled(server.url);
    const latest = versions[0];
    const agree = latest !== undefined && latest.fileHash === sha(readFileSync(object));
    if (!agree) disagreements++;
    const line =
      server.log
        .join('')
        .split('\n')
        .find((l) => l.includes('recovered interrupted work')) ?? '';
    const count = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(line)?.[1] ?? 0);
    const what =
      count('storedObjectsDiffering') > 0
        ? 'diverged'
        : count('requeued') > 0
          ? 'requeued'
          : count('resumed') > 0
            ? 'resumed'
            : 'none';
    recoveries[what]++;
    console.log(
      `round ${round}: kill ${atWrite ? 'as the object was written' : 'at a random moment'}, ${killedAfter} ms after sending; at restart: ${what}; latest v${latest?.version} ${latest?.status}, current v${doc.currentVersion}; object ${agree ? 'agrees' : 'DIFFERS'}`,
    );
  }
  server.child.kill('SIGTERM');
  console.log(
    `summary: ${rounds} kills, ${disagreements} disagreement(s); recovery at restart: ${JSON.stringify(recoveries)}`,
  );
} finally {
  // Never leave a server behind, whatever failed.
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}
rmSync(dataDir, { recursive: true, force: true });
process.exit(disagreements > 0 ? 1 : 0);
