import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve, sep } from 'node:path';
import { ALL_COLLECTIONS } from '../../access/scope.ts';
import type { Config } from '../../config/index.ts';
import { openDatabase } from '../../db/index.ts';
import { resolveDocument } from '../../documents/resolve.ts';
import { normalizeTree } from '../../enrich/structure/normalize.ts';
import { NotFoundError } from '../../errors.ts';
import { flattenTree } from '../../index/flatten.ts';
import { readVersionTree } from '../../index/version-nodes.ts';
import { createProviders } from '../../llm/providers.ts';
import { detectFileType, normalizeOptionsOf, parseDocument, parseLimitsOf } from '../../parse/index.ts';
import { isUuid } from '../../search/scope.ts';
import type { DocumentStructure, StructureSection } from '../../search/structure.ts';
import { locateData } from '../data-folder.ts';
import { type TreeView, type ViewRow, viewFromRows } from './tree-view.ts';

/** A stand-in id: the rows of a file parsed for display are never stored. */
const UNSTORED = '00000000-0000-4000-8000-000000000000';

/** True when the argument names a file on disk (a document to parse, not a stored key or id). */
export function isLocalFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/**
 * The tree a file on disk gets, without touching the database: parsed, normalized with the
 * configured providers, flattened as the index would store it (depths, categories).
 */
export async function treeOfFile(
  config: Config,
  path: string,
): Promise<{ view: TreeView; warnings: string[] }> {
  const bytes = new Uint8Array(readFileSync(path));
  const filename = basename(path);
  const parsed = await parseDocument(
    {
      bytes,
      filename,
      readRelative: folderReader(dirname(path)),
      limits: parseLimitsOf(config),
    },
    detectFileType(bytes, filename),
  );
  const tree = await normalizeTree(parsed, createProviders(config), normalizeOptionsOf(config));
  const rows = flattenTree(tree, { documentId: UNSTORED, version: 1 }).map(
    (row): ViewRow => ({ ...row, type: row.nodeType }),
  );
  return { view: viewFromRows(rows) as TreeView, warnings: tree.warnings };
}

/** Reads files under `folder` only (Markdown images beside the document); never outside it. */
function folderReader(folder: string): (relativePath: string) => Promise<Uint8Array | undefined> {
  const root = realpathSync(folder);
  return async (relativePath) => {
    const target = resolve(root, relativePath);
    if (!target.startsWith(root + sep) || !isLocalFile(target)) return undefined;
    if (!realpathSync(target).startsWith(root + sep)) return undefined;
    return new Uint8Array(readFileSync(target));
  };
}

/**
 * The stored tree of a document named by key or id (its current version, or `version`), read from
 * the database directly: for use only when no server holds the data folder.
 */
export async function treeFromDatabase(config: Config, keyOrId: string, version?: number): Promise<TreeView> {
  locateData(config, { create: false });
  const database = await openDatabase(config);
  try {
    const doc = await resolveDocument(database.db, ALL_COLLECTIONS, keyOrId);
    const wanted = version ?? doc.currentVersion;
    if (wanted === null || wanted === undefined) {
      throw new NotFoundError(`${doc.key} has no ready version yet (status: ${doc.status})`);
    }
    const rows = await readVersionTree(database.db, { documentId: doc.id, version: wanted });
    const view = viewFromRows(rows.map((row) => ({ ...row, parentId: row.parent_id, type: row.node_type })));
    if (!view) throw new NotFoundError(`${doc.key} has no version ${wanted}`);
    return view;
  } finally {
    await database.close();
  }
}

/**
 * The tree of a stored document from a running server's structure endpoint
 * (`GET /api/documents/{id}/structure`): sections with their leaf counts, since the endpoint does
 * not list paragraphs.
 */
export async function treeFromServer(url: string, keyOrId: string, version?: number): Promise<TreeView> {
  const id = await serverDocumentId(url, keyOrId);
  const query = version ? `?version=${version}` : '';
  const structure = await getJson<DocumentStructure>(`${url}/api/documents/${id}/structure${query}`);
  const section = (s: StructureSection): TreeView => ({
    type: 'section',
    title: s.title,
    depth: s.depth,
    category: s.category,
    text: null,
    counts: s.counts,
    children: s.children.map(section),
  });
  return {
    type: 'document',
    title: structure.title,
    depth: 0,
    category: null,
    text: null,
    counts: structure.counts,
    children: structure.sections.map(section),
  };
}

async function serverDocumentId(url: string, keyOrId: string): Promise<string> {
  if (isUuid(keyOrId)) return keyOrId;
  const keys = [keyOrId, `uploads/${keyOrId.replace(/^\.?\/+/, '')}`];
  const params = new URLSearchParams({ q: keyOrId, limit: '200' });
  const { items } = await getJson<{ items: { id: string; key: string }[] }>(`${url}/api/documents?${params}`);
  const found = items.find((item) => keys.includes(item.key));
  if (!found) throw new NotFoundError(`No document with id or key ${keyOrId}`);
  return found.id;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = (JSON.parse(body) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // Not JSON: the status line says enough.
    }
    throw new Error(message);
  }
  return JSON.parse(body) as T;
}
