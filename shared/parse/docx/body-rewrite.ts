import type { TreeNode } from '../types.ts';
import { elementEnd, innerXml } from './element-end.ts';
import type { ParagraphNumbering } from './numbering.ts';

/** What the rewrite puts at a bookmark (`_DropQA<n>`): a heading's number, or leaves to place there. */
export type BodyExtra = { kind: 'number'; label: string } | { kind: 'leaves'; nodes: TreeNode[] };

/** The readers the rewrite calls for what mammoth does not read. */
export interface BodyReaders {
  /** The number Word shows in front of a paragraph (`createNumberer`); absent when there is no list. */
  number?: (paragraph: ParagraphNumbering) => string | undefined;
  /** A chart's leaves by the relationship id of `c:chart` (or `cx:chart`); undefined when unreadable. */
  chart(relId: string): TreeNode[] | undefined;
  /** A SmartArt diagram's text by the relationship id of its data part. */
  diagram(relId: string): string;
  /** Office Math as linear text. */
  math(xml: string): string;
}

/** The prefix of the bookmarks the rewrite adds; Word's own hidden bookmarks start `_Toc`, `_Ref`. */
export const EXTRA_BOOKMARK = '_DropQA';

const SPECIAL_CHOICE = /<\w+:txbxContent[\s>]|<\w+:chart[\s/]|<\w+:relIds[\s/]|<m:oMath[\s>]/;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const STYLE = /<w:pStyle\b[^>]*?\bw:val="([^"]*)"/;
const NUM_ID = /<w:numId\b[^>]*?\bw:val="([^"]*)"/;
const LEVEL = /<w:ilvl\b[^>]*?\bw:val="([^"]*)"/;

/**
 * Rewrites the XML of a Word document's main part so that mammoth's reader keeps what it would drop,
 * without parsing the whole part twice (only the elements concerned are looked at):
 * - Office Math (`m:oMath`, `m:oMathPara`) becomes a run of its linear text, in the paragraph;
 * - text boxes in DrawingML shapes and groups (`wps:txbx/w:txbxContent`) follow the drawing in a
 *   `w:pict`, which mammoth reads as paragraphs after the anchoring paragraph;
 * - a markup-compatibility block (`mc:AlternateContent`) keeps one branch: the choice when it holds a
 *   text box, chart, diagram or equation, else the fallback (as mammoth reads it), never both;
 * - charts and SmartArt become a bookmark whose extra holds their leaves;
 * - a numbered paragraph gets a bookmark whose extra holds the number Word shows for it.
 * Returns the XML unchanged (same string) when nothing applies.
 */
export function rewriteBody(
  xml: string,
  readers: BodyReaders,
): { xml: string; extras: Map<string, BodyExtra> } {
  const extras = new Map<string, BodyExtra>();
  const bookmark = (extra: BodyExtra) => {
    const name = `${EXTRA_BOOKMARK}${extras.size + 1}`;
    extras.set(name, extra);
    return `<w:bookmarkStart w:id="${900_000 + extras.size}" w:name="${name}"/>`;
  };
  const tags = readers.number
    ? /<(w:p|w:drawing|mc:AlternateContent|m:oMathPara|m:oMath)(?=[\s>/])/g
    : /<(w:drawing|mc:AlternateContent|m:oMathPara|m:oMath)(?=[\s>/])/g;

  const drawing = (element: string): string => {
    const chart = /<\w+:chart\b[^>]*?\br:id="([^"]+)"/.exec(element);
    const leaves = chart ? readers.chart(chart[1] ?? '') : undefined;
    if (leaves) return bookmark({ kind: 'leaves', nodes: leaves });
    const diagram = /<\w+:relIds\b[^>]*?\br:dm="([^"]+)"/.exec(element);
    const text = diagram ? readers.diagram(diagram[1] ?? '') : '';
    if (text) {
      return bookmark({
        kind: 'leaves',
        nodes: [{ type: 'paragraph', text, metadata: { kind: 'diagram' } }],
      });
    }
    const boxes: string[] = [];
    const starts = /<(\w+:txbxContent)(?=[\s>/])/g;
    for (let match = starts.exec(element); match; match = starts.exec(element)) {
      const end = elementEnd(element, match.index, match[1] ?? '');
      boxes.push(rewrite(innerXml(element.slice(match.index, end))));
      starts.lastIndex = end;
    }
    return boxes.length ? `${element}<w:pict>${boxes.join('')}</w:pict>` : element;
  };

  const alternate = (element: string): string => {
    const branch = (name: string) => {
      const at = element.search(new RegExp(`<mc:${name}(?=[\\s>/])`));
      return at < 0 ? undefined : innerXml(element.slice(at, elementEnd(element, at, `mc:${name}`)));
    };
    const choice = branch('Choice');
    const fallback = branch('Fallback');
    if (choice !== undefined && (fallback === undefined || SPECIAL_CHOICE.test(choice)))
      return rewrite(choice);
    return rewrite(fallback ?? '');
  };

  const math = (element: string): string => {
    const lines = readers.math(element).split('\n');
    return `<w:r>${lines.map((line) => `<w:t xml:space="preserve">${escapeXml(line)}</w:t>`).join('<w:br/>')}</w:r>`;
  };

  function paragraphStart(text: string, at: number): { insertAt: number; mark: string } | undefined {
    const open = text.indexOf('>', at);
    if (open < 0 || text[open - 1] === '/') return undefined;
    let properties = '';
    let insertAt = open + 1;
    if (text.startsWith('<w:pPr', insertAt) && /[\s>/]/.test(text[insertAt + 6] ?? '')) {
      const end = elementEnd(text, insertAt, 'w:pPr');
      // A tracked change keeps the earlier properties inside; only the current ones count.
      properties = text.slice(insertAt, end).replace(/<w:pPrChange[\s\S]*?<\/w:pPrChange>/, '');
      insertAt = end;
    }
    if (properties === '') return undefined;
    const ilvl = LEVEL.exec(properties)?.[1];
    const label = readers.number?.({
      style: STYLE.exec(properties)?.[1],
      numId: NUM_ID.exec(properties)?.[1],
      level: ilvl === undefined ? undefined : Number(ilvl),
    });
    return label === undefined ? undefined : { insertAt, mark: bookmark({ kind: 'number', label }) };
  }

  function rewrite(text: string): string {
    const scan = new RegExp(tags.source, 'g');
    let out = '';
    let last = 0;
    for (let match = scan.exec(text); match; match = scan.exec(text)) {
      const name = match[1] ?? '';
      if (name === 'w:p') {
        const start = paragraphStart(text, match.index);
        if (start) {
          out += text.slice(last, start.insertAt) + start.mark;
          last = start.insertAt;
          scan.lastIndex = start.insertAt;
        }
        continue;
      }
      const end = elementEnd(text, match.index, name);
      const element = text.slice(match.index, end);
      const replaced =
        name === 'w:drawing'
          ? drawing(element)
          : name === 'mc:AlternateContent'
            ? alternate(element)
            : math(element);
      out += text.slice(last, match.index) + replaced;
      last = end;
      scan.lastIndex = end;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  return { xml: rewrite(xml), extras };
}
