import type { VersionRef } from './contract.ts';

/**
 * Where a version's derived blobs live: `documents/<id>/v<n>/`. Its own module so that discarding a
 * version (Activate, MarkFailed, recovery) does not load the parse step and every parser with it.
 */
export function versionPrefix(ref: VersionRef): string {
  return `documents/${ref.documentId}/v${ref.version}/`;
}
