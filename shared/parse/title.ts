/**
 * A document title from its file name: the last path segment without its extension.
 *
 * @example titleFromFilename('reports/2024 plan.md') // '2024 plan'
 */
export function titleFromFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const stem = base.replace(/\.[^.]+$/, '');
  return stem.trim() || base;
}
