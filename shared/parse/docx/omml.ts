import { child, type XmlElement } from '../pptx/xml.ts';

const SUPERSCRIPT: Record<string, string> = Object.fromEntries(
  [...'0123456789+-−=()ni'].map((c, i) => [c, '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ'[i] as string]),
);
const SUBSCRIPT: Record<string, string> = Object.fromEntries(
  [...'0123456789+-−=()'].map((c, i) => [c, '₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎'[i] as string]),
);
/** Text that needs no brackets to be read as one operand: a name, a number, or already bracketed. */
const ATOM = /^(?:[\p{L}\p{N}.,′″]+|\(.*\)|\[.*\]|\{.*\}|√\(.*\))$/u;

function wrap(text: string): string {
  return ATOM.test(text) ? text : `(${text})`;
}

function script(text: string, map: Record<string, string>, marker: string): string {
  if (text !== '' && [...text].every((c) => map[c])) return [...text].map((c) => map[c]).join('');
  return `${marker}${wrap(text)}`;
}

/** The value of a property element's `m:val` (`m:begChr`, `m:chr`, ...), '' when set empty. */
function property(element: XmlElement | undefined, group: string, name: string): string | undefined {
  return child(child(element, group), name)?.attributes['m:val'];
}

function part(element: XmlElement | undefined, name: string): string {
  return linear(child(element, name));
}

function linear(element: XmlElement | undefined): string {
  if (!element) return '';
  switch (element.name) {
    case 't':
      return element.children.filter((node): node is string => typeof node === 'string').join('');
    case 'f':
      return `${wrap(part(element, 'num'))}/${wrap(part(element, 'den'))}`;
    case 'rad': {
      const degree = part(element, 'deg');
      const base = part(element, 'e');
      const sign = degree === '3' ? '∛' : degree === '4' ? '∜' : `${degree}√`;
      return `${degree === '' ? '√' : sign}${/^[\p{L}\p{N}]$/u.test(base) ? base : `(${base})`}`;
    }
    case 'sSup':
      return `${part(element, 'e')}${script(part(element, 'sup'), SUPERSCRIPT, '^')}`;
    case 'sSub':
      return `${part(element, 'e')}${script(part(element, 'sub'), SUBSCRIPT, '_')}`;
    case 'sSubSup':
      return `${part(element, 'e')}${script(part(element, 'sub'), SUBSCRIPT, '_')}${script(part(element, 'sup'), SUPERSCRIPT, '^')}`;
    case 'sPre':
      return `${script(part(element, 'sub'), SUBSCRIPT, '_')}${script(part(element, 'sup'), SUPERSCRIPT, '^')}${part(element, 'e')}`;
    case 'nary': {
      const sign = property(element, 'naryPr', 'chr') || '∫';
      const sub = part(element, 'sub');
      const sup = part(element, 'sup');
      return `${sign}${sub ? `_${wrap(sub)}` : ''}${sup ? `^${wrap(sup)}` : ''} ${part(element, 'e')}`;
    }
    case 'd': {
      const open = property(element, 'dPr', 'begChr') ?? '(';
      const close = property(element, 'dPr', 'endChr') ?? ')';
      const separator = property(element, 'dPr', 'sepChr') ?? '|';
      const items = element.children.filter(
        (node): node is XmlElement => typeof node !== 'string' && node.name === 'e',
      );
      return `${open}${items.map(linear).join(separator)}${close}`;
    }
    case 'func': {
      const argument = part(element, 'e');
      return `${part(element, 'fName')}${/^[([{]/.test(argument) ? '' : ' '}${argument}`;
    }
    case 'acc': {
      const mark = property(element, 'accPr', 'chr') ?? '\u0302';
      const base = part(element, 'e');
      return [...base].length === 1 && /[\u0300-\u036f]/.test(mark) ? `${base}${mark}` : `${mark}(${base})`;
    }
    case 'bar': {
      const base = part(element, 'e');
      const top = property(element, 'barPr', 'pos') === 'top';
      return [...base].length === 1 ? `${base}${top ? '\u0305' : '\u0332'}` : `${top ? '‾' : '_'}(${base})`;
    }
    case 'limLow':
      return `${part(element, 'e')}_${wrap(part(element, 'lim'))}`;
    case 'limUpp':
      return `${part(element, 'e')}^${wrap(part(element, 'lim'))}`;
    case 'm':
      return `[${element.children
        .filter((node): node is XmlElement => typeof node !== 'string' && node.name === 'mr')
        .map((row) => row.children.map((cell) => (typeof cell === 'string' ? '' : linear(cell))).join(' '))
        .join('; ')}]`;
    case 'eqArr':
      return element.children
        .map((node) => (typeof node === 'string' ? '' : linear(node)))
        .filter(Boolean)
        .join('\n');
    case 'oMathPara':
      return element.children
        .filter((node): node is XmlElement => typeof node !== 'string' && node.name === 'oMath')
        .map(linear)
        .join('\n');
    default:
      // Properties (`m:fPr`, `m:ctrlPr`, ...) hold no text; everything else reads as its children.
      if (element.name.endsWith('Pr')) return '';
      return element.children.map((node) => (typeof node === 'string' ? '' : linear(node))).join('');
  }
}

/**
 * Office Math (`m:oMath`, `m:oMathPara`) as readable linear text, close to Word's linear format:
 * fractions `(a+b)/2`, roots `√(b²-4ac)`, scripts as Unicode super- and subscripts where every
 * character has one (`x²`, `a₁`) and `^(…)`, `_(…)` otherwise, n-ary operators `∑_(i=1)^n x`,
 * delimiters with their characters, functions `sin x`, matrices `[a b; c d]`. Lines of an equation
 * array or paragraph are separated by `\n`.
 *
 * @example ommlText(parseXml('<m:oMath><m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath>')) // 'x²'
 */
export function ommlText(math: XmlElement): string {
  return linear(math)
    .replace(/[ \t]+/g, ' ')
    .trim();
}
