/**
 * `node --expose-gc bin/run-ts.js bench/upload-safety.ts`: what large and hostile uploads cost the
 * local server (docs/security.md). Prints a table:
 * - peak RSS above idle while a 400 MB file is uploaded (refused at limits.maxFileBytes, 100 MiB);
 * - peak RSS above idle while 400 MB in four 100 MB files are uploaded (accepted: staged on disk and
 *   streamed into the bucket), and then while the pipeline registers them (binary data: each fails
 *   at Register, which reads a file whole, up to limits.pipelineConcurrency at once);
 * - /api/health latency p50/p99 while BENCH_UPLOAD_FILES (default 1000) small Markdown files are
 *   uploaded in one request and registered (the embedded database in its worker thread, or on the
 *   server's thread with DROPQA_DATABASE__EMBEDDED__WORKER=false).
 * The client streams its bodies from generators, so its own memory stays small in the same process.
 * RSS is sampled every 20 ms; `maxRSS` (the kernel's high-water mark) checks the samples.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '#shared/api/serve.ts';
import { loadConfig } from '#shared/config/index.ts';

const FILES = Number(process.env.BENCH_UPLOAD_FILES ?? 1000);
const BIG_BYTES = 400 * 1000 * 1000;
/** Four of these make the accepted 400 MB upload; each is under limits.maxFileBytes (100 MiB). */
const PART_BYTES = 100 * 1000 * 1000;
const CLIENT = { 'X-DropQA-Client': 'bench' };

/** A multipart body of `parts`, produced chunk by chunk. */
function multipart(boundary: string, parts: { name: string; size: number; chunk: () => Uint8Array }[]) {
  const encoder = new TextEncoder();
  async function* generate() {
    for (const part of parts) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${part.name}"\r\n\r\n`,
      );
      for (let sent = 0; sent < part.size; ) {
        const chunk = part.chunk();
        const piece = chunk.subarray(0, Math.min(chunk.length, part.size - sent));
        sent += piece.length;
        yield piece;
      }
      yield encoder.encode('\r\n');
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  return ReadableStream.from(generate());
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Samples RSS every 20 ms while `work` runs; answers its result and the peak seen. */
async function peakDuring<T>(work: () => Promise<T>): Promise<{ result: T; peak: number; ms: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  try {
    const result = await work();
    return { result, peak: Math.max(peak, process.memoryUsage().rss), ms: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

async function settle(): Promise<number> {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  global.gc?.();
  return process.memoryUsage().rss;
}

const dir = mkdtempSync(join(tmpdir(), 'dropqa-bench-upload-'));
// DROPQA_DATABASE__EMBEDDED__WORKER=false measures the embedded database on the server's thread.
const workerSetting = process.env.DROPQA_DATABASE__EMBEDDED__WORKER;
const config = loadConfig({
  env: {
    DROPQA_DATA_DIR: dir,
    PORT: '0',
    ...(workerSetting ? { DROPQA_DATABASE__EMBEDDED__WORKER: workerSetting } : {}),
  },
});
const server = await startServer(config);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const upload = (boundary: string, parts: Parameters<typeof multipart>[1]) =>
  fetch(`${server.url}/api/documents/upload`, {
    method: 'POST',
    headers: { ...CLIENT, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipart(boundary, parts),
    duplex: 'half',
  } as RequestInit).catch((error: Error) => ({ status: `connection closed (${error.message})` }));
/** Waits until no document is queued or processing (the pipeline is done with the upload). */
async function pipelineSettled(): Promise<void> {
  for (;;) {
    const res = await fetch(`${server.url}/api/documents?limit=100`);
    const { items } = (await res.json()) as { items: { status: string }[] };
    if (items.every((d) => d.status !== 'queued' && d.status !== 'processing')) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
try {
  const idle = await settle();
  const text = new Uint8Array(1024 * 1024).fill(0x61);
  const refused = await peakDuring(() =>
    upload('benchboundary400mb', [{ name: 'big.md', size: BIG_BYTES, chunk: () => text }]),
  );
  await new Promise((r) => setTimeout(r, 300));

  // Binary blocks (NUL bytes among them): Register refuses them at once, so no parser runs.
  const binary = new Uint8Array(1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
  const idle2 = await settle();
  const accepted = await peakDuring(() =>
    upload(
      'benchboundary4x100mb',
      [1, 2, 3, 4].map((n) => ({ name: `part-${n}.bin`, size: PART_BYTES, chunk: () => binary })),
    ),
  );
  const answer = 'json' in accepted.result ? await accepted.result.json() : undefined;
  const statuses = (answer as { documents?: { status: string }[] } | undefined)?.documents?.map(
    (d) => d.status,
  );
  const registered = await peakDuring(pipelineSettled);
  const maxRss = process.resourceUsage().maxRSS * 1024;

  // /api/health under load: many small files in one request, then their registration.
  const latencies: number[] = [];
  let loading = true;
  const prober = (async () => {
    while (loading) {
      const t = performance.now();
      await fetch(`${server.url}/api/health`);
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const form = new FormData();
  for (let i = 0; i < FILES; i++) {
    form.append(
      'files',
      new Blob([`# Note ${i}\n\nParagraph ${i} of the load test.\n`]),
      `load/note-${i}.md`,
    );
  }
  const loadStarted = performance.now();
  const res = await fetch(`${server.url}/api/documents/upload`, {
    method: 'POST',
    body: form,
    headers: CLIENT,
  });
  const uploadMs = performance.now() - loadStarted;
  // Keep probing while the pipeline works on them, up to 30 s.
  await new Promise((r) => setTimeout(r, Math.min(30_000, Math.max(5_000, uploadMs))));
  loading = false;
  await prober;

  const rows = [
    ['400 MB file upload: answer', `${refused.result.status} after ${refused.ms.toFixed(0)} ms`, '413'],
    [
      '400 MB file upload: peak RSS above idle',
      `${mb(refused.peak - idle)} MB (idle ${mb(idle)} MB)`,
      '< 150 MB',
    ],
    [
      '4 x 100 MB upload: answer',
      `${accepted.result.status} (${statuses?.join(', ') ?? '?'}) after ${accepted.ms.toFixed(0)} ms`,
      '200, 4 queued',
    ],
    [
      '4 x 100 MB upload: peak RSS above idle',
      `${mb(accepted.peak - idle2)} MB (idle ${mb(idle2)} MB)`,
      '< 150 MB',
    ],
    [
      '4 x 100 MB: peak RSS above idle while Register reads them',
      `${mb(registered.peak - idle2)} MB over ${registered.ms.toFixed(0)} ms`,
      '(pipeline)',
    ],
    ['process maxRSS so far (kernel high-water mark)', `${mb(maxRss)} MB`, ''],
    [`${FILES}-file upload: answer`, `${res.status} after ${uploadMs.toFixed(0)} ms`, '200'],
    [
      `/api/health during the ${FILES}-file upload (${latencies.length} probes; database ${config.database.embedded.worker ? 'in a worker thread' : 'on the server thread'})`,
      `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
      'p99 < 500 ms',
    ],
  ];
  console.log('\n| metric | value | target |\n| --- | --- | --- |');
  for (const [metric, value, target] of rows) console.log(`| ${metric} | ${value} | ${target} |`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
