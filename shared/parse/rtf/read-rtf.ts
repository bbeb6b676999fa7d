import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { codepageLabel } from '../codepage.ts';

/** A paragraph of an RTF document: its text, its outline level (1 = top) when it is a heading, its table. */
export type RtfBlock =
  | { kind: 'paragraph'; text: string; level?: number }
  | { kind: 'table'; rows: string[][] };

export interface RtfDocument {
  blocks: RtfBlock[];
  /** `{\info{\title ...}}`, `{\author ...}`, `{\subject ...}`. */
  info: Record<string, string>;
  /** The text ended before its groups closed (a cut-off file): what was read is kept. */
  truncated: boolean;
}

/** Destinations whose text is never document text. */
const SKIPPED = new Set([
  'colortbl',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'mmathPr',
  'pgdsctbl',
  'bkmkstart',
  'bkmkend',
  'xe',
  'tc',
  'filetbl',
  'revtbl',
  'listtext',
  'pntext',
  'pntxta',
  'pntxtb',
  'shppict',
  'nonshppict',
  'wgrffmtfilter',
  'operator',
  'company',
  'category',
  'keywords',
  'comment',
  'doccomm',
  'hlinkbase',
  'creatim',
  'revtim',
  'printim',
  'buptim',
]);
const INFO_FIELDS = new Set(['title', 'author', 'subject']);
/** Windows font charsets (`\fcharsetN`) and the code pages they mean. */
const CHARSET_CODEPAGE: Record<number, number> = {
  0: 1252,
  128: 932,
  129: 949,
  134: 936,
  136: 950,
  161: 1253,
  162: 1254,
  163: 1258,
  177: 1255,
  178: 1256,
  186: 1257,
  204: 1251,
  222: 874,
  238: 1250,
};
const HEADING_STYLE = /^(?:heading|标题)\s*(\d)$/i;

interface State {
  /** What the group's text is: document text, a table entry, an info field, or nothing. */
  destination: 'text' | 'skip' | 'fonttbl' | 'stylesheet' | 'info' | `info:${string}`;
  uc: number;
  codepage: string;
}

interface Entry {
  number?: number;
  charset?: number;
  level?: number;
  name: string;
}

/**
 * Reads an RTF document's text without a library (none maintained on npm keeps paragraphs and
 * headings): groups, control words and symbols, `\uN` Unicode with its `\ucN` fallback skipped,
 * `\'xx` bytes decoded in the code page of the current font's charset (`\fcharset134` is GBK) or of
 * `\ansicpgN`, headings from `\outlinelevelN` or a "heading N" style of the stylesheet, tables from
 * `\cell` / `\row`; pictures, fields' instructions, headers, footers and tables of fonts, colours and
 * lists are skipped. Throws on text that is not RTF.
 */
