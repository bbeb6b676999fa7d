/**
 * Conversions by LibreOffice (Debian `libreoffice-writer-nogui`, `-calc-nogui`, `-impress-nogui`), a
 * bench tool only, never a runtime need: each file is converted once to each format and cached under
 * the system temp directory by its content hash, all missing ones in one LibreOffice run.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';

const CACHE = join(tmpdir(), 'dropqa-libreoffice');

const stemOf = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 24);

/**
 * Converts files to `format` (a LibreOffice `--convert-to` target: `odp`, `doc`, `xls`, `ppt`, `docx`,
 * `pptx`...); returns each file's converted copy, or undefined where LibreOffice wrote none (it
 * could not read the file). Throws when `soffice` is missing.
 *
 * @example convertWithLibreOffice(['deck.pptx'], 'odp').get('deck.pptx') // '/tmp/dropqa-libreoffice/3f….odp'
 */
export function convertWithLibreOffice(paths: string[], format: string): Map<string, string | undefined> {
  mkdirSync(CACHE, { recursive: true });
  const target = (path: string) => join(CACHE, `${stemOf(path)}.${format}`);
  const missing = [...new Set(paths)].filter((path) => !existsSync(target(path)));
  if (missing.length) {
    const staging = join(CACHE, `staging-${process.pid}`);
    mkdirSync(staging, { recursive: true });
    // Named by hash (keeping the extension LibreOffice picks its filter by), so outputs cannot collide.
    const inputs = missing.map((path) => {
      const input = join(staging, `${stemOf(path)}${extname(path)}`);
      copyFileSync(path, input);
      return input;
    });
    try {
      execFileSync(
        'soffice',
        [
          '--headless',
          `-env:UserInstallation=file://${join(CACHE, 'profile')}`,
          '--convert-to',
          format,
          '--outdir',
          CACHE,
          ...inputs,
        ],
        { stdio: 'ignore', timeout: 60 * 60_000 },
      );
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return new Map(paths.map((path) => [path, existsSync(target(path)) ? target(path) : undefined]));
}
