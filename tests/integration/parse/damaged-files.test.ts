import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { damagedVariants } from '../../../bench/damage.ts';
import { type ParseOutcome, parseOutcome } from '../../../bench/parse-outcome.ts';

/**
 * The small, deterministic version of `bench/robustness.ts`: a handful of real files (legacy Office
 * and OpenDocument fixtures, OOXML files of the shared corpus), each damaged the ways files break
 * (cut short, bytes flipped, a run zeroed, ZIP entries removed or garbled, OLE sectors garbled), and
 * the password-protected fixtures, through the Parse step's path. Every file must come out ready or
 * failed with a readable reason that names it, none may crash, each within 30 s.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const CORPUS = resolve(process.env.DROPQA_CORPUS_DIR ?? resolve(REPO, '../shared/corpus'));
const PER_FILE_MS = 30_000;
const SOURCES = [
  join(REPO, 'tests/fixtures/legacy/handbook.doc'),
  join(REPO, 'tests/fixtures/legacy/budget.xls'),
  join(REPO, 'tests/fixtures/legacy/review.ppt'),
  join(REPO, 'tests/fixtures/legacy/handbook.odt'),
  join(CORPUS, 'mammoth.js/test/test-data/tables.docx'),
  join(CORPUS, 'python-pptx/features/steps/test_files/test.pptx'),
  join(CORPUS, 'officeParser/test/files/test.xlsx'),
];
const ENCRYPTED = join(REPO, 'tests/fixtures/encrypted');

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

describe('damaged and encrypted files', () => {
  it('each is ready or failed with a readable reason naming it, none crashes, each within 30 s', async () => {
    const files = SOURCES.flatMap((path) =>
      damagedVariants(nameOf(path), new Uint8Array(readFileSync(path))),
    );
    for (const name of readdirSync(ENCRYPTED).filter((n) => !n.endsWith('.md'))) {
      files.push({ name, bytes: new Uint8Array(readFileSync(join(ENCRYPTED, name))) });
    }
    const outcomes: ParseOutcome[] = [];
    for (const file of files) outcomes.push(await parseOutcome(file.name, file.bytes));

    const counts = { ready: 0, failed: 0, crash: 0 };
    for (const outcome of outcomes) counts[outcome.status]++;
    const slowest = Math.max(...outcomes.map((outcome) => outcome.ms));
    console.log(`${outcomes.length} files: ${JSON.stringify(counts)}, slowest ${slowest} ms (wall)`);

    expect(outcomes).toHaveLength(files.length);
    // Every kind of damage is made: cut, flipped, zeroed, ZIP and OLE breakages.
    expect(outcomes.length).toBeGreaterThan(60);
    const problems = outcomes
      .filter((o) => o.status === 'crash' || o.problem !== undefined || o.ms > PER_FILE_MS)
      .map((o) => `${o.name}: ${o.status} ${o.problem ?? ''} ${o.ms} ms ${o.reason ?? ''}`);
    expect(problems).toEqual([]);
    // The damage is real: most variants fail (with their reason), and some survive it.
    expect(counts.failed).toBeGreaterThan(outcomes.length / 2);
    expect(counts.ready).toBeGreaterThan(0);
    for (const name of ['handbook-password.doc', 'budget-password.xls', 'handbook-password.odt']) {
      expect(outcomes.find((o) => o.name === name)?.reason).toMatch(/is password-protected/);
    }
  }, 240_000);
});
