import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#shared/config/index.ts';
import { ConfigError } from '#shared/errors.ts';
import { locate, watchedFolders, watchRules } from '#shared/watch/index.ts';

const root = mkdtempSync(join(tmpdir(), 'dropqa-watch-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('watchRules', () => {
  const rules = watchRules(parseConfig({}).watch);

  it('accepts documents of the watched extensions, in any sub-folder', () => {
    for (const path of ['a.md', 'deep/er/report.DOCX', 'x.pdf', 'notes.txt', 'sheet.xlsx', 'deck.pptx']) {
      expect(rules.accepts(path), path).toBe(true);
    }
  });

  it('skips Office lock and temp files, editor swap and backup files, hidden files and other types', () => {
    for (const path of [
      '~$report.docx',
      'sub/~$report.docx',
      '.~lock.report.docx#',
      '~WRL0001.tmp',
      'notes.md.swp',
      'notes.md~',
      '.hidden.md',
      '.git/notes.md',
      'a/.cache/b.md',
      'movie.mp4',
      'download.pdf.crdownload',
      'README',
    ]) {
      expect(rules.accepts(path), path).toBe(false);
    }
  });

  it('takes watch.ignore patterns on the name, or on the path when they hold a slash', () => {
    const custom = watchRules(parseConfig({ watch: { ignore: ['draft-*', 'archive/**'] } }).watch);
    expect(custom.accepts('draft-plan.md')).toBe(false);
    expect(custom.accepts('archive/2020/plan.md')).toBe(false);
    expect(custom.accepts('plans/archive.md')).toBe(true);
    expect(custom.accepts('.hidden.md')).toBe(true);
  });

  it('reads lists from the environment as comma-separated strings', () => {
    const config = parseConfig({ watch: { directories: 'a, b', extensions: 'md,txt' } });
    expect(config.watch.directories).toEqual(['a', 'b']);
    expect(watchRules(config.watch).accepts('x.pdf')).toBe(false);
  });
});

describe('watchedFolders', () => {
  it('keys each folder by its name and locates files inside it', () => {
    const dir = join(root, 'handbook');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const folders = watchedFolders([dir]);
    expect(folders).toEqual([{ dir, prefix: 'watch/handbook/' }]);
    expect(locate(folders, join(dir, 'sub', 'a.md'))?.relativePath).toBe('sub/a.md');
    expect(locate(folders, join(root, 'elsewhere.md'))).toBeUndefined();
  });

  it('refuses a missing folder and two folders of the same name', () => {
    expect(() => watchedFolders([join(root, 'missing')])).toThrow(ConfigError);
    mkdirSync(join(root, 'one', 'docs'), { recursive: true });
    mkdirSync(join(root, 'two', 'docs'), { recursive: true });
    expect(() => watchedFolders([join(root, 'one', 'docs'), join(root, 'two', 'docs')])).toThrow(/same name/);
  });
});
