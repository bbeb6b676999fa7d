import { type Handler, Parser } from 'htmlparser2';
import { collapseSpaces } from '#shared/text/collapse-spaces.ts';
import { createOutline, type OutlineBuilder } from '../outline.ts';
import { pipeTable } from '../pipe-table.ts';
import type { ImageNode, TreeNode } from '../types.ts';

/** Never content: code, styles, embedded frames and forms' hidden parts. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'head',
]);
/** Navigation boilerplate around a page's content. */
const BOILERPLATE = new Set(['nav', 'aside', 'footer', 'header']);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Elements that end the paragraph before them and start a new one. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'blockquote',
  'pre',
  'address',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'hr',
  'form',
  'fieldset',
  'details',
  'summary',
  'center',
  'body',
  'html',
]);
/** The section level of each heading element. */
const HEADING_LEVELS = new Map([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
]);
/** How often (in elements) the walk checks whether the parse was aborted. */
const ABORT_CHECK_EVERY = 1024;

type Attributes = Record<string, string>;

function isBoilerplate(name: string, attribs: Attributes): boolean {
  if (DROPPED.has(name)) return true;
  if (attribs.hidden !== undefined || attribs['aria-hidden'] === 'true') return true;
  return BOILERPLATE.has(name) || BOILERPLATE_ROLES.has(attribs.role ?? '');
}

/** A whitespace run as `clean` keeps it: a line break if it holds one, else a space. */
const collapse = (run: string) => (run.includes('\n') ? '\n' : ' ');

/** The text's lines with their whitespace collapsed and trimmed, empty lines dropped. */
function clean(text: string): string {
  return text.includes('\n') ? text.replace(/\s+/g, collapse).trim() : collapseSpaces(text);
}

/**
 * An element's text as a reader sees it, gathered while it is parsed: line breaks around blocks,
 * list items and table rows and at `br`, boilerplate left out.
 */
class TextCapture {
  text = '';
  /** How deep the parse is inside an element whose text is left out (0: not inside one). */
  private skipped = 0;
  /** What each open element adds when it closes. */
  private readonly ends: string[] = [];

  open(name: string, attribs: Attributes): void {
    if (this.skipped > 0 || isBoilerplate(name, attribs)) {
      this.skipped++;
    } else if (name === 'br') {
      this.text += '\n';
      this.skipped++;
    } else {
      const marked = BLOCKS.has(name) || name === 'li' || name === 'tr';
      if (marked) this.text += '\n';
      this.ends.push(marked ? '\n' : '');
    }
  }

  close(): void {
    if (this.skipped > 0) this.skipped--;
    else this.text += this.ends.pop() ?? '';
  }

  add(text: string): void {
    if (this.skipped === 0) this.text += text;
  }
}

/** Where the parse is: what an element opened there is read as. */
const WALK = 0;
const SKIP = 1;
const CAPTURE = 2;
const LIST = 3;
const TABLE = 4;
const ROW = 5;
type Mode = typeof WALK | typeof SKIP | typeof CAPTURE | typeof LIST | typeof TABLE | typeof ROW;

/** What closing an element does. */
const NOTHING = 0;
const END_BLOCK = 1;
const END_HEADING = 2;
const END_LIST = 3;
const END_ITEM = 4;
const END_TABLE = 5;
const END_ROW = 6;
const END_CELL = 7;
const END_CAPTURED = 8;
const END_BODY = 9;
type Ending =
  | typeof NOTHING
  | typeof END_BLOCK
  | typeof END_HEADING
  | typeof END_LIST
  | typeof END_ITEM
  | typeof END_TABLE
  | typeof END_ROW
  | typeof END_CELL
  | typeof END_CAPTURED
  | typeof END_BODY;

/** A page read into its outline: leaves and sections in reading order, image nodes still to be read. */
export interface WalkedPage {
  title: string;
  children: TreeNode[];
  /** The image nodes placed where their `img` is, with their source, in document order. */
  images: { node: ImageNode; src: string }[];
}

/**
 * The walk over a page's parse events, without building its DOM (the DOM cost more than the
 * parsing): the children of the first `body` (of the whole page when it has none), `h1`-`h6` opening
 * sections, blocks ending paragraphs, lists and tables as whole leaves (a list's own `li` items; a
 * table's own rows, not those of tables nested in its cells), boilerplate skipped; the title from the
 * first `title`.
 */
class PageWalker implements Partial<Handler> {
  private outline: OutlineBuilder = createOutline();
  private images: WalkedPage['images'] = [];
  private inline = '';
  private mode: Mode = WALK;
  /** For each open element: the mode to return to, and what its closing does. */
  private readonly modes: Mode[] = [];
  private readonly endings: Ending[] = [];
  private capture = new TextCapture();
  private level = 0;
  private ordered = false;
  private items: string[] = [];
  private rows: string[][] = [];
  private cells: string[] = [];
  private bodySeen = false;
  private done = false;
  private title: TextCapture | undefined;
  /** How many elements are open inside the title (-1 before it, and after it closed). */
  private titleDepth = -1;
  private opened = 0;

  constructor(private readonly signal: AbortSignal | undefined) {}

  private flush(): void {
    if (!this.inline) return;
    const text = clean(this.inline);
    if (text) this.outline.leaf({ type: 'paragraph', text });
    this.inline = '';
  }

  private push(mode: Mode, ending: Ending): void {
    this.modes.push(this.mode);
    this.endings.push(ending);
    this.mode = mode;
  }

  private startCapture(ending: Ending): void {
    this.capture = new TextCapture();
    this.push(CAPTURE, ending);
  }

