#!/usr/bin/env node
/**
 * Rewrites the citations of the design documents the project started from ("seed 000 §5.3",
 * "seed 002 §3.3 step 1", "the seed allows at most 10", ...), which are not in this repository,
 * into references to docs/spec.md ("docs/spec.md#topics"; in Markdown a relative link,
 * "[spec](spec.md#topics)" from docs/). Then lists every seed citation it could not map, with its file and
 * line, and exits 1 when any remain. It never guesses: a citation that is not in CITATIONS below
 * stays as it is and is reported. Running it again on a rewritten tree changes nothing.
 *
 * Usage: node scripts/cite-spec.mjs [--dry-run]
 *   --dry-run  report what would change without writing
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TARGETS = ['shared', 'functions', 'infra', 'web/src', 'tests', 'bench', 'docs', 'README.md'];
const EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.vue', '.md']);
const SKIP_DIRS = new Set(['node_modules', 'dist', 'cdk.out', '.git', 'results']);
const SPEC = 'docs/spec.md';

/**
 * Each citation as written, and what replaces it. `{anchor}` becomes `docs/spec.md#anchor` (in a
 * Markdown file a link); `{text|anchor}` becomes `text (docs/spec.md#anchor)` (in Markdown a link
 * named text). A space in a citation also matches a line break inside a comment. The longest
 * citation starting at a place wins, so phrases that need rewording come with their reference.
 */