export function readRtf(source: string, signal?: AbortSignal): RtfDocument {
  if (!source.startsWith('{\\rtf')) throw new Error('it does not start with {\\rtf');
  const fonts = new Map<number, string>();
  const styles = new Map<number, number>();
  const info: Record<string, string> = {};
  const blocks: RtfBlock[] = [];
  let ansi = 'windows-1252';
  let state: State = { destination: 'text', uc: 1, codepage: ansi };
  const stack: State[] = [];
  let entry: Entry | undefined;
  let text = '';
  let bytes: number[] = [];
  let style: number | undefined;
  let outline: number | undefined;
  let inTable = false;
  let cells: string[] = [];
  let rows: string[][] = [];
  let skipChars = 0;
  let defaultFont: number | undefined;
  let starNext = false;

  const flushBytes = () => {
    if (bytes.length === 0) return;
    const decoded = new TextDecoder(state.codepage).decode(new Uint8Array(bytes));
    bytes = [];
    emit(decoded);
  };
  const emit = (chars: string) => {
    if (state.destination === 'text') text += chars;
    else if (state.destination.startsWith('info:')) {
      const field = state.destination.slice(5);
      info[field] = (info[field] ?? '') + chars;
    } else if (entry && (state.destination === 'fonttbl' || state.destination === 'stylesheet'))
      entry.name += chars;
  };
  const closeEntry = () => {
    if (!entry) return;
    if (state.destination === 'fonttbl' && entry.number !== undefined) {
      const label = codepageLabel(CHARSET_CODEPAGE[entry.charset ?? 0] ?? undefined);
      if (label && entry.charset !== undefined && entry.charset !== 0) fonts.set(entry.number, label);
    }
    if (state.destination === 'stylesheet' && entry.number !== undefined) {
      const named = HEADING_STYLE.exec(entry.name.replace(/;.*$/, '').trim())?.[1];
      const level = entry.level !== undefined ? entry.level + 1 : named ? Number(named) : undefined;
      if (level !== undefined && level <= 9) styles.set(entry.number, level);
    }
    entry = undefined;
  };
  const flushTable = () => {
    if (rows.length > 0) blocks.push({ kind: 'table', rows });
    rows = [];
    cells = [];
  };
  const endParagraph = () => {
    const paragraph = text
      .replace(/[ \t\u00a0]+/g, ' ')
      .replace(/ *\n */g, '\n')
      .trim();
    text = '';
    if (inTable) return;
    flushTable();
    if (!paragraph) return;
    const level = outline !== undefined ? outline + 1 : style !== undefined ? styles.get(style) : undefined;
    blocks.push(
      level !== undefined && level <= 9
        ? { kind: 'paragraph', text: paragraph, level }
        : { kind: 'paragraph', text: paragraph },
    );
  };

  const control = (word: string, param: number | undefined, starred: boolean) => {
    if (state.destination === 'skip') return;
    if (starred && !['fonttbl', 'stylesheet', 'info'].includes(word)) {
      state.destination = 'skip';
      return;
    }
    if (SKIPPED.has(word)) {
      state.destination = 'skip';
      return;
    }
    switch (word) {
      case 'fonttbl':
      case 'stylesheet':
      case 'info':
        state.destination = word;
        return;
      case 'ansicpg':
        ansi = codepageLabel(param) ?? ansi;
        state.codepage = ansi;
        return;
      case 'deff':
        defaultFont = param;
        return;
      case 'uc':
        state.uc = param ?? 1;
        return;
    }
    if (state.destination === 'fonttbl' || state.destination === 'stylesheet') {
      entry ??= { name: '' };
      if (word === 'f' && state.destination === 'fonttbl') entry.number = param;
      else if (word === 'fcharset') entry.charset = param;
      else if (word === 's' || word === 'ds' || word === 'ts' || word === 'cs')
        entry.number = word === 's' ? param : undefined;
      else if (word === 'outlinelevel') entry.level = param;
      return;
    }
    if (state.destination === 'info') {
      // A field given twice (LibreOffice writes \author for creator and last editor) keeps the first.
      if (INFO_FIELDS.has(word) && info[word] === undefined) state.destination = `info:${word}`;
      else state.destination = 'skip';
      return;
    }
    switch (word) {
      case 'par':
      case 'sect':
      case 'page':
        flushBytes();
        endParagraph();
        return;
      case 'line':
        emit('\n');
        return;
      case 'tab':
        emit('\t');
        return;
      case 'emdash':
        emit('—');
        return;
      case 'endash':
        emit('–');
        return;
      case 'lquote':
        emit('‘');
        return;
      case 'rquote':
        emit('’');
        return;
      case 'ldblquote':
        emit('“');
        return;
      case 'rdblquote':
        emit('”');
        return;
      case 'bullet':
        emit('•');
        return;
      case 'pard':
        style = undefined;
        outline = undefined;
        inTable = false;
        return;
      case 's':
        style = param;
        return;
      case 'outlinelevel':
        outline = param !== undefined && param < 9 ? param : undefined;
        return;
      case 'intbl':
        inTable = true;
        return;
      case 'cell':
      case 'nestcell':
        flushBytes();
        cells.push(collapseSpaces(text));
        text = '';
        return;
      case 'row':
      case 'nestrow':
        if (cells.some((cell) => cell !== '')) rows.push(cells);
        cells = [];
        text = '';
        return;
      case 'f':
        state.codepage = (param !== undefined ? fonts.get(param) : undefined) ?? ansi;
        return;
      case 'u': {
        const code = (param ?? 0) < 0 ? (param ?? 0) + 65536 : (param ?? 0);
        emit(String.fromCharCode(code));
        skipChars = state.uc;
        return;
      }
    }
  };

  let i = 0;
  const n = source.length;
  while (i < n) {
    if ((i & 0xffff) === 0) signal?.throwIfAborted();
    const c = source[i] ?? '';
    if (c === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      if (state.destination === 'fonttbl' || state.destination === 'stylesheet') closeEntry();
      i++;
      continue;
    }
    if (c === '}') {
      flushBytes();
      const leaving = state;
      if ((leaving.destination === 'fonttbl' || leaving.destination === 'stylesheet') && entry) closeEntry();
      state = stack.pop() ?? state;
      // Text before any \f is in the default font (\deffN), whose charset may be GBK.
      if (leaving.destination === 'fonttbl' && state.destination === 'text' && defaultFont !== undefined) {
        state.codepage = fonts.get(defaultFont) ?? state.codepage;
      }
      i++;
      continue;
    }
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === "'") {
        const byte = Number.parseInt(source.slice(i + 2, i + 4), 16);
        i += 4;
        if (skipChars > 0) {
          skipChars--;
          continue;
        }
        if (!Number.isNaN(byte) && state.destination !== 'skip') bytes.push(byte);
        continue;
      }
      if (/[a-zA-Z]/.test(next)) {
        let j = i + 1;
        while (j < n && /[a-zA-Z]/.test(source[j] ?? '')) j++;
        const word = source.slice(i + 1, j);
        let k = j;
        if (source[k] === '-' || /\d/.test(source[k] ?? '')) {
          k++;
          while (k < n && /\d/.test(source[k] ?? '')) k++;
        }
        const param = k > j ? Number(source.slice(j, k)) : undefined;
        if (source[k] === ' ') k++;
        i = k;
        if (word === 'bin') {
          i += Math.max(0, param ?? 0);
          continue;
        }
        // `\u` ends a run of `\'xx` bytes; other words between bytes (a font switch) end it too.
        flushBytes();
        const starred = starNext;
        starNext = false;
        control(word, param, starred);
        continue;
      }
      // Control symbols: escaped braces and backslash, non-breaking space and hyphens.
      i += 2;
      if (skipChars > 0) {
        skipChars--;
        continue;
      }
      if (next === '\\' || next === '{' || next === '}') {
        flushBytes();
        emit(next);
      } else if (next === '~') emit('\u00a0');
      else if (next === '_') emit('-');
      else if (next === '*') {
        // `{\*\destination ...}`: an optional destination, skipped unless the next word is known.
        starNext = true;
      } else if (next === '\n' || next === '\r') {
        flushBytes();
        endParagraph();
      }
      continue;
    }
    if (c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c === '\u0000') throw new Error(`it holds binary data (a NUL byte at offset ${i})`);
    i++;
    if (skipChars > 0) {
      skipChars--;
      continue;
    }
    if (state.destination === 'skip') continue;
    if (c === ';' && (state.destination === 'fonttbl' || state.destination === 'stylesheet')) {
      flushBytes();
      closeEntry();
      continue;
    }
    flushBytes();
    emit(c);
  }
  flushBytes();
  endParagraph();
  inTable = false;
  flushTable();
  for (const key of Object.keys(info)) info[key] = (info[key] ?? '').trim();
  return { blocks, info, truncated: stack.length > 0 };
}
