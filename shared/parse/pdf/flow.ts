import type { PlacedImage } from './images.ts';
import type { TextBlock } from './layout.ts';

/** A page's text blocks and images, in reading order. */
export type FlowEntry = TextBlock | PlacedImage;

/**
 * Puts a page's images among its text blocks: each image goes before the first block (in reading
 * order) that starts below the image's top edge, or after the last block when none does.
 */
export function placeImages(blocks: readonly TextBlock[], images: readonly PlacedImage[]): FlowEntry[] {
  if (images.length === 0) return [...blocks];
  const before = new Map<number, PlacedImage[]>();
  for (const image of images) {
    let at = blocks.findIndex((block) => block.top <= image.top + 1);
    if (at === -1) at = blocks.length;
    before.set(at, [...(before.get(at) ?? []), image]);
  }
  const flow: FlowEntry[] = [];
  for (let i = 0; i <= blocks.length; i++) {
    const images = before.get(i);
    if (images) flow.push(...images.sort((a, b) => b.top - a.top || a.x - b.x));
    const block = blocks[i];
    if (block) flow.push(block);
  }
  return flow;
}
