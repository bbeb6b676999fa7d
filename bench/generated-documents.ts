/**
 * Documents with real headings for the fidelity bench, made from Markdown by two different writers:
 * pandoc writes a .docx and a .pptx of each source; LibreOffice (Debian `libreoffice-writer-nogui`,
 * `libreoffice-impress-nogui`) writes a .docx from pandoc's .odt and a .pptx from pandoc's deck read
 * back through OpenDocument. The sources are the repository's `docs/*.md` (headings, tables, lists,
 * code) and `bench/fidelity/*.md` (footnotes, nested lists, CJK text). Bench tools only; the files are
 * cached under the system temp directory by the sources' content hash.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { convertWithLibreOffice } from './libreoffice.ts';

function markdownIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.md'))
        .sort()
        .map((name) => join(dir, name))
    : [];
}

/**
 * Writes (or finds in the cache) the generated documents for the Markdown files of `repo`'s `docs/`
 * and `bench/fidelity/`; returns their paths (`…/pandoc/qa.docx`, `…/libreoffice/qa.pptx`, ...).
 */
export function generatedDocuments(repo: string): string[] {
  const sources = [...markdownIn(join(repo, 'docs')), ...markdownIn(join(repo, 'bench/fidelity'))];
  const hash = createHash('sha256');
  for (const source of sources) hash.update(source).update(readFileSync(source));
  const root = join(tmpdir(), 'dropqa-fidelity-generated', hash.digest('hex').slice(0, 24));
  const pandocDir = join(root, 'pandoc');
  const officeDir = join(root, 'libreoffice');
  const done = join(root, 'done');
  if (!existsSync(done)) {
    rmSync(root, { recursive: true, force: true });
    const work = join(root, 'work');
    for (const dir of [pandocDir, officeDir, work]) mkdirSync(dir, { recursive: true });
    for (const source of sources) {
      const stem = basename(source, '.md');
      for (const [format, dir] of [
        ['docx', pandocDir],
        ['pptx', pandocDir],
        ['odt', work],
      ] as const) {
        execFileSync('pandoc', [source, '-o', join(dir, `${stem}.${format}`)], { timeout: 60_000 });
      }
    }
    const stems = sources.map((source) => basename(source, '.md'));
    const copy = (converted: Map<string, string | undefined>, stem: string, input: string, ext: string) => {
      const output = converted.get(input);
      if (output) copyFileSync(output, join(officeDir, `${stem}.${ext}`));
    };
    const odts = stems.map((stem) => join(work, `${stem}.odt`));
    const docx = convertWithLibreOffice(odts, 'docx');
    for (const [i, stem] of stems.entries()) copy(docx, stem, odts[i] ?? '', 'docx');
    const odps = convertWithLibreOffice(
      stems.map((stem) => join(pandocDir, `${stem}.pptx`)),
      'odp',
    );
    const decks = convertWithLibreOffice(
      [...odps.values()].filter((path) => path !== undefined),
      'pptx',
    );
    for (const stem of stems) copy(decks, stem, odps.get(join(pandocDir, `${stem}.pptx`)) ?? '', 'pptx');
    rmSync(work, { recursive: true, force: true });
    writeFileSync(done, '');
  }
  return [pandocDir, officeDir].flatMap((dir) => readdirSync(dir).map((name) => join(dir, name)));
}
