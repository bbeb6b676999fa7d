import { readCoreProperties } from '../core-properties.ts';
import { DEFAULT_PARSE_LIMITS } from '../limits.ts';
import { titleFromFilename } from '../title.ts';
import type { ParsedDocument, ParseInput, Parser } from '../types.ts';
import { buildDocxTree } from './build-tree.ts';
import { createDocxImages } from './images.ts';
import { readDocxModel } from './read-model.ts';
import { silentlyNumberedStyles } from './silent-numbering.ts';

/** mammoth's note on non-web image types repeats the warning the image collector gives. */
const IMAGE_TYPE_WARNING = /unlikely to display in web browsers/;

/**
 * Parses a Word document (.docx) into the document tree: sections from the heading styles (localized
 * names included), lists, tables, images at their place, footnotes at the end. The title is the core
 * properties' title, else the first Title-styled paragraph, else the file name. Linked images are
 * never read.
 */
export async function parseDocx(input: ParseInput): Promise<ParsedDocument> {
  const { document, warnings: readWarnings } = await readDocxModel(input.bytes, input.filename);
  const metadata: Record<string, unknown> = readCoreProperties(input.bytes);
  const coreTitle = typeof metadata.title === 'string' ? metadata.title : undefined;
  const images = createDocxImages();
  const maxBytes = (input.limits ?? DEFAULT_PARSE_LIMITS).maxUncompressedBytes;
  const silentStyles = silentlyNumberedStyles(input.bytes, maxBytes);
  const tree = await buildDocxTree(document, images, coreTitle, silentStyles);
  const warnings = [...readWarnings.filter((w) => !IMAGE_TYPE_WARNING.test(w)), ...images.warnings];
  return {
    title: coreTitle ?? tree.title ?? titleFromFilename(input.filename),
    metadata,
    children: tree.children,
    images: images.images,
    warnings,
  };
}

/** The Word parser of the registry. */
export const docxParser: Parser = { type: 'docx', parse: parseDocx };
