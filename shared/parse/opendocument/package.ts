import { type Document, type Element, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { UnsupportedDocumentError } from '#shared/errors.ts';
import type { ParseInput } from '../types.ts';
import { readZipDirectory, readZipEntry, type ZipEntry } from '../zip.ts';

/** An OpenDocument package (.odt, .odp): its XML parts parsed, its other entries readable by path. */
export interface OdfPackage {
  content: Document;
  styles: Document | undefined;
  meta: Document | undefined;
  /** An entry's bytes by its path (`Pictures/1.png`), or undefined. */
  read(path: string): Uint8Array | undefined;
}

/**
 * Opens an OpenDocument package, refusing a password-protected one with that reason. The archive limits and the DTD check were applied by
 * `checkOoxml` (through `parseDocument`); each entry is inflated no further than its declared size.
 */
export function openOdf(input: ParseInput, kind: string): OdfPackage {
  const entries = new Map<string, ZipEntry>(
    readZipDirectory(input.bytes).map((entry) => [entry.name, entry]),
  );
  const read = (path: string): Uint8Array | undefined => {
    const entry = entries.get(path.replace(/^\.\//, ''));
    return entry ? readZipEntry(input.bytes, entry, entry.uncompressedSize) : undefined;
  };
  const xml = (path: string): Document | undefined => {
    const bytes = read(path);
    return bytes ? parseDocument(new TextDecoder().decode(bytes), { xmlMode: true }) : undefined;
  };
  // A password-protected package lists the encryption of each part in its manifest; the parts
  // themselves are ciphertext, which would read as "no document body".
  const manifest = read('META-INF/manifest.xml');
  if (manifest && new TextDecoder().decode(manifest).includes('encryption-data')) {
    throw new UnsupportedDocumentError(
      `${input.filename} is password-protected (an encrypted OpenDocument ${kind}); save it without a password`,
    );
  }
  const content = xml('content.xml');
  if (!content || !findElement(content, 'office:body')) {
    throw new UnsupportedDocumentError(
      `${input.filename} is not a readable OpenDocument ${kind}: its content.xml has no document body`,
    );
  }
  return { content, styles: xml('styles.xml'), meta: xml('meta.xml'), read };
}

/** The element children of a node. */
export function elements(node: { children: unknown[] }): Element[] {
  return (node.children as Parameters<typeof isTag>[0][]).filter(isTag);
}

/** The first descendant element of this name, depth first. */
export function findElement(node: { children: unknown[] }, name: string): Element | undefined {
  for (const child of elements(node)) {
    if (child.name === name) return child;
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}
