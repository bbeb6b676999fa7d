import { assertCollectionName } from './collection-name.ts';

/** `collections` of the configuration: how a key names its document's collection. */
export interface CollectionSettings {
  /** The collection of a key no rule names (and of every document from before collections). */
  default: string;
  /** Key prefix (`hr/`, `watch/hr-share/`) -> collection; the longest matching prefix wins. */
  prefixes: Record<string, string>;
}

/** Where an upload into a chosen collection is stored: `collections/<name>/`. */
export function uploadPrefix(collection: string): string {
  return `collections/${assertCollectionName(collection)}/`;
}

/**
 * The collection a document of this key belongs to: `collections/<name>/...` (an upload into a
 * chosen collection) names it; otherwise the longest prefix of `collections.prefixes` the key starts
 * with (a bucket folder such as `hr/`, a watched folder's `watch/<folder name>/`); otherwise the default.
 *
 * @example collectionOfKey('hr/pay.docx', { default: 'default', prefixes: { 'hr/': 'hr' } }) // 'hr'
 */
export function collectionOfKey(key: string, settings: CollectionSettings): string {
  const chosen = /^collections\/([^/]+)\//.exec(key)?.[1];
  if (chosen !== undefined) return assertCollectionName(chosen, `key ${key}`);
  let best: { prefix: string; collection: string } | undefined;
  for (const [raw, collection] of Object.entries(settings.prefixes)) {
    const prefix = raw.endsWith('/') ? raw : `${raw}/`;
    if (key.startsWith(prefix) && prefix.length > (best?.prefix.length ?? -1)) best = { prefix, collection };
  }
  return best?.collection ?? settings.default;
}
