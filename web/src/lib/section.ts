import type { StructureSection } from './types.ts';

const squash = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The chain of sections (outermost first) whose titles follow a citation's section path
 * ("第3章 基础设施 > 3.2 云平台建设"); titles are compared loosely (case, spacing). When the full
 * path does not match, the deepest matching prefix is returned; an empty list when nothing matches.
 */
export function findSectionPath(sections: StructureSection[], path: string): StructureSection[] {
  const wanted = path
    .split(' > ')
    .map(squash)
    .filter((part) => part.length > 0);
  const chain: StructureSection[] = [];
  let level = sections;
  for (const title of wanted) {
    const direct = level.find((section) => squash(section.title) === title);
    const next = direct ? { chain: [direct] } : findDeep(level, title);
    if (!next) break;
    chain.push(...next.chain);
    level = next.chain[next.chain.length - 1]?.children ?? [];
  }
  return chain;
}

/** A section with this title anywhere below `level`, with the chain that leads to it. */
function findDeep(level: StructureSection[], title: string): { chain: StructureSection[] } | undefined {
  for (const section of level) {
    if (squash(section.title) === title) return { chain: [section] };
    const below = findDeep(section.children, title);
    if (below) return { chain: [section, ...below.chain] };
  }
  return undefined;
}

/** The chain of sections from the top down to the section with this id (empty when absent). */
export function findSectionById(sections: StructureSection[], id: string): StructureSection[] {
  for (const section of sections) {
    if (section.id === id) return [section];
    const below = findSectionById(section.children, id);
    if (below.length > 0) return [section, ...below];
  }
  return [];
}