const CITATIONS = [
  // Section tree and normalisation
  ['seed 000 §5.1.2-5.1.3', '{normalisation}'],
  ['too little (seed 000 §5.1.2-5.1.3)', 'too little ({generated-sections})'],
  ['seed 000 §5.1.2', '{generated-sections}'],
  ['seed 000 §5.1.2 semantic chunking', '{generated-sections}'],
  ['seed 000 §5.1.2 hierarchical grouping', '{generated-sections}'],
  ['seed 000 §5.1.2: five clusters', 'at most five groups, {generated-sections}'],
  ['seed 000 §5.1.2\'s "documents with headings" test,', '{inferred-headings}:'],
  ['seed 000 §5.1.3', '{normalisation}'],
  ['seed 000 §5.1.3 `semantic_split`', '{paragraph-splitting}'],
  ['seed 000 §5.1.3 rule 3', '{title-enrichment}'],
  ["seed 000 §5.1.3's four patterns", '{title-enrichment}: four numbering patterns'],
  ['seed 000 §5.1.3 asks 5-15 characters', '5-15 characters ({title-enrichment})'],
  ['seed 002 §2.1', '{categories}'],
  ['categories of seed 002 §2.1', 'categories ({categories})'],
  ['the seed 002 keyword rules', 'the keyword rules of {categories}'],
  ['the exact enum strings of seed 002', 'the exact enum strings of {categories}'],
  ['seed 003 §3.2', '{index-text}'],
  ['seed 003 §3.2 meta-content', '{index-text}'],
  // Ingestion, enrichment
  ['seed 004 §2.2', '{rendition}'],
  ['image node (seed 000 §5.1)', 'image node ({images})'],
  ['seed 000 §5.2.2', '{summaries}'],
  [
    'Seed 000 §5.2.2: sections in 1-2 sentences, the document in 2-3',
    'Sections in 1-2 sentences, the document in 2-3 ({summaries})',
  ],
  ['seed 003 §3.3', '{contexts}'],
  ['seed 003 §4', '{contexts}'],
  ['seed 000 §5.3', '{topics}'],
  ['seed 000 §5.3.1', '{topics}'],
  ['seed 000 §5.3 without a model', '{topics}, without a model'],
  ['seed 000 §5.3.2', '{question-topics}'],
  // Search and the fast path
  ['seed 000 §6.2.4', '{related-documents}'],
  ['seed 000 §6.4', '{auto}'],
  ['seed 000 §6.4.1', '{auto}'],
  ['seed 000 §6.4.2', '{auto}'],
  ['seed 000 §6.4-6.5', '{auto}'],
  ['seed 000 §6.4 fast path', 'the fast path, {auto}'],
  ['seed 000 §6.5', '{standard}'],
  ['seed 000 §6.5.1', '{standard-retrieval}'],
  ['seed 000 §6.5.2', '{quality-check}'],
  ['The quality check of seed 000 §6.5.2', 'The quality check ({quality-check})'],
  ['(seed 000 §6: degrade rather than fail)', '(degrade rather than fail: {degrading})'],
  // The agent
  ['seed 000 §6.2', '{tools}'],
  ['seed 000 §6.2.1', '{tools}'],
  ['seed 000 §6.2.7', '{tools}'],
  ['seed 002 §5.2', '{tools}'],
  ['seed 000 §6.2, seed 002 §5.2', '{tools}'],
  [' (seed window expansion)', ''],
  ['seed 000 §6.2.3', '{planners}'],
  ['seed 000 §6.2.3 strategy selection, deterministic', 'strategy selection, deterministic: {planners}'],
  ['seed 000 §6.4.4', '{planners}'],
  ['seed 000 §6.3.2', '{feedback}'],
  ['seed 000 §6.3.3', '{feedback}'],
  ['seed 000 §6.4.3', '{agent-loop}'],
  ['seed 000 §6.4.3 `context`', '{agent-loop}'],
  ['seed 000 §6.4.3 with seed 002 §5', '{agent-loop}'],
  ['seed 000 §6.2-6.4, seed 002 §3.3 and §5', '{agent-loop}'],
  ['seed 002 §5', '{agent-loop}'],
  ['seed 002 §5.5', '{agent-loop}'],
  ['seed 002 §3.3', '{routing}'],
  ['seed 002 §3.3 step 1', '{routing}'],
  ['seed 002 §3.3 intent routing', '{routing}'],
  ['seed 002 §3.3 introduction injection', '{background}'],
  ["seed 000 §8.2: A's lead", "{multi-hop}: A's lead"],
  ["the model's, seed 000 §8.2", "the model's, {contradictions}"],
  ['**Contradictions** (seed 000 §8.2)', '**Contradictions** ({contradictions})'],
  // Two-stage
  ['seed 001', '{two-stage}'],
  ['One stage of seed 001', 'One stage of the two-stage mode ({two-stage})'],
  ['seed 001 §7.2', '{two-stage}'],
  ['seed 001 §3.1', '{sub-query-retrieval}'],
  ['seed 001, agent 1', '{decomposition}'],
  ['seed 001 §4.1', '{decomposition}'],
  ['seed 001, agent 2', '{relevance-judge}'],
  ['seed 001 §4.2', '{relevance-judge}'],
  ['seed 001 §4.3', '{relevance-judge}'],
  ['seed 001, agent 3', '{sufficiency}'],
  ['seed 001 §3.2, agent 3', '{sufficiency}'],
  ['seed 001, agent 4', '{report}'],
  ['seed 001 §8.1', '{report}'],
  // Documents mode
  ['seed 004', '{documents-mode}'],
  ['seed 004 §3.3', '{documents-mode}'],
  ['(seed 004 allows at most 10)', '(at most 10, {documents-mode})'],
  ['the seed allows at most 10', 'at most 10, {documents-mode}'],
  ['the seed aims at < 5 s', 'the aim is under 5 s, {timing-targets}'],
  ['as in seed 004', 'as in the {documents mode|documents-mode}'],
  [
    "The seed's cache keeps the last 1,000 documents",
    'Renditions and images read recently stay in memory ({documents-mode})',
  ],
  ['documents mode, seed 004', 'documents mode, {markers}'],
  ['seed 004 §2.3.1', '{markers}'],
  ['seed 004 §2.3.2', '{markers}'],
  ['Stage 1 for one document (seed 004 §2.1)', 'Stage 1 for one document ({stage-1})'],
  ['The structured reply of seed 004 §2.1 (', 'The structured reply ({stage-1}: '],
  ["The seed's three-part reply", 'The three-part reply ({stage-1})'],
  ['seed 004 §2.3.3', '{stage-1}'],
  ['Stage 2 (seed 004 §2.1)', 'Stage 2 ({stage-2})'],
  ['seed 004 §2.4', '{document-references}'],
  ['seed 004 §2.4.1', '{document-references}'],
  ['seed 004 §2.4.2', '{document-references}'],
  ['seed 004 §2.4.3', '{document-references}'],
  ['seed 004 §2.5', '{image-endpoint}'],
  // Events and API
  ['`POST /api/qa/ask` (seed 000 §7.1)', '`POST /api/qa/ask` ({ask-request})'],
  ['A cited passage (seed 000 §7.1)', 'A cited passage ({response})'],
  ['(seed: citations that can be trusted)', '({response})'],
  ['seed 000 §6.6', '{response}'],
  ['the response of seed 000 §6.6', 'the response ({response})'],
  ['the seed 000 §6.6 response', 'the {response|response}'],
  ['seed 000 §6.6.2', '{reasoning-trace}'],
  ['the seed\'s "name" filter', 'the name filter of {http-api}'],
  ['seed 000 §7.2', '{pages}'],
  // Evaluation
  [
    'Seed 000 §8.3: cross-document links (multi-hop) and a contradicting pair',
    'Cross-document links (multi-hop) and a contradicting pair ({test-scenarios})',
  ],
  ['seed 000 §8.3', '{test-scenarios}'],
];

