import { child, childrenNamed, type XmlElement } from '../pptx/xml.ts';

/** One level of a list definition (`w:abstractNum/w:lvl`). */
interface Level {
  start: number;
  format: string;
  text: string | undefined;
  /** Restart after a level at most this deep (1-based); 0 never; undefined after any shallower one. */
  restart: number | undefined;
  legal: boolean;
  style: string | undefined;
}

interface Num {
  abstract: string;
  /** Levels whose start the instance overrides (`w:lvlOverride/w:startOverride`). */
  starts: Map<number, number>;
}

/** The paragraph properties numbering depends on, as written (`w:pPr`). */
export interface ParagraphNumbering {
  style: string | undefined;
  numId: string | undefined;
  level: number | undefined;
}

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];
const CJK_DIGITS = '〇一二三四五六七八九';

function roman(n: number): string {
  let out = '';
  for (const [value, letters] of ROMAN) for (; n >= value; n -= value) out += letters;
  return out;
}

function letters(n: number): string {
  // Word repeats the letter past z: 27 is "aa", 53 is "aaa".
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

function chinese(n: number): string {
  if (n < 10) return CJK_DIGITS[n] ?? String(n);
  if (n < 100) {
    const tens = Math.floor(n / 10);
    return `${tens > 1 ? CJK_DIGITS[tens] : ''}十${n % 10 ? CJK_DIGITS[n % 10] : ''}`;
  }
  return String(n);
}

/** A counter in a list format (`decimal`, `upperRoman`, `lowerLetter`, `chineseCounting`, ...). */
export function formatCounter(n: number, format: string): string {
  switch (format) {
    case 'upperRoman':
      return roman(n).toUpperCase();
    case 'lowerRoman':
      return roman(n);
    case 'upperLetter':
      return letters(n).toUpperCase();
    case 'lowerLetter':
      return letters(n);
    case 'decimalZero':
      return n < 10 ? `0${n}` : String(n);
    case 'chineseCounting':
    case 'chineseCountingThousand':
    case 'ideographTraditional':
    case 'japaneseCounting':
    case 'taiwaneseCounting':
      return chinese(n);
    case 'decimalEnclosedCircle':
    case 'decimalEnclosedCircleChinese':
      return n >= 1 && n <= 20 ? String.fromCharCode(0x2460 + n - 1) : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

function attribute(element: XmlElement | undefined, name: string): string | undefined {
  return child(element, name)?.attributes['w:val'];
}

function readLevel(level: XmlElement): Level {
  const restart = attribute(level, 'lvlRestart');
  const start = Number(attribute(level, 'start') ?? 1);
  const legal = child(level, 'isLgl');
  return {
    start: Number.isFinite(start) ? start : 1,
    format: attribute(level, 'numFmt') ?? 'decimal',
    text: attribute(level, 'lvlText'),
    restart: restart === undefined ? undefined : Number(restart),
    legal: legal !== undefined && !['0', 'false'].includes(legal.attributes['w:val'] ?? ''),
    style: attribute(level, 'pStyle'),
  };
}

/**
 * Gives each numbered paragraph the number Word shows in front of it ("2.1", "IV.", "(a)"), counting
 * in document order from the list definitions (`word/numbering.xml`: level text `%1.%2`, start
 * values, formats, restarts, legal numbering, instance start overrides) and the numbering a paragraph
 * style carries (`w:style/w:pPr/w:numPr`, through `w:basedOn`). Returns undefined for a paragraph
 * without numbering or with a bullet, '' for a level that shows no number.
 *
 * @example const next = createNumberer(numbering, styles); next({ style: 'Heading2' }) // '1.1'
 */
export function createNumberer(
  numbering: XmlElement | undefined,
  styles: XmlElement | undefined,
): (paragraph: ParagraphNumbering) => string | undefined {
  const abstracts = new Map<string, Map<number, Level>>();
  for (const definition of childrenNamed(numbering, 'abstractNum')) {
    const levels = new Map<number, Level>();
    for (const level of childrenNamed(definition, 'lvl')) {
      levels.set(Number(level.attributes['w:ilvl'] ?? 0), readLevel(level));
    }
    abstracts.set(definition.attributes['w:abstractNumId'] ?? '', levels);
  }
  const nums = new Map<string, Num>();
  for (const num of childrenNamed(numbering, 'num')) {
    const starts = new Map<number, number>();
    for (const override of childrenNamed(num, 'lvlOverride')) {
      const start = attribute(override, 'startOverride');
      if (start !== undefined) starts.set(Number(override.attributes['w:ilvl'] ?? 0), Number(start));
    }
    nums.set(num.attributes['w:numId'] ?? '', { abstract: attribute(num, 'abstractNumId') ?? '', starts });
  }
  const styleNumbering = new Map<string, { numId?: string; level?: number; basedOn?: string }>();
  for (const style of childrenNamed(styles, 'style')) {
    const numPr = child(child(style, 'pPr'), 'numPr');
    const level = attribute(numPr, 'ilvl');
    styleNumbering.set(style.attributes['w:styleId'] ?? '', {
      numId: attribute(numPr, 'numId'),
      level: level === undefined ? undefined : Number(level),
      basedOn: attribute(style, 'basedOn'),
    });
  }
  const fromStyle = (style: string | undefined) => {
    const found: { numId?: string; level?: number } = {};
    const seen = new Set<string>();
    for (let at = style; at !== undefined && !seen.has(at); at = styleNumbering.get(at)?.basedOn) {
      seen.add(at);
      const own = styleNumbering.get(at);
      found.numId ??= own?.numId;
      found.level ??= own?.level;
    }
    return found;
  };

  const counters = new Map<string, (number | undefined)[]>();
  const started = new Set<string>();

  return (paragraph) => {
    const inherited = fromStyle(paragraph.style);
    const numId = paragraph.numId ?? inherited.numId;
    if (numId === undefined || numId === '0') return undefined;
    const num = nums.get(numId);
    const levels = abstracts.get(num?.abstract ?? '');
    if (!num || !levels) return undefined;
    let level = paragraph.level ?? inherited.level;
    if (level === undefined) {
      // A style linked from the list definition's level (`w:lvl/w:pStyle`), as Word's heading lists are.
      level = [...levels].find(([, definition]) => definition.style === paragraph.style)?.[0] ?? 0;
    }
    const definition = levels.get(level);
    if (!definition || definition.format === 'bullet') return undefined;
    // Instances that override a start value are lists of their own; the others continue their definition's.
    const key = num.starts.size > 0 ? `num:${numId}` : `abstract:${num.abstract}`;
    const counts = counters.get(key) ?? [];
    counters.set(key, counts);
    const startOf = (at: number) =>
      (!started.has(`${key}:${at}`) ? num.starts.get(at) : undefined) ?? levels.get(at)?.start ?? 1;
    const current = counts[level];
    counts[level] = current === undefined ? startOf(level) : current + 1;
    started.add(`${key}:${level}`);
    for (let deeper = level + 1; deeper < counts.length; deeper++) {
      const restart = levels.get(deeper)?.restart;
      if (restart !== 0 && (restart === undefined || level < restart)) counts[deeper] = undefined;
    }
    const text = definition.text ?? `%${level + 1}.`;
    if (definition.format === 'none' && !text.includes('%')) return '';
    const label = text
      .replace(/%([1-9])/g, (_, digit: string) => {
        const at = Number(digit) - 1;
        const format = definition.legal ? 'decimal' : (levels.get(at)?.format ?? 'decimal');
        return formatCounter(counts[at] ?? startOf(at), format);
      })
      .trim();
    // Levels of format "none" leave their punctuation (".", "()"), which is no number to show.
    return /[\p{L}\p{N}§]/u.test(label) ? label : '';
  };
}
