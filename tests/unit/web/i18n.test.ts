import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { en } from '../../../web/src/i18n/en.ts';
import { langOf } from '../../../web/src/i18n/lang.ts';
import { zhCN } from '../../../web/src/i18n/zh-CN.ts';
import { isImeEnter, plainAnswer } from '../../../web/src/lib/ask-input.ts';

const SRC = fileURLToPath(new URL('../../../web/src/', import.meta.url));

/** Every leaf key of a catalogue, dotted: 'ask.modes.auto'. */
function keysOf(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value as object, `${prefix}${key}.`),
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.(vue|ts)$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the page’s catalogues', () => {
  const english = keysOf(en);
  const chinese = keysOf(zhCN);

  it('has every English key in Chinese and every Chinese key in English', () => {
    expect(chinese.filter((k) => !english.includes(k))).toEqual([]);
    expect(english.filter((k) => !chinese.includes(k))).toEqual([]);
  });

  it('has a message in both catalogues for every literal key the page asks for', () => {
    // t('a.b'), te('a.b'), signOut('signIn.expired'), meta titles and link labels: 'nav.x'.
    const literal =
      /\b(?:t|te)\(\s*'([a-zA-Z]+\.[\w.-]+)'|(?:title|label): '([a-z]+\.[\w.-]+)'|signOut\('([\w.]+)'\)/g;
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      for (const match of readFileSync(file, 'utf8').matchAll(literal))
        used.add(match[1] ?? match[2] ?? match[3] ?? '');
    }
    expect(used.size).toBeGreaterThan(150);
    expect([...used].filter((k) => !english.includes(k) || !chinese.includes(k))).toEqual([]);
  });

  it('writes no Latin words in the Chinese catalogue except names and key names', () => {
    const allowed = /^(DropQA|Enter|Shift|Cc|OCR)$/;
    const words = chinese.flatMap((key) => {
      const text = key
        .split('.')
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], zhCN);
      return (
        String(text)
          .replace(/\{\w+\}/g, '')
          .match(/[A-Za-z]{2,}/g) ?? []
      ).filter((w) => !allowed.test(w));
    });
    expect(words).toEqual([]);
  });
});

describe('langOf', () => {
  it('tells Chinese from English content and leaves text without letters to the page', () => {
    expect(langOf('项目计划.docx')).toBe('zh');
    expect(langOf('Project plan.docx')).toBe('en');
    expect(langOf('第2章 Architecture overview of the pipeline')).toBe('en');
    expect(langOf('2026-11-27')).toBeUndefined();
  });
});

describe('the question box', () => {
  it('treats an Enter that confirms an IME candidate as no send, in Safari too (keyCode 229)', () => {
    expect(isImeEnter({ isComposing: true, keyCode: 13 })).toBe(true);
    expect(isImeEnter({ isComposing: false, keyCode: 229 })).toBe(true);
    expect(isImeEnter({ isComposing: false, keyCode: 13 })).toBe(false);
  });

  it('announces an answer without its Markdown marks and citation markers', () => {
    expect(plainAnswer('**Zhang San** leads it [1] [DOC-0000abcd-PARA-2].\n\n- item')).toBe(
      'Zhang San leads it . - item',
    );
  });
});
