import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The repository: the modules whose exported functions read documents, passages, images, topics,
 * counts or versions for an asker. Each such function must take the asker's scope as a required
 * parameter, directly (`AccessScope`) or inside deps whose type requires it (`SearchDeps`, `QaDeps`,
 * a `QueryRanker`, a search made by `searchBy`). Add a module here when it gains such a reader.
 */
const REPOSITORY = [
  'shared/search/index.ts',
  'shared/documents/queries.ts',
  'shared/documents/topics.ts',
  'shared/diff/index.ts',
  'shared/api/routes/document-images.ts',
  'shared/qa/documents/images.ts',
  'shared/qa/history.ts',
  'shared/qa/summarize/sources.ts',
  'shared/qa/conversation/store.ts',
  'shared/enrich/topics/identify.ts',
];

/** Types that carry a required `access: AccessScope` (shared/search/types.ts, shared/qa/deps.ts). */
const SCOPED_TYPES = new Set(['AccessScope', 'SearchDeps', 'QaDeps']);

/** Types that hold the database: a function taking one reads it. */
const DB_TYPES = new Set(['Db', 'AssetDeps']);

/** Exported functions that read the database but return nothing an asker sees, each with why. */
const EXEMPT: Record<string, string> = {
  writeChangeSummary: "the Summarize step's own version (pipeline, no asker)",
  loadOutline: 'a version the caller already resolved in scope (diffVersions) or owns (pipeline)',
  diffVersionPair: 'a version pair the caller already resolved in scope (diffVersions) or owns (pipeline)',
  documentImageRoutes: 'the route factory; it reads through listDocumentImages with the request scope',
  saveAnswer: 'writes a turn',
  createConversation: "writes the owner's conversation",
  touchConversation: "writes the owner's conversation",
  deleteConversation: "deletes the owner's conversation",
  findConversation: "the owner's conversation row: its title is the owner's own question, no document text",
  listConversations: "the owner's conversation titles and turn counts, no document text",
  cosineSimilarities: 'scores for node ids an already scoped search returned; no content',
  invalidateMemoryIndex: 'returns nothing',
  keepMemoryIndexSnapshot: 'returns nothing (names the file the unrestricted index is kept in)',
  saveMemoryIndexSnapshot: 'returns nothing (writes the unrestricted index to its file)',
  warmSearchIndex: 'returns nothing (loads the unrestricted index the local server uses)',
  warmSearchIndexInBackground:
    'returns nothing (starts loading the unrestricted index the local server uses)',
};

const root = resolve(dirname(new URL(import.meta.url).pathname), '../../..');

interface ExportedFunction {
  name: string;
  file: string;
  /** Whether a required parameter carries the scope. */
  scoped: boolean;
  /** Whether it takes the database (or deps holding it) at all. */
  readsDb: boolean;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

function typeNames(node: ts.TypeNode | undefined): string[] {
  if (!node) return [];
  const names: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isTypeReferenceNode(n)) names.push(n.typeName.getText());
    ts.forEachChild(n, visit);
  };
  visit(node);
  return names;
}

function judge(params: readonly ts.ParameterDeclaration[]): { scoped: boolean; readsDb: boolean } {
  const required = params.filter((p) => !p.questionToken && !p.initializer);
  const types = params.flatMap((p) => typeNames(p.type));
  return {
    scoped: required.some((p) => typeNames(p.type).some((t) => SCOPED_TYPES.has(t))),
    readsDb: types.some((t) => DB_TYPES.has(t) || SCOPED_TYPES.has(t)),
  };
}

/** The exported functions of a module, following `export { a } from './b.ts'` to their source. */
function exportedFunctions(file: string, only?: Set<string>): ExportedFunction[] {
  const source = parse(file);
  const found: ExportedFunction[] = [];
  const exported = (n: ts.Node) =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && statement.exportClause) {
      if (!ts.isNamedExports(statement.exportClause) || statement.isTypeOnly) continue;
      const names = new Set(
        statement.exportClause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text),
      );
      const target = join(dirname(file), (statement.moduleSpecifier as ts.StringLiteral).text);
      found.push(...exportedFunctions(target, names));
      continue;
    }
    if (!exported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name) {
      found.push({ name: statement.name.text, file, ...judge(statement.parameters) });
    }
    if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        const name = decl.name.getText();
        const annotated = typeNames(decl.type);
        const init = decl.initializer;
        if (annotated.includes('QueryRanker')) {
          found.push({ name, file, scoped: true, readsDb: true });
        } else if (init && ts.isCallExpression(init) && init.expression.getText() === 'searchBy') {
          // searchBy(rank) returns (deps: SearchDeps, ...) => ..., with deps required.
          found.push({ name, file, scoped: true, readsDb: true });
        } else if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          found.push({ name, file, ...judge(init.parameters) });
        }
      }
    }
  }
  return only ? found.filter((f) => only.has(f.name)) : found;
}

describe('repository scope', () => {
  const functions = REPOSITORY.flatMap((file) => exportedFunctions(file));

  it('finds the repository functions (the enumeration itself works)', () => {
    const names = functions.map((f) => f.name);
    for (const name of [
      'diffVersions',
      'listDocumentImages',
      'readDocumentImage',
      'topicsOf',
      'loadTopic',
      'conversationEntries',
      'search',
      'fulltextSearch',
      'getNode',
      'listDocuments',
      'listTopics',
      'relatedDocuments',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('gives every exported repository function that reads the database a required access scope', () => {
    const unscoped = functions
      .filter((f) => f.readsDb && !f.scoped && !(f.name in EXEMPT))
      .map((f) => `${f.file}: ${f.name}`);
    expect(unscoped).toEqual([]);
  });

  it('flags a reader without a scope', () => {
    const [probe] = exportedFunctions('tests/unit/access/fixtures/unscoped-reader.ts');
    expect(probe).toMatchObject({ name: 'listEverything', readsDb: true, scoped: false });
  });
});
