import type { SearchHit } from '#shared/search/types.ts';

/**
 * The passages the agent has gathered, numbered from 1 in the order first seen: the `[n]` the model
 * cites and the `index` of the `<document>` blocks it reads.
 */
export class Evidence {
  readonly hits: SearchHit[] = [];
  private readonly numbers = new Map<string, number>();

  /** Adds the hits not held yet; returns the number of each given hit (new or old), in order. */
  add(hits: SearchHit[]): { numbers: number[]; added: number } {
    let added = 0;
    const numbers = hits.map((hit) => {
      const known = this.numbers.get(hit.nodeId);
      if (known !== undefined) return known;
      this.hits.push(hit);
      this.numbers.set(hit.nodeId, this.hits.length);
      added += 1;
      return this.hits.length;
    });
    return { numbers, added };
  }

  numberOf(nodeId: string): number | undefined {
    return this.numbers.get(nodeId);
  }

  /** The documents of the gathered passages, in order of first appearance. */
  documentIds(): string[] {
    return [...new Set(this.hits.map((hit) => hit.documentId))];
  }

  get size(): number {
    return this.hits.length;
  }
}
