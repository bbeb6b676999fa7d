import { skipSpace, valueEnd } from './cos.ts';
import { IDENTITY, type Matrix, multiply, type Placement, placement } from './matrix.ts';

/** An image XObject painted by a content stream: its resource name and where it lands. */
export interface ContentImage extends Placement {
  name: string;
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;
const OPERAND_START = new Set(['(', '<', '[', '/']);

/** Where the data of an inline image (`BI ... ID data EI`) ends: after an `EI` set apart by whitespace. */
function inlineImageEnd(content: string, at: number): number {
  const id = content.indexOf('ID', at);
  if (id === -1) return content.length;
  const ei = /\sEI(?=[\s\0]|$)/g;
  ei.lastIndex = id + 3;
  const match = ei.exec(content);
  return match ? match.index + match[0].length : content.length;
}

/**
 * Finds where a page's content stream paints the named image XObjects (`/Im0 Do`), by following its
 * graphics state (`q`, `Q`, `cm`): the same places pdf.js's operator list gives, without decoding
 * the images. Forms are not entered: callers use this only for pages whose images are their own.
 */
export function paintedImages(content: string, names: ReadonlySet<string>): ContentImage[] {
  const painted: ContentImage[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  let operands: string[] = [];
  let i = skipSpace(content, 0);
  while (i < content.length) {
    const char = content[i] as string;
    const end = Math.max(valueEnd(content, i), i + 1);
    const token = content.slice(i, end);
    if (OPERAND_START.has(char) || NUMBER.test(token)) operands.push(token);
    else {
      if (token === 'q') stack.push(ctm);
      else if (token === 'Q') ctm = stack.pop() ?? ctm;
      else if (token === 'cm' && operands.length >= 6) ctm = multiply(ctm, operands.slice(-6).map(Number));
      else if (token === 'Do') {
        const name = operands.at(-1)?.slice(1);
        if (name !== undefined && names.has(name)) painted.push({ name, ...placement(ctm) });
      } else if (token === 'BI') {
        i = skipSpace(content, inlineImageEnd(content, end));
        operands = [];
        continue;
      }
      operands = [];
    }
    i = skipSpace(content, end);
  }
  return painted;
}
