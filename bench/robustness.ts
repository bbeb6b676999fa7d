/**
 * Robustness on damaged and encrypted files (issue 16: "every file indexed or failed with a reason,
 * none unreported; no crash; each within 30 s"). Takes every file DropQA reads from the shared corpus
 * (`../shared/corpus`, or DROPQA_CORPUS_DIR) and `tests/fixtures`, makes its damaged variants
 * (`damage.ts`: truncated, bytes flipped, ZIP entries removed or garbled, OLE sectors garbled), adds
 * the password-protected files of `tests/fixtures/encrypted`, and runs each through the Parse step's
 * path (`parse-outcome.ts`) in a child process watched from here: a file that hangs the child (no
 * answer in 60 s) or kills it is reported as such and the run goes on with the next file.
 *
 * `node bin/run-ts.js bench/robustness.ts [--sample N] [--intact] [--legacy]` prints the counts, the
 * slowest files (wall and CPU time; the machine may be loaded) and every problem; exits 1 when there
 * is one. `--sample N` keeps every Nth source file; `--intact` runs the sources as they are too;
 * `--legacy` adds LibreOffice's Word/Excel/PowerPoint 97-2003 copies of the corpus's .docx, .xlsx
 * and .pptx (`convertWithLibreOffice`), which must all be indexed (another parser wrote and reads
 * them), and their damaged variants.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { damagedVariants } from './damage.ts';
import { convertWithLibreOffice } from './libreoffice.ts';
import { type ParseOutcome, parseOutcome } from './parse-outcome.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const CORPUS = resolve(process.env.DROPQA_CORPUS_DIR ?? resolve(REPO, '../shared/corpus'));
/** The target for one file, and how long the child may stay silent before it counts as hung. */
const PER_FILE_MS = 30_000;
const HUNG_MS = 60_000;
const READ = /\.(?:docx|docm|pptx|pptm|xlsx|xlsm|xls|doc|ppt|odt|ods|odp|rtf|pdf|html?|eml|msg|csv|tsv)$/i;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** The legacy format LibreOffice writes for each OOXML one. */
const LEGACY: Record<string, string> = { '.docx': 'doc', '.xlsx': 'xls', '.pptx': 'ppt' };

/**
 * LibreOffice's legacy copies (`<stem>.lo.<doc|xls|ppt>`) of the OOXML sources that DropQA indexes
 * as they are (a hostile archive that DropQA refuses can keep LibreOffice busy for many minutes).
 */
async function legacyCopies(sources: string[]): Promise<{ name: string; path: string }[]> {
  const copies: { name: string; path: string }[] = [];
  for (const [ext, format] of Object.entries(LEGACY)) {
    const own: string[] = [];
    for (const path of sources.filter((p) => p.toLowerCase().endsWith(ext))) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      if ((await parseOutcome(name, new Uint8Array(readFileSync(path)))).status === 'ready') own.push(path);
    }
    const converted = convertWithLibreOffice(own, format);
    for (const path of own) {
      const copy = converted.get(path);
      const stem = path.slice(path.lastIndexOf('/') + 1, -ext.length);
      if (copy) copies.push({ name: `${stem}.lo.${format}`, path: copy });
    }
  }
  return copies;
}

