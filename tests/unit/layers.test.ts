import { describe, expect, it } from 'vitest';
import { folderCycles, folderImports, LAYERS, upwardImports } from '../../scripts/layers.ts';

const REPO = new URL('../..', import.meta.url).pathname;

describe('the layering of shared/', () => {
  const imports = folderImports(REPO);

  it('puts every folder of shared/ in exactly one layer', () => {
    const folders = new Set(imports.flatMap((i) => [i.from, i.to]));
    const layered = LAYERS.flat();
    for (const folder of folders) expect(layered, folder).toContain(folder);
    expect(new Set(layered).size).toBe(layered.length);
  });

  it('has no import cycle between folders', () => {
    expect(folderCycles(imports)).toEqual([]);
  });

  it('has no import from a folder above (or beside) its own (docs/development.md "Layout")', () => {
    expect(upwardImports(imports).map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });
});

describe('folderCycles', () => {
  const edge = (from: string, to: string) => ({ from, to, file: `${from}/a.ts`, target: `${to}/b.ts` });

  it('finds each set of folders that import each other, directly or around a ring', () => {
    const imports = [
      edge('a', 'b'),
      edge('b', 'a'),
      edge('c', 'd'),
      edge('d', 'e'),
      edge('e', 'c'),
      edge('e', 'f'),
    ];
    expect(folderCycles(imports)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });

  it('finds none in a layered graph', () => {
    expect(folderCycles([edge('api', 'qa'), edge('qa', 'db'), edge('api', 'db')])).toEqual([]);
  });
});

describe('upwardImports', () => {
  it('reports imports from a higher layer and between siblings of one layer', () => {
    const imports = [
      { from: 'db', to: 'qa', file: 'db/x.ts', target: 'qa/y.ts' },
      { from: 'diff', to: 'enrich', file: 'diff/x.ts', target: 'enrich/y.ts' },
      { from: 'qa', to: 'db', file: 'qa/x.ts', target: 'db/y.ts' },
    ];
    expect(upwardImports(imports).map((i) => i.file)).toEqual(['db/x.ts', 'diff/x.ts']);
  });
});
