import { parseArgs } from 'node:util';
import { ConfigError } from '../errors.ts';
import { CLI_OPTIONS } from './options.ts';

const USAGE = `DropQA: ask questions over your own documents.

Usage:
  dropqa serve                         start the local product (http://localhost:8787)
  dropqa ingest <files or folders>     ingest documents [--collection NAME] [--json]
  dropqa watch [<dir>...]              follow folders (default: watch.directories): added, changed, renamed, deleted files
  dropqa ask "<question>"              stream an answer with sources [--mode auto|agent|two-stage|documents|standard]
                                       [--version N] [--topic ID] [--document ID] [--conversation ID] [--collection NAME]
                                       [--show-reasoning] [--json]
  dropqa chat                          a conversation: follow-up questions know what was asked before
                                       (/new, /mode <mode>, /version <n|current>, /exit; Ctrl-C stops an answer) [--mode]
  dropqa search "<query>"              [--kind keyword|fulltext|semantic|hybrid] [--mode exact|regex|fuzzy] [--limit N]
                                       [--collection NAME] [--json]
  dropqa tree <file | key | id>        the document's section tree [--json] [--version N]
  dropqa status                        documents' status (processing step, failure reason) [--status S] [--all]
                                       [--collection NAME] [--json]
  dropqa versions <key or id>          a document's versions with hash, size, dates and stats [--json]
  dropqa diff <key or id>              what changed between two versions [--from N] [--to M] (default previous vs current) [--json]
  dropqa delete <key or id>            remove a document from search and topics, with its files
  dropqa reindex <key or id>           re-run the pipeline on the stored file (new version only if the result differs)
  dropqa config                        print the effective configuration (secrets masked)

Data folder: ./.dropqa unless DROPQA_DATA_DIR names another. Port: 8787 unless PORT says otherwise.
Settings: dropqa.config.yaml / dropqa.config.json or DROPQA_CONFIG, and DROPQA_SECTION__KEY variables.`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: CLI_OPTIONS,
  });
  const [command, ...args] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  // Loaded past --help: the configuration's schema (zod) and the logger are most of a bare start.
  const [{ loadConfig, maskSecrets }, { lineSink, setLogSink }] = await Promise.all([
    import('../config/index.ts'),
    import('../log/logger.ts'),
  ]);
  const config = loadConfig();
  setLogSink(lineSink(config.log));
  switch (command) {
    // Each command loads only its own modules, so `config` and `--help` answer at once.
    case 'serve':
      return (await import('./commands/serve.ts')).serveCommand(config);
    case 'watch':
      return (await import('./commands/watch.ts')).watchCommand(config, args);
    case 'ingest':
      return (await import('./commands/ingest.ts')).ingestCommand(config, args, {
        json: values.json,
        collection: values.collection,
      });
    case 'ask': {
      const { askCommand } = await import('./commands/ask.ts');
      return askCommand(config, args.join(' '), {
        mode: values.mode,
        version: values.version,
        topic: values.topic,
        document: values.document,
        showReasoning: values['show-reasoning'],
        conversation: values.conversation,
        collection: values.collection,
        json: values.json,
      });
    }
    case 'chat':
      return (await import('./commands/chat.ts')).chatCommand(config, {
        mode: values.mode,
        version: values.version,
      });
    case 'search': {
      const { searchCommand } = await import('./commands/search.ts');
      return searchCommand(config, args.join(' '), { ...values, json: values.json });
    }
    case 'tree': {
      const { treeCommand } = await import('./commands/tree.ts');
      return treeCommand(config, args[0], { json: values.json, version: values.version });
    }
    case 'status':
      return (await import('./commands/status.ts')).statusCommand(config, values);
    case 'versions':
      return (await import('./commands/versions.ts')).versionsCommand(config, args.join(' '), values);
    case 'diff':
      return (await import('./commands/diff.ts')).diffCommand(config, args.join(' '), values);
    case 'delete':
      return (await import('./commands/delete.ts')).deleteCommand(config, args.join(' '), values);
    case 'reindex':
      return (await import('./commands/reindex.ts')).reindexCommand(config, args.join(' '), values);
    case 'config':
      process.stdout.write(`${JSON.stringify(maskSecrets(config), null, 2)}\n`);
      return 0;
    default:
      process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
      return 2;
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code !== 0 || !['serve', 'watch'].includes(process.argv[2] ?? '')) process.exit(code);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${error instanceof ConfigError ? '' : 'error: '}${message}\n`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