/** Writes the files to run to a fresh folder; returns their paths and those that must be indexed. */
async function makeVariants(
  sample: number,
  intact: boolean,
  legacy: boolean,
): Promise<{ dir: string; paths: string[]; mustIndex: Set<string> }> {
  const dir = join(tmpdir(), `dropqa-robustness-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sources = [...filesUnder(CORPUS), ...filesUnder(join(REPO, 'tests/fixtures'))].filter(
    (path) => READ.test(path) && !path.includes('/encrypted/'),
  );
  const paths: string[] = [];
  const mustIndex = new Set<string>();
  const write = (index: number | string, name: string, bytes: Uint8Array) => {
    const folder = join(dir, String(index));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, name), bytes);
    paths.push(join(folder, name));
    return join(folder, name);
  };
  sources.forEach((path, index) => {
    if (index % sample !== 0) return;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const bytes = new Uint8Array(readFileSync(path));
    if (intact) write(index, name, bytes);
    for (const variant of damagedVariants(name, bytes)) write(index, variant.name, variant.bytes);
  });
  for (const path of filesUnder(join(REPO, 'tests/fixtures/encrypted')).filter((p) => READ.test(p))) {
    write('encrypted', path.slice(path.lastIndexOf('/') + 1), new Uint8Array(readFileSync(path)));
  }
  if (legacy) {
    for (const [index, copy] of (await legacyCopies(sources.filter((_, i) => i % sample === 0))).entries()) {
      const bytes = new Uint8Array(readFileSync(copy.path));
      mustIndex.add(write(`legacy-${index}`, copy.name, bytes));
      for (const variant of damagedVariants(copy.name, bytes))
        write(`legacy-${index}`, variant.name, variant.bytes);
    }
  }
  return { dir, paths, mustIndex };
}

/** Child mode: parses the listed files in order, one JSON line before and after each. */
async function child(listFile: string): Promise<void> {
  for (const path of readFileSync(listFile, 'utf8').split('\n').filter(Boolean)) {
    process.stdout.write(`${JSON.stringify({ start: path })}\n`);
    const outcome = await parseOutcome(
      path.slice(path.lastIndexOf('/') + 1),
      new Uint8Array(readFileSync(path)),
    );
    process.stdout.write(`${JSON.stringify({ path, outcome })}\n`);
  }
}

type Watched = Omit<ParseOutcome, 'status'> & {
  path: string;
  status: ParseOutcome['status'] | 'hung' | 'killed';
};

/** Runs the files through child processes, restarting after a hang or a death. */
async function runWatched(paths: string[]): Promise<Watched[]> {
  const results: Watched[] = [];
  let rest = paths;
  while (rest.length) {
    const listFile = join(tmpdir(), `dropqa-robustness-list-${process.pid}`);
    writeFileSync(listFile, rest.join('\n'));
    const proc = spawn(
      process.execPath,
      [join(REPO, 'bin/run-ts.js'), fileURLToPath(import.meta.url), '--child', listFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    proc.stderr.resume();
    let current: string | undefined;
    let startedAt = 0;
    let hung = false;
    const watchdog = setInterval(() => {
      if (current && performance.now() - startedAt > HUNG_MS) {
        hung = true;
        proc.kill('SIGKILL');
      }
    }, 1000);
    const done = new Set<string>();
    for await (const line of createInterface({ input: proc.stdout })) {
      const message = JSON.parse(line) as { start?: string; path?: string; outcome?: ParseOutcome };
      if (message.start) {
        current = message.start;
        startedAt = performance.now();
      } else if (message.path && message.outcome) {
        results.push({ ...message.outcome, path: message.path });
        done.add(message.path);
        current = undefined;
      }
    }
    const code = await new Promise<number | null>((resolveExit) =>
      proc.exitCode !== null || proc.signalCode !== null
        ? resolveExit(proc.exitCode)
        : proc.on('close', resolveExit),
    );
    clearInterval(watchdog);
    rmSync(listFile, { force: true });
    if (current) {
      const name = current.slice(current.lastIndexOf('/') + 1);
      const ms = Math.round(performance.now() - startedAt);
      results.push({
        name,
        path: current,
        status: hung ? 'hung' : 'killed',
        reason: `exit ${code}`,
        ms,
        cpuMs: 0,
      });
      done.add(current);
    } else if (code !== 0 && done.size === 0) {
      throw new Error(`the child process failed before its first file (exit ${code})`);
    }
    rest = rest.filter((path) => !done.has(path));
  }
  return results;
}

function report(results: Watched[], mustIndex: Set<string>): number {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const problems = results
    .filter(
      (r) =>
        (mustIndex.has(r.path) && r.status !== 'ready') ||
        (r.status !== 'ready' && (r.status !== 'failed' || r.problem || r.ms > PER_FILE_MS)),
    )
    .map((r) =>
      mustIndex.has(r.path) ? { ...r, problem: r.problem ?? 'LibreOffice wrote and reads it' } : r,
    );
  const slow = results.filter((r) => r.status === 'ready' && r.ms > PER_FILE_MS);
  console.log(`${results.length} files: ${[...counts].map(([status, n]) => `${n} ${status}`).join(', ')}`);
  const byWall = [...results].sort((a, b) => b.ms - a.ms);
  const maxCpu = Math.max(0, ...results.map((r) => r.cpuMs));
  console.log(`max wall ${byWall[0]?.ms ?? 0} ms (loaded machine), max CPU ${maxCpu} ms; slowest:`);
  for (const r of byWall.slice(0, 8))
    console.log(
      `  ${String(r.ms).padStart(7)} ms wall ${String(r.cpuMs).padStart(7)} ms CPU  ${r.status.padEnd(6)} ${r.name}`,
    );
  const shown = [...problems, ...slow];
  console.log(`${shown.length} problems`);
  for (const r of shown)
    console.log(`  ${r.status}${r.problem ? ` (${r.problem})` : ''} ${r.ms} ms ${r.path}: ${r.reason ?? ''}`);
  return shown.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--child');
  if (at > 0) {
    await child(process.argv[at + 1] ?? '');
    process.exit(0);
  }
  const sampleAt = process.argv.indexOf('--sample');
  const sample = sampleAt > 0 ? Math.max(1, Number(process.argv[sampleAt + 1])) : 1;
  const { dir, paths, mustIndex } = await makeVariants(
    sample,
    process.argv.includes('--intact'),
    process.argv.includes('--legacy'),
  );
  console.log(`${paths.length} files to parse (${mustIndex.size} legacy copies that must be indexed)`);
  const code = report(await runWatched(paths), mustIndex);
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
