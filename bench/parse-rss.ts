/**
 * Child process of the parse benchmark: parses one file as the Parse step does and prints one JSON
 * line with the time and the peak resident set size of this process (the kernel's maxrss, which sees
 * the peak inside synchronous library calls that a timer sampling RSS would miss; it includes
 * start-up, so it is an upper bound), so the parent's own memory does not count.
 * Usage: node bin/run-ts.js bench/parse-rss.ts <file> [maxRows]
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { detectFileType } from '#shared/parse/detect.ts';
import { DEFAULT_PARSE_LIMITS } from '#shared/parse/limits.ts';
import { parseDocument } from '#shared/parse/parse-document.ts';

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
    // maxRSS is in kilobytes.
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    bytes: bytes.length,
    paragraphs,
  }),
);
