import { type Document, Packer } from 'docx';
import type { ParsedDocument, TreeNode } from '#shared/parse/types.ts';
import { readZipDirectory, readZipEntry } from '#shared/parse/zip.ts';
import { zipBytes } from './fixtures.ts';

/** Word documents built in code with the `docx` package, and helpers to read the parsed tree. */

export async function docxBytes(document: Document): Promise<Uint8Array> {
  return new Uint8Array(await Packer.toBuffer(document));
}

/** Rewrites some entries of a .docx (by name) and keeps the rest, re-zipped. */
export function rewriteDocx(
  bytes: Uint8Array,
  edit: (name: string, data: Uint8Array) => Uint8Array | string,
): Uint8Array {
  const entries = readZipDirectory(bytes).map((entry) => {
    const data = readZipEntry(bytes, entry, 64 * 1024 * 1024);
    return { name: entry.name, data: edit(entry.name, new Uint8Array(data)), deflate: true };
  });
  return zipBytes(entries);
}

export function text(data: Uint8Array): string {
  return new TextDecoder().decode(data);
}

/** A compact outline of a tree: `section:Title` with children, leaves as `type:text`. */
export type Outline = string | [string, Outline[]];

export function outline(nodes: readonly TreeNode[]): Outline[] {
  return nodes.map((node) => {
    switch (node.type) {
      case 'section':
        return [`section:${node.title}`, outline(node.children)];
      case 'image':
        return `image:${node.name}`;
      default:
        return `${node.type}:${node.text}`;
    }
  });
}

export function leaves(document: ParsedDocument): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (nodes: readonly TreeNode[]) => {
    for (const node of nodes) {
      if (node.type === 'section') walk(node.children);
      else out.push(node);
    }
  };
  walk(document.children);
  return out;
}