/**
 * What still looks like a seed citation after the rewrite. Pseudo-random seeds in code ("let
 * seed = 7", "seedable") do not match.
 */
const LEFTOVER = [
  /\bseeds?(?:\s|\*|\/)+0\d\d\b/gi,
  /\b(?:the|a|this) seed(?:'s)?\b/gi,
  /\(seed(?::\s+[a-z]+\s+[a-z]|\s+[a-z])/gi,
  /\bseeds\//gi,
  /\bseed (?:document|section|spec)/gi,
];

/** A space in a citation: spaces, or a line break with the comment leader of the next line. */
const GAP = String.raw`(?:[ \t]+|[ \t]*\r?\n[ \t]*(?:\*(?!/)|//)?[ \t]*)`;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern of one citation: a reference ending in a number never matches a longer one. */
function patternOf(citation) {
  const body = citation.split(' ').map(escapeRegExp).join(GAP);
  const tail = /\bseed 00\d$/i.test(citation)
    ? String.raw`(?![\w§-]|\.\d|\s*§|,\s*agent)`
    : /\d$/.test(citation)
      ? String.raw`(?![\w§]|[.-]\d)`
      : '';
  return body + tail;
}

const ORDERED = [...CITATIONS].sort((a, b) => b[0].length - a[0].length);
const MATCHER = new RegExp(ORDERED.map(([citation]) => `(${patternOf(citation)})`).join('|'), 'gi');

/** The GitHub anchors of docs/spec.md's headings. */
function specAnchors() {
  const text = readFileSync(join(ROOT, SPEC), 'utf8');
  return new Set(
    [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) =>
      m[1]
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

/** Expands `{anchor}` and `{text|anchor}` for a file: links in Markdown, paths elsewhere. */
function expand(template, file) {
  const markdown = file.endsWith('.md');
  const target = posix.relative(posix.dirname(file), SPEC);
  return template.replace(/\{(?:([^{}|]+)\|)?([a-z0-9-]+)\}/g, (_, text, anchor) => {
    if (markdown) return `[${text ?? 'spec'}](${target}#${anchor})`;
    return text ? `${text} (${SPEC}#${anchor})` : `${SPEC}#${anchor}`;
  });
}

/** Comments and prose here are wrapped at about 100 characters (the formatter allows 110). */
const CODE_WIDTH = 100;
const FORMATTER_WIDTH = 110;
const MARKDOWN_WIDTH = 100;

/** A comment line's leader and text: JSDoc (` * `), line comment (`// `) or a one-line JSDoc block. */
function commentLine(line) {
  const single = /^(\s*)\/\*\*\s+(.*?)\s*\*\/\s*$/.exec(line);
  if (single) return { kind: 'single', indent: single[1], text: single[2] };
  const doc = /^(\s*\*\s+)(\S.*)$/.exec(line);
  if (doc && !doc[2].startsWith('/')) return { kind: 'doc', leader: doc[1], text: doc[2] };
  const slashes = /^(\s*\/\/\s+)(\S.*)$/.exec(line);
  if (slashes) return { kind: 'line', leader: slashes[1], text: slashes[2] };
  return undefined;
}

/** A Markdown prose line's leader (indent, list marker) and text; none for tables and headings. */
function markdownLine(line) {
  if (/^\s*(?:\||#|```|>)/.test(line) || line.trim() === '') return undefined;
  const m = /^(\s*(?:[-*]\s+|\d+\.\s+)?)(.*)$/.exec(line);
  return { kind: 'md', leader: m[1], text: m[2] };
}

/** Where a paragraph goes on: the next line continues it (same kind, not a new item or tag). */
function continues(next, current, markdown) {
  if (next === undefined) return undefined;
  const parsed = markdown ? markdownLine(next) : commentLine(next);
  if (!parsed || parsed.kind !== current.kind || parsed.kind === 'single') return undefined;
  if (/^(?:@|[-*]\s|\d+\.\s|```)/.test(parsed.text)) return undefined;
  if (markdown && parsed.leader.trim() !== '') return undefined;
  return parsed;
}

/**
 * Wraps the lines a rewrite made too long, as a person would: words past the width move to the
 * start of the next line of the same comment or paragraph, or to a new line after it; a one-line
 * JSDoc comment becomes a block. Only lines citing docs/spec.md are touched.
 */
function wrap(text, markdown) {
  const width = markdown ? MARKDOWN_WIDTH : CODE_WIDTH;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (!line.includes('spec.md#') || line.length <= width) continue;
    let parsed = markdown ? markdownLine(line) : commentLine(line);
    if (!parsed) continue;
    // A one-line comment stays one line while the formatter accepts it.
    if (parsed.kind !== 'doc' && parsed.kind !== 'md' && line.length <= FORMATTER_WIDTH) continue;
    if (parsed.kind === 'single') {
      const { indent, text: body } = parsed;
      lines.splice(i, 1, `${indent}/**`, `${indent} * ${body}`, `${indent} */`);
      i += 1;
      line = lines[i];
      parsed = commentLine(line);
    }
    while (line.length > width) {
      const cut = line.lastIndexOf(' ', width);
      if (cut <= parsed.leader.length) break;
      const head = line.slice(0, cut).trimEnd();
      const tail = line.slice(cut + 1).trim();
      lines[i] = head;
      const next = continues(lines[i + 1], parsed, markdown);
      if (next) {
        lines[i + 1] = `${next.leader}${tail} ${next.text}`;
      } else {
        const hanging = markdown ? ' '.repeat(parsed.leader.length) : parsed.leader;
        lines.splice(i + 1, 0, `${hanging}${tail}`);
      }
      i += 1;
      line = lines[i];
      parsed = (markdown ? markdownLine(line) : commentLine(line)) ?? parsed;
    }
  }
  return lines.join('\n');
}

/** The rewritten text of one file and how many citations it mapped. */
export function rewriteText(text, file) {
  let out = '';
  let rest = text;
  let count = 0;
  for (;;) {
    MATCHER.lastIndex = 0;
    const match = MATCHER.exec(rest);
    if (!match) break;
    const index = match.slice(1).findIndex((group) => group !== undefined);
    const replacement = expand(ORDERED[index][1], file);
    // A citation broken over two lines is joined into one; wrap() breaks the line again.
    out += rest.slice(0, match.index) + replacement;
    rest = rest.slice(match.index + match[0].length);
    count += 1;
  }
  if (count === 0) return { text, count };
  return { text: wrap(out + rest, file.endsWith('.md')), count };
}

/** Every seed citation left in a text, with its line number. */
export function leftovers(text) {
  const found = [];
  for (const pattern of LEFTOVER) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ line, text: text.split('\n')[line - 1].trim() });
    }
  }
  const seen = new Set();
  return found.sort((a, b) => a.line - b.line).filter((f) => (seen.has(f.line) ? false : seen.add(f.line)));
}

function* files(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return;
  }
  if (stat.isFile()) {
    if (EXTENSIONS.has(extname(path))) yield path;
    return;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIP_DIRS.has(entry.name)) continue;
    yield* files(join(path, entry.name));
  }
}

function main() {
  const dryRun = process.argv.includes('--dry-run');
  const anchors = specAnchors();
  const missing = [
    ...new Set(
      CITATIONS.flatMap(([, to]) => [...to.matchAll(/\{(?:[^{}|]+\|)?([a-z0-9-]+)\}/g)].map((m) => m[1])),
    ),
  ].filter((a) => !anchors.has(a));
  if (missing.length > 0) {
    console.error(`${SPEC} has no heading for: ${missing.join(', ')}`);
    process.exit(2);
  }
  let mapped = 0;
  let changed = 0;
  const left = [];
  for (const target of TARGETS) {
    for (const path of files(join(ROOT, target))) {
      const file = relative(ROOT, path).split('\\').join('/');
      const text = readFileSync(path, 'utf8');
      const result = rewriteText(text, file);
      if (result.count > 0) {
        mapped += result.count;
        changed += 1;
        if (!dryRun) writeFileSync(path, result.text);
      }
      for (const l of leftovers(result.text)) left.push(`${file}:${l.line}: ${l.text}`);
    }
  }
  console.log(`${dryRun ? 'would map' : 'mapped'} ${mapped} citation(s) in ${changed} file(s)`);
  if (left.length > 0) {
    console.log(
      `${left.length} seed citation(s) not mapped (add them to CITATIONS in scripts/cite-spec.mjs):`,
    );
    for (const line of left) console.log(`  ${line}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