  onopentag(name: string, attribs: Attributes): void {
    if (++this.opened % ABORT_CHECK_EVERY === 0) this.signal?.throwIfAborted();
    this.openTitle(name, attribs);
    if (this.done) {
      this.push(SKIP, NOTHING);
      return;
    }
    if (name === 'body' && !this.bodySeen) {
      // Only the first body's children are the page: what came before it is dropped.
      this.bodySeen = true;
      this.outline = createOutline();
      this.images = [];
      this.inline = '';
      this.push(WALK, END_BODY);
      return;
    }
    switch (this.mode) {
      case WALK:
        this.openInWalk(name, attribs);
        return;
      case CAPTURE:
        this.capture.open(name, attribs);
        this.push(CAPTURE, END_CAPTURED);
        return;
      case LIST:
        if (name === 'li' && !isBoilerplate(name, attribs)) this.startCapture(END_ITEM);
        else this.push(SKIP, NOTHING);
        return;
      case TABLE:
        if (isBoilerplate(name, attribs) || name === 'table') this.push(SKIP, NOTHING);
        else if (name === 'tr') {
          this.cells = [];
          this.push(ROW, END_ROW);
        } else this.push(TABLE, NOTHING);
        return;
      case ROW:
        if (name !== 'td' && name !== 'th') this.push(SKIP, NOTHING);
        else if (isBoilerplate(name, attribs)) {
          this.cells.push('');
          this.push(SKIP, NOTHING);
        } else this.startCapture(END_CELL);
        return;
      default:
        this.push(SKIP, NOTHING);
    }
  }

  private openInWalk(name: string, attribs: Attributes): void {
    if (isBoilerplate(name, attribs)) {
      this.push(SKIP, NOTHING);
      return;
    }
    const level = HEADING_LEVELS.get(name);
    if (level !== undefined) {
      this.flush();
      this.level = level;
      this.startCapture(END_HEADING);
      return;
    }
    switch (name) {
      case 'br':
        this.inline += '\n';
        this.push(SKIP, NOTHING);
        return;
      case 'img': {
        this.flush();
        this.push(SKIP, NOTHING);
        const src = attribs.src?.trim();
        if (!src) return;
        const image: ImageNode = { type: 'image', name: '', alt: attribs.alt ?? '' };
        this.images.push({ node: image, src });
        this.outline.leaf(image);
        return;
      }
      case 'ul':
      case 'ol':
        this.flush();
        this.ordered = name === 'ol';
        this.items = [];
        this.push(LIST, END_LIST);
        return;
      case 'table':
        this.flush();
        this.rows = [];
        this.push(TABLE, END_TABLE);
        return;
    }
    const block = BLOCKS.has(name) || name === 'li';
    if (block) this.flush();
    this.push(WALK, block ? END_BLOCK : NOTHING);
  }

  onclosetag(): void {
    this.closeTitle();
    const ending = this.endings.pop();
    const mode = this.modes.pop();
    if (ending === undefined || mode === undefined) return;
    this.mode = mode;
    if (!this.done) this.end(ending);
  }

  private end(ending: Ending): void {
    switch (ending) {
      case END_BLOCK:
        this.flush();
        return;
      case END_CAPTURED:
        this.capture.close();
        return;
      case END_HEADING: {
        const title = collapseSpaces(this.capture.text);
        if (title) this.outline.heading(this.level, title);
        return;
      }
      case END_ITEM: {
        const item = collapseSpaces(this.capture.text);
        if (item) this.items.push(item);
        return;
      }
      case END_LIST: {
        let text = '';
        for (const [i, item] of this.items.entries())
          text += `${i > 0 ? '\n' : ''}${this.ordered ? `${i + 1}.` : '-'} ${item}`;
        if (text)
          this.outline.leaf({ type: 'paragraph', text, metadata: { kind: 'list', ordered: this.ordered } });
        return;
      }
      case END_CELL:
        this.cells.push(collapseSpaces(this.capture.text));
        return;
      case END_ROW:
        if (this.cells.some(Boolean)) this.rows.push(this.cells);
        return;
      case END_TABLE:
        if (this.rows.length > 0)
          this.outline.leaf({ type: 'table', text: pipeTable(this.rows), rows: this.rows });
        return;
      case END_BODY:
        this.flush();
        this.done = true;
    }
  }

  ontext(text: string): void {
    if (this.titleDepth >= 0) this.title?.add(text);
    if (this.done) return;
    if (this.mode === WALK) this.inline += text;
    else if (this.mode === CAPTURE) this.capture.add(text);
  }

  /** The first `title` element's text is the page's title, wherever it sits. */
  private openTitle(name: string, attribs: Attributes): void {
    if (this.titleDepth >= 0) {
      this.title?.open(name, attribs);
      this.titleDepth++;
    } else if (name === 'title' && !this.title) {
      this.title = new TextCapture();
      this.titleDepth = 0;
    }
  }

  private closeTitle(): void {
    if (this.titleDepth < 0) return;
    if (this.titleDepth === 0) this.titleDepth = -1;
    else {
      this.title?.close();
      this.titleDepth--;
    }
  }

  finish(): WalkedPage {
    if (!this.done) this.flush();
    return {
      title: collapseSpaces(this.title?.text ?? ''),
      children: this.outline.finish(),
      images: this.images,
    };
  }
}

/**
 * Reads a page's text into its outline in one pass of htmlparser2's parser (entities decoded).
 *
 * @example walkPage('<h1>Intro</h1><p>Hi</p>').children // [{ type: 'section', title: 'Intro', children: [...] }]
 */
export function walkPage(html: string, signal?: AbortSignal): WalkedPage {
  const walker = new PageWalker(signal);
  new Parser(walker, { decodeEntities: true }).end(html);
  return walker.finish();
}
