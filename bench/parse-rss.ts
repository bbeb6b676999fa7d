/**
 * Child process of the parse benchmark: parses one file as the Parse step does and prints one JSON
 * line with the time and the peak resident set size of this process (the kernel's high-water mark,
 * which sees the peak inside synchronous library calls that a timer sampling RSS would miss; it
 * includes start-up, so it is an upper bound), so the parent's own memory does not count.
 * Usage: node bin/run-ts.js bench/parse-rss.ts <file> [maxRows]
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';

/**
 * This process's peak RSS in MB: Linux's VmHWM, which starts afresh at exec. getrusage's maxRSS
 * does not: a child keeps the RSS its parent had when it forked (1.9 GB reported for a parse that
 * peaked at 0.5 GB, under a bench that had just written the file), so it is only the fallback.
 */
function peakRssMb(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS / 1024;
}

const [file, maxRows] = process.argv.slice(2);
if (!file) throw new Error('usage: parse-rss.ts <file> [maxRows]');

const started = performance.now();
const bytes = new Uint8Array(readFileSync(file));
const filename = basename(file);
const limits = { ...DEFAULT_PARSE_LIMITS, maxRows: Number(maxRows ?? DEFAULT_PARSE_LIMITS.maxRows) };
const doc = await parseDocument({ bytes, filename, limits }, detectFileType(bytes, filename));
const paragraphs = doc.children.reduce(
  (n, node) => n + (node.type === 'section' ? node.children.length : 1),
  0,
);
console.log(
  JSON.stringify({
    ms: performance.now() - started,
    peakRssMb: peakRssMb(),
    bytes: bytes.length,
    paragraphs,
  }),
);
