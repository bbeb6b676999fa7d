import { readCoreProperties } from '../core-properties.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser, TreeNode } from '../types.ts';
import { buildDocxTree } from './build-tree.ts';
import { createDocxImages } from './images.ts';
import { readDocxModel } from './read-model.ts';

/** mammoth's note on non-web image types repeats the warning the image collector gives. */
const IMAGE_TYPE_WARNING = /unlikely to display in web browsers/;

function furniture(text: string, kind: 'header' | 'footer'): TreeNode {
  return { type: 'paragraph', text, metadata: { kind } };
}

/**
 * Parses a Word document (.docx) into the document tree: sections from the heading styles (localized
 * names included, numbered as Word shows them), lists, tables, images, charts, equations and text
 * boxes at their place, comments after their paragraph, footnotes at the end, and the first page's
 * header and footer first and last. The title is the core
 * properties' title, else the first Title-styled paragraph, else the file name. Linked images are
 * never read.
 */
export async function parseDocx(input: ParseInput): Promise<ParsedDocument> {
  const maxBytes = (input.limits ?? DEFAULT_PARSE_LIMITS).maxUncompressedBytes;
  const {
    document,
    warnings: readWarnings,
    extras,
    word,
  } = await readDocxModel(input.bytes, input.filename, maxBytes);
  const metadata: Record<string, unknown> = readCoreProperties(input.bytes);
  const coreTitle = typeof metadata.title === 'string' ? metadata.title : undefined;
  const images = createDocxImages();
  const tree = await buildDocxTree(document, images, coreTitle, extras);
  const { header, footer } = word.firstPage;
  const children = [
    ...(header ? [furniture(header, 'header')] : []),
    ...tree.children,
    ...(footer ? [furniture(footer, 'footer')] : []),
  ];
  const warnings = [...readWarnings.filter((w) => !IMAGE_TYPE_WARNING.test(w)), ...images.warnings];
  return {
    title: coreTitle ?? tree.title ?? titleFromFilename(input.filename),
    metadata,
    children,
    images: images.images,
    warnings,
  };
}

/** The Word parser of the registry. */
export const docxParser: Parser = { type: 'docx', parse: parseDocx };
