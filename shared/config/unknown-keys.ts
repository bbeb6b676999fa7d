import { z } from 'zod';

/**
 * Names for the settings a configuration object may hold, read from the schema itself, so that an
 * unknown key can be answered with the nearest valid one (`serch` -> `search`).
 */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.ZodType | undefined = schema;
  for (const part of path) {
    const object = unwrapObject(node);
    node = object?.shape[String(part)] as z.ZodType | undefined;
  }
  const object = unwrapObject(node);
  return object ? Object.keys(object.shape) : [];
}

/** Every dotted path of a leaf setting under `schema` (`search.bm25.k1`, ...). */
export function settingPaths(schema: z.ZodType, prefix = ''): string[] {
  const object = unwrapObject(schema);
  if (!object) return prefix ? [prefix] : [];
  return Object.entries(object.shape).flatMap(([key, child]) =>
    settingPaths(child as z.ZodType, prefix ? `${prefix}.${key}` : key),
  );
}

/** The candidate closest to `name` by edit distance (case-insensitive), if it is close enough. */
export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const allowed = Math.max(2, Math.floor(name.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

function unwrapObject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  let node = schema as { _zod: { def: Record<string, unknown> } } | undefined;
  for (let depth = 0; node && depth < 10; depth++) {
    if (node instanceof z.ZodObject) return node;
    const def = node._zod.def;
    node = (def.innerType ?? def.in) as typeof node;
  }
  return undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
