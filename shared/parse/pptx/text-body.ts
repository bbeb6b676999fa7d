import { ommlText } from '../docx/omml.ts';
import { child, ownText, type XmlElement } from './xml.ts';

/**
 * One DrawingML paragraph (`a:p`): its text (line breaks as `\n`), outline level and bullet.
 * `inherited` means the paragraph sets no bullet itself, so the placeholder's style decides.
 */
export interface TextLine {
  text: string;
  level: number;
  bullet: 'none' | 'bullet' | 'number' | 'inherited';
}

function runsText(paragraph: XmlElement): string {
  let text = '';
  for (const node of paragraph.children) {
    if (typeof node === 'string') continue;
    // Fields (slide numbers, dates) carry their current text in an `a:t` like runs do.
    if (node.name === 'r' || node.name === 'fld') text += ownText(child(node, 't'));
    else if (node.name === 'br') text += '\n';
    // An equation (`a14:m` holding Office Math) reads as its linear text, as in Word documents.
    else if (node.name === 'm') {
      const math = child(node, 'oMathPara') ?? child(node, 'oMath');
      if (math) text += ommlText(math);
    }
  }
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

function bulletOf(properties: XmlElement | undefined): TextLine['bullet'] {
  if (!properties) return 'inherited';
  if (child(properties, 'buNone')) return 'none';
  if (child(properties, 'buAutoNum')) return 'number';
  if (child(properties, 'buChar') || child(properties, 'buBlip')) return 'bullet';
  return 'inherited';
}

/**
 * The paragraphs of a text body (`p:txBody`, `a:txBody`, a chart's `c:rich`), empty ones kept as
 * empty lines since they separate blocks of text.
 */
export function textLines(body: XmlElement | undefined): TextLine[] {
  if (!body) return [];
  const lines: TextLine[] = [];
  for (const node of body.children) {
    if (typeof node === 'string' || node.name !== 'p') continue;
    const properties = child(node, 'pPr');
    const level = Number(properties?.attributes.lvl ?? 0);
    lines.push({
      text: runsText(node),
      level: Number.isInteger(level) && level > 0 ? level : 0,
      bullet: bulletOf(properties),
    });
  }
  return lines;
}

/** The text of a body on one line (titles, table cells). */
export function flatText(body: XmlElement | undefined): string {
  return textLines(body)
    .map((line) => line.text.replace(/\n/g, ' '))
    .filter((text) => text !== '')
    .join(' ');
}
