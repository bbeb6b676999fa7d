import type { ParagraphNode } from '../types.ts';
import type { OpcPackage, Relationship } from './package.ts';
import { flatText } from './text-body.ts';
import { child, childrenNamed, descendants, ownText } from './xml.ts';

function authors(pkg: OpcPackage): Map<string, string> {
  const names = new Map<string, string>();
  // Classic comments name authors in commentAuthors.xml (`p:cmAuthor`), modern ones in authors.xml.
  for (const [part, element] of [
    ['ppt/commentAuthors.xml', 'cmAuthor'],
    ['ppt/authors.xml', 'author'],
  ] as const) {
    for (const author of childrenNamed(pkg.xml(part), element)) {
      const name = author.attributes.name?.trim();
      if (name) names.set(author.attributes.id ?? '', name);
    }
  }
  return names;
}

/**
 * A slide's comments as paragraphs with `metadata.kind: 'comment'` (and `author`), after its
 * content and before its notes: classic comments (`p:cm/p:text`) and modern ones (Office 365,
 * `p188:cm/p188:txBody` with their replies), each "Comment by Name: text".
 */
export function commentLeaves(
  pkg: OpcPackage,
  slideRels: Map<string, Relationship>,
  metadata: Record<string, unknown>,
): ParagraphNode[] {
  const out: ParagraphNode[] = [];
  let names: Map<string, string> | undefined;
  for (const rel of slideRels.values()) {
    if (rel.type !== 'comments' || rel.external) continue;
    for (const comment of childrenNamed(pkg.xml(rel.target), 'cm')) {
      const entries = [comment, ...descendants(child(comment, 'replyLst'), 'reply')];
      for (const entry of entries) {
        const text = child(entry, 'text')
          ? ownText(child(entry, 'text')).trim()
          : flatText(child(entry, 'txBody'));
        if (!text) continue;
        names ??= authors(pkg);
        const author = names.get(entry.attributes.authorId ?? '');
        out.push({
          type: 'paragraph',
          text: `${author ? `Comment by ${author}` : 'Comment'}: ${text}`,
          metadata: author ? { ...metadata, kind: 'comment', author } : { ...metadata, kind: 'comment' },
        });
      }
    }
  }
  return out;
}
