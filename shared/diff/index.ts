export { extractiveChangeSummary, writeChangeSummary } from './change-summary.ts';
export { buildOutline, loadOutline, type OutlineRow } from './load.ts';
export { diffOutlines } from './outline-diff.ts';
export type * from './types.ts';
export { type DiffRange, diffVersionPair, diffVersions } from './version-diff.ts';
export { diffTokens, wordDiff } from './words.ts';
