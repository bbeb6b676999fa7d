// The layering of shared/ (docs/development.md "Layout"), checked over the imports of its files: which folders
// import each other in a cycle, and which file imports from a folder above its own.
// `npm run layers` prints both; tests/unit/layers.test.ts fails on any not known yet.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bottom to top: a folder may import from its own layer's files only within itself, and from any
 * layer below. `(root)` is shared/errors.ts.
 */
export const LAYERS: string[][] = [
  ['(root)', 'log', 'async'],
  ['text', 'access'],
  ['config'],
  ['db', 'storage'],
  ['parse'],
  ['llm'],
  ['index'],
  ['search'],
  ['diff', 'documents', 'enrich'],
  ['pipeline'],
  ['qa'],
  ['runtime', 'watch'],
  ['api'],
  ['cli'],
];

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** One import of a file of shared/ from another folder of shared/ (paths relative to shared/). */
export interface FolderImport {
  from: string;
  to: string;
  file: string;
  target: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of shared/ a path is in: its first segment, `(root)` for files directly in shared/. */
function folderOf(sharedPath: string): string {
  const parts = sharedPath.split('/');
  return parts.length > 1 ? (parts[0] as string) : '(root)';
}

/** Every import between two folders of shared/: `{ from, to, file, target }`, paths relative to shared/. */
export function folderImports(repoRoot: string): FolderImport[] {
  const shared = join(repoRoot, 'shared');
  const imports: FolderImport[] = [];
  for (const file of tsFiles(shared)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      let target: string;
      if (spec.startsWith('#shared/')) target = spec.slice('#shared/'.length);
      else if (spec.startsWith('.')) target = relative(shared, resolve(dirname(file), spec));
      else continue;
      if (target.startsWith('..')) continue;
      const path = relative(shared, file);
      const from = folderOf(path);
      const to = folderOf(target);
      if (from !== to) imports.push({ from, to, file: path, target });
    }
  }
  return imports;
}

function layerOf(folder: string): number {
  const index = LAYERS.findIndex((layer) => layer.includes(folder));
  if (index < 0)
    throw new Error(
      `shared/${folder} is in no layer of scripts/layers.ts (and docs/development.md "Layout")`,
    );
  return index;
}

/** Imports from a folder of a higher layer, or of the same layer (siblings stay apart). */
export function upwardImports(imports: FolderImport[]): FolderImport[] {
  return imports.filter((i) => layerOf(i.to) >= layerOf(i.from));
}

/** The cycles between folders: each strongly connected set of two or more folders, sorted. */
export function folderCycles(imports: Pick<FolderImport, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from)?.add(to);
  }
  // Tarjan's algorithm over the folder graph.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const at = (map: Map<string, number>, v: string) => map.get(v) ?? 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(at(low, v), at(low, w)));
      } else if (onStack.has(w)) low.set(v, Math.min(at(low, v), at(index, w)));
    }
    if (at(low, v) === at(index, v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a.join().localeCompare(b.join()));
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const imports = folderImports(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  const cycles = folderCycles(imports);
  const upward = upwardImports(imports);
  console.log(`folder cycles: ${cycles.length}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(' <-> ')}`);
  console.log(`upward imports: ${upward.length}`);
  for (const i of upward) console.log(`  shared/${i.file} -> shared/${i.target} (${i.from} -> ${i.to})`);
  process.exitCode = cycles.length + upward.length > 0 ? 1 : 0;
}
